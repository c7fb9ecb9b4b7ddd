// A table wider than the reading column scrolls in its own box; the keyboard must reach that box and scroll
// it (axe scrollable-region-focusable, serious), in a plan and in a memory topic alike.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './helpers/axe.js';
import { useTestEnv } from './helpers/setup.js';

const PLAN = 'wide-table-plan-calm-ibis.md';
const columns = Array.from({ length: 14 }, (_, i) => `Column ${i} with a long heading`);
const TABLE = [`| ${columns.join(' | ')} |`, `|${columns.map(() => ' --- ').join('|')}|`, `| ${columns.map((_, i) => `value-${i}-that-does-not-wrap`).join(' | ')} |`].join('\n');

const env = useTestEnv({
  async extend(fx) {
    await writeFile(path.join(fx.plansDir, PLAN), `# Plan: Wide table\n\nThe matrix:\n\n${TABLE}\n\nAfter the table.\n`);
  },
});

describe('wide tables', () => {
  it('are reached by Tab and scrolled with the arrow keys, and axe finds no unreachable scrolling region', async () => {
    const { page } = await env.open(`?plan=${PLAN}`, { viewport: { width: 800, height: 900 } });
    const table = page.locator('.markdown-body table');
    await table.waitFor();
    expect(await table.evaluate((t) => t.scrollWidth > t.clientWidth)).toBe(true);
    const scrolling = (await axeViolations(page, { include: '.markdown-body' })).filter((v) => v.id === 'scrollable-region-focusable');
    expect(scrolling).toEqual([]);
    await page.locator('.markdown-body p').first().click();
    for (let i = 0; i < 10 && !(await table.evaluate((t) => t === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await table.evaluate((t) => t === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('End');
    await expect.poll(() => table.evaluate((t) => t.scrollLeft)).toBeGreaterThan(0);
  }, 60_000);
});

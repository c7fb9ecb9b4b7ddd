// A home with hundreds of projects, used by keyboard and mouse: the project filter is a combobox one
// can type into, the list/reader split is dragged or moved by keys and remembered, project names fit
// their column, and Back / Forward step through the plans opened (typing and sorting do not add steps).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './helpers/axe.js';
import { screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { query, renderedRows, useTestEnv } from './helpers/setup.js';
import { conversationLine } from '../test/helpers/home.js';

const PROJECTS = 320;
const LONG_PROJECT = 'customer-portal';
/** Longer than any column should be: cut, with the whole name on hover. */
const OVERLONG_PROJECT = 'legacy-customer-billing-exports-to-the-old-warehouse';
const LONG_TITLE = 'Migrate the billing exports to the new warehouse schema, step by step';

function sid(n: number): string {
  return `2c0d4f7e-2d3a-4c5b-9e8f-${n.toString(16).padStart(12, '0')}`;
}

/**
 * One plan in each of PROJECTS projects (proj-000 ...), one with a long title in a project with a long
 * name, and one in a project whose name is longer than a column should ever be.
 */
async function addProjects(fx: Fixture): Promise<void> {
  const names = [...Array.from({ length: PROJECTS }, (_, i) => `proj-${String(i).padStart(3, '0')}`), LONG_PROJECT, OVERLONG_PROJECT];
  for (const [i, name] of names.entries()) {
    const cwd = path.join(fx.root, 'work', name);
    const slug = name === LONG_PROJECT ? 'migrate-billing-exports-calm-heron' : `plan-of-${name}-quiet-wren`;
    await writeFile(path.join(fx.plansDir, `${slug}.md`), name === LONG_PROJECT ? `# Plan: ${LONG_TITLE}\n\nSteps.\n` : `# Plan: work on ${name}\n`);
    const dir = path.join(fx.home, 'projects', encodeKey(cwd));
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${sid(i)}.jsonl`), `${conversationLine(cwd, sid(i), slug)}\n`);
  }
}

const env = useTestEnv({ extend: addProjects });

const listWidth = (page: Page) => page.locator('.plans-split > .pane-list').evaluate((el) => Math.round(el.getBoundingClientRect().width));

describe('the project filter with hundreds of projects', () => {
  it('is typed into and driven by the keyboard: arrows, Enter, Escape', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const button = page.getByRole('button', { name: /Project:/ });
    await button.focus();
    await page.keyboard.press('Enter');
    const combo = page.getByRole('combobox', { name: /Projects/ });
    await expect.poll(() => combo.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByRole('option').count()).toBeGreaterThan(PROJECTS);
    await screenshot(page, 'bighome-filter-open');
    await expectAccessible(page, 'project filter open');

    await page.keyboard.type('proj-31');
    await expect.poll(() => page.locator('[role="option"] .check-name').allTextContents()).toEqual(
      Array.from({ length: 10 }, (_, i) => `proj-31${i}`),
    );
    // ↓ twice: the third match is active (aria-activedescendant), Enter ticks it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const active = await combo.getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${active}"]`).textContent()).toContain('proj-312');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await query(page)).getAll('project')).toEqual(['proj-312']);
    expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
    // The popup stays open for more; ↑ and Enter add another.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await query(page)).getAll('project')).toEqual(['proj-311', 'proj-312']);
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toContain('2 of');

    // Esc closes it and gives the focus back to the button, which names the choice.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('combobox').count()).toBe(0);
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await button.textContent()).toContain('2 projects');
    // The Escape was the filter's: the rest of the screen is as it was.
    expect((await query(page)).getAll('project')).toEqual(['proj-311', 'proj-312']);
    expect((await renderedRows(page)).sort()).toEqual(['plan-of-proj-311-quiet-wren.md', 'plan-of-proj-312-quiet-wren.md']);
    // axe over 300+ options takes seconds on the shared cores: a generous wait, not a time limit.
  }, 90_000);

  it('says so when no project matches what was typed', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    await page.getByRole('button', { name: /Project:/ }).click();
    await page.keyboard.type('no such project');
    await page.getByText('No project has “no such project” in its name.').waitFor();
    expect(await page.getByRole('listbox').count()).toBe(0);
    await page.keyboard.press('Enter');
    expect((await query(page)).getAll('project')).toEqual([]);
  });
});

describe('project names and titles', () => {
  it('fit their columns when there is room, and show in full on hover', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const row = page.locator('.grid-row[data-filename="migrate-billing-exports-calm-heron.md"]');
    await page.getByRole('searchbox').fill('billing');
    await row.waitFor();
    await screenshot(page, 'bighome-long-names');
    const cell = row.locator('.col-project');
    expect(await cell.getAttribute('title')).toBe(LONG_PROJECT);
    expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const title = row.locator('.row-title');
    expect(await title.getAttribute('title')).toBe(LONG_TITLE);
    // At 1400 px the title is not cut before its 40th character.
    const shown = await title.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const box = el.getBoundingClientRect();
      let chars = 0;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode as Text;
        for (let i = 0; i < node.length; i += 1) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          if (range.getBoundingClientRect().right <= box.right) chars += 1;
        }
      }
      return chars;
    });
    expect(shown).toBeGreaterThanOrEqual(40);

    await page.getByRole('searchbox').fill(OVERLONG_PROJECT);
    const overlong = page.locator('.grid-row .col-project', { hasText: OVERLONG_PROJECT });
    await overlong.waitFor();
    expect(await overlong.getAttribute('title')).toBe(OVERLONG_PROJECT);
    expect(await overlong.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow === 'ellipsis')).toBe(true);
  });
});

describe('the list/reader split', () => {
  it('moves with the arrow keys and the mouse, and is remembered', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const handle = page.getByRole('separator', { name: 'Width of the plans list' });
    const before = await listWidth(page);
    const valueBefore = Number(await handle.getAttribute('aria-valuenow'));
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => listWidth(page)).toBe(before + 48);
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBeGreaterThan(valueBefore);
    await page.keyboard.press('Home');
    await expect.poll(() => listWidth(page)).toBe(240);

    // Drag the border 200 px to the right.
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 100, box.y + 200, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 200, box.y + 200, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => listWidth(page)).toBeGreaterThan(240 + 190);
    const dragged = await listWidth(page);
    expect(dragged).toBeLessThan(240 + 210);
    await screenshot(page, 'bighome-split-dragged');

    await page.reload();
    await page.waitForSelector('.grid-row');
    expect(await listWidth(page)).toBe(dragged);
    // A double click goes back to the default width.
    await page.getByRole('separator', { name: 'Width of the plans list' }).dblclick();
    await expect.poll(() => listWidth(page)).toBe(before);
  });
});

describe('Back and Forward', () => {
  it('step through the plans opened by click or keyboard; typing and sorting replace the step', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const [first, second] = await renderedRows(page);
    await page.locator(`.grid-row[data-filename="${first}"]`).click();
    await expect.poll(async () => (await query(page)).get('plan')).toBe(first);
    // j opens the next plan: a step of its own.
    await page.locator('.grid-body').focus();
    await page.keyboard.press('j');
    await expect.poll(async () => (await query(page)).get('plan')).toBe(second);
    await page.getByRole('searchbox').fill('plan');
    await page.locator('.grid-header button', { hasText: 'Size' }).click();
    await expect.poll(async () => (await query(page)).get('sort')).toBe('size');
    const length = await page.evaluate(() => history.length);

    await page.goBack();
    await expect.poll(async () => (await query(page)).get('plan')).toBe(first);
    expect((await query(page)).get('q')).toBeNull();
    expect((await query(page)).get('sort')).toBeNull();
    await page.goBack();
    await expect.poll(async () => (await query(page)).get('plan')).toBeNull();
    await page.goForward();
    await page.goForward();
    await expect.poll(async () => (await query(page)).get('plan')).toBe(second);
    expect((await query(page)).get('q')).toBe('plan');
    expect((await query(page)).get('sort')).toBe('size');
    expect(await page.getByRole('searchbox').inputValue()).toBe('plan');
    expect(await page.evaluate(() => history.length)).toBe(length);
  });
});

// The Ctrl+K palette: one ranked search over plans, memory and sessions, grouped by kind with snippets and
// the matched words marked; arrows and Enter open a result with the match marked in its reader.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { write } from '../test/history/transcript.js';
import { screenshot } from './helpers/browser.js';
import { encodeKey } from './helpers/fixture.js';
import { query, useTestEnv } from './helpers/setup.js';

const PLAN = 'quokka-census-calm-heron.md';
/** Written by a session, never on disk now: an archived plan. */
const GONE = 'axolotl-survey-calm-eel.md';
const GONE_SESSION = '5e55104e-0000-4000-8000-00000000f1d0';

const env = useTestEnv({
  async extend(fx) {
    await writeFile(path.join(fx.plansDir, PLAN), '# Plan: Count the animals\n\nFirst the wallabies.\n\nThen every quokka on the island.\n');
    await writeFile(path.join(fx.memoryDir.api, 'wrap-rules.md'), '---\nname: Naming rules\ndescription: How names are written\ntype: feedback\n---\n\nWrap long identifiers in backticks.\n\nAlways lowercase file names.\n');
    await writeFile(path.join(fx.memoryDir.webapp, 'quokka-notes.md'), '---\nname: Island notes\ndescription: Where the quokka lives\n---\n\nRottnest.\n');
    const ctx = { cwd: fx.cwd.webapp, sessionId: GONE_SESSION, slug: 'axolotl-survey-calm-eel', at: '2026-10-01T10:00:00.000Z' };
    const log = path.join(fx.home, 'projects', encodeKey(fx.cwd.webapp), `${GONE_SESSION}.jsonl`);
    await mkdir(path.dirname(log), { recursive: true });
    await writeFile(log, write(ctx, path.join(fx.plansDir, GONE), '# Axolotl survey\n\nCount the ponds with a narrow net.\n') + '\n');
  },
});

describe('find palette', () => {
  it('opens with Ctrl+K, groups results by kind with marked snippets, and opens one at its match', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    await page.keyboard.press('Control+k');
    const input = page.getByRole('searchbox', { name: 'Find anything' });
    await input.waitFor();
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await input.fill('quokka');
    const plan = page.locator(`.find-hit[data-kind="plan"][data-id="${PLAN}"]`);
    await plan.waitFor();
    expect(await page.locator('.find-group').allTextContents()).toEqual(expect.arrayContaining(['Plans', 'Memory']));
    const snippet = plan.locator('.find-snippet').first();
    expect(await snippet.locator('.find-line').textContent()).toBe('5');
    expect(await snippet.locator('mark').allTextContents()).toEqual(['quokka']);
    const memory = page.locator('.find-hit[data-kind="memory"]');
    expect(await memory.locator('.find-title').textContent()).toContain('Island notes');
    await screenshot(page, 'find-palette');

    // Arrows move through the results in their shown order; Enter opens the selected one.
    const order = await page.locator('.find-hit').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-id')}`));
    const memoryAt = order.findIndex((k) => k.startsWith('memory:'));
    for (let i = 0; i < memoryAt; i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('.find-hit.active').getAttribute('data-kind')).toBe('memory');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await query(page)).get('view')).toBe('memory');
    expect((await query(page)).get('entry')).toMatch(/quokka-notes\.md$/);
    await expect.poll(() => page.locator('.reader-scroll mark').allTextContents()).toContain('quokka');

    // Back to the plan: it opens in the plans view with its matched line's word marked.
    await page.keyboard.press('Control+k');
    await input.fill('quokka in:plans');
    await expect.poll(() => page.locator('.find-hit').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(['plan']);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await query(page)).get('plan')).toBe(PLAN);
    expect((await query(page)).get('q')).toBe('quokka');
    await expect.poll(() => page.locator('.reader-scroll mark').allTextContents()).toEqual(['quokka']);
    await screenshot(page, 'find-opened-plan');
  }, 120_000);

  it('says so when nothing matches, and Esc closes it', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    await page.keyboard.press('Control+k');
    const input = page.getByRole('searchbox', { name: 'Find anything' });
    await input.fill('zzyzxnothing');
    await page.locator('.find-message', { hasText: 'Nothing found.' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.find-palette').evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
  }, 60_000);
});

describe('find palette, opening memory', () => {
  it('opens a memory hit with every word of the query searched and marked, whatever the project picker held', async () => {
    const { page } = await env.open('?view=memory&pick=webapp');
    await page.waitForSelector('.source-group');
    await page.keyboard.press('Control+k');
    const input = page.getByRole('searchbox', { name: 'Find anything' });
    await input.fill('wrap lowercase');
    const hit = page.locator('.find-hit[data-kind="memory"]', { hasText: 'Naming rules' });
    await hit.waitFor();
    await hit.click();
    await expect.poll(async () => (await query(page)).get('entry')).toMatch(/wrap-rules\.md$/);
    const url = await query(page);
    expect(url.get('q')).toBe('wrap lowercase');
    expect(url.get('pick')).toBeNull();
    await expect.poll(() => page.locator('.entry-name').allTextContents()).toContain('Naming rules');
    await expect.poll(async () => (await page.locator('.reader-scroll mark').allTextContents()).map((t) => t.toLowerCase()).sort()).toEqual(['lowercase', 'wrap']);
  }, 60_000);
});

describe('find palette, archived plans', () => {
  it('finds a plan gone from disk by its text and opens it in the Archive view', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    await page.keyboard.press('Control+k');
    const input = page.getByRole('searchbox', { name: 'Find anything' });
    await input.fill('narrow net');
    const hit = page.locator(`.find-hit[data-kind="plan"][data-id="${GONE}"]`);
    await hit.waitFor();
    expect(await hit.locator('.find-title').textContent()).toContain('Axolotl survey');
    expect(await hit.locator('.find-snippet mark').allTextContents()).toEqual(['narrow', 'net']);
    await hit.click();
    await expect.poll(async () => Object.fromEntries(await query(page))).toMatchObject({ view: 'archive', plan: GONE });
    await page.locator('.archived-chip').waitFor();
  }, 60_000);
});

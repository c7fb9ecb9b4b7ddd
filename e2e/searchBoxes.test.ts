// The plans and memory search boxes with find's snippets under the matching rows and the "Best match"
// order: the rows are the literal search's and the ranked search's (every word in any order, the last a
// prefix, one typo forgiven); find adds snippets (marked, inert), ranks them, and a snippet opens its
// document at its line with the match there current.
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './helpers/axe.js';
import { screenshot } from './helpers/browser.js';
import { query, renderedRows, useTestEnv } from './helpers/setup.js';

/** The word in the title, nowhere else. Older than LONG: newest-first puts it below. */
const TITLED = 'quokka-survey-calm-heron.md';
/** The word once, deep in a long body. */
const LONG = 'island-logistics-brave-wren.md';
/** The word on three lines, each a paragraph of its own: its snippets lead to three different marks. */
const DIARY = 'field-diary-quiet-lynx.md';

function filler(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Note ${i}: the ferry timetable, the water supply and the tents.`);
}

/** 1-based numbers of the lines holding the word. */
function linesWith(lines: readonly string[], word: string): number[] {
  return lines.flatMap((line, i) => (line.includes(word) ? [i + 1] : []));
}

const LONG_TEXT = ['# Plan: Island logistics', '', ...filler(80), 'The boats must not disturb a quokka on the jetty.', ...filler(20)];
const DIARY_TEXT = [
  '# Plan: Field diary', '', 'Morning: one quokka near the lighthouse.', '', ...filler(20), '', 'Noon: a quokka took a sandwich.', '',
  ...filler(22), '', 'Evening: the quokka came back.', '',
];
const DIARY_LINES = linesWith(DIARY_TEXT, 'quokka');

/** A memory entry found by name, and one found in its body on two lines of one long paragraph. */
const NAMED_MEMORY = 'quokka-facts.md';
const BODY_MEMORY = 'aardvark-log.md';
const FRONTMATTER = ['---', 'name: aardvark-log', 'description: Notes from the burrow', 'type: project', '---'];
const BODY_MEMORY_TEXT = [...FRONTMATTER, '', '# Log', 'Day one: a quokka wandered past the burrow.', ...filler(32), 'Day forty: the quokka again.', ''];
const BODY_MEMORY_LINES = linesWith(BODY_MEMORY_TEXT, 'quokka');

const env = useTestEnv({
  async extend(fx) {
    const day = 86_400_000;
    const at = async (file: string, text: string, ageDays: number) => {
      await writeFile(file, text);
      const t = new Date(Date.now() - ageDays * day);
      await utimes(file, t, t);
    };
    await at(path.join(fx.plansDir, TITLED), '# Plan: Quokka survey\n\nCount them, then count again.\n', 3);
    await at(path.join(fx.plansDir, LONG), `${LONG_TEXT.join('\n')}\n`, 0);
    await at(path.join(fx.plansDir, DIARY), DIARY_TEXT.join('\n'), 1);
    await writeFile(path.join(fx.memoryDir.webapp, BODY_MEMORY), BODY_MEMORY_TEXT.join('\n'));
    await writeFile(path.join(fx.memoryDir.webapp, NAMED_MEMORY), '---\nname: quokka-facts\ndescription: What they eat\ntype: reference\n---\n\nLeaves and grass.\n');
  },
});

const row = (page: Page, filename: string) => page.locator(`.grid-row[data-filename="${filename}"]`);

/** Where the reader's current mark is: the source line of its block, and whether it is in view. */
async function currentMark(page: Page): Promise<{ line: number | null; inView: boolean; text: string } | null> {
  return page.evaluate(() => {
    const mark = document.querySelector<HTMLElement>('.reader-scroll mark.search-hit.current');
    if (!mark) return null;
    const block = mark.closest<HTMLElement>('[data-line]');
    const box = mark.getBoundingClientRect();
    const pane = document.querySelector('.reader-scroll')!.getBoundingClientRect();
    return { line: block ? Number(block.dataset.line) : null, inView: box.top >= pane.top && box.bottom <= pane.bottom, text: mark.textContent ?? '' };
  });
}

describe('the plans search box', () => {
  it('shows marked snippets under the matching plans, orders by best match, and a snippet opens its line', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const steps = await page.evaluate(() => history.length);
    await page.getByRole('searchbox').fill('quokka');
    await row(page, TITLED).waitFor();
    await row(page, LONG).waitFor();

    // The long plan's one mention, with its line number and the word marked.
    const longSnippet = row(page, LONG).locator('.row-snippet');
    await expect.poll(() => longSnippet.count()).toBe(1);
    expect(await longSnippet.locator('.find-line').textContent()).toBe(String(linesWith(LONG_TEXT, 'quokka')[0]));
    expect(await longSnippet.locator('mark').allTextContents()).toEqual(['quokka']);
    expect(await longSnippet.locator('.find-text').textContent()).toBe('The boats must not disturb a quokka on the jetty.');

    // Best match is on while a query is typed: the plan titled with the word comes before the one that
    // mentions it once deep in its body, although that one is newer.
    const best = page.getByRole('button', { name: 'Best match' });
    expect(await best.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => {
      const rows = await renderedRows(page);
      return rows.indexOf(TITLED) >= 0 && rows.indexOf(TITLED) < rows.indexOf(LONG);
    }).toBe(true);
    expect((await query(page)).get('sort')).toBeNull();
    await screenshot(page, 'search-box-plans');

    // Off: newest first again, kept in the URL; on again: back to the short link. Neither adds a step.
    await best.click();
    await expect.poll(async () => (await query(page)).get('sort')).toBe('modified');
    expect(await best.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(async () => {
      const rows = await renderedRows(page);
      return rows.indexOf(LONG) < rows.indexOf(DIARY) && rows.indexOf(DIARY) < rows.indexOf(TITLED);
    }).toBe(true);
    await best.click();
    await expect.poll(async () => (await query(page)).get('sort')).toBeNull();
    expect(await page.evaluate(() => history.length)).toBe(steps);

    // The diary's last snippet opens the diary at its line: the third match is the current one.
    const diarySnippets = row(page, DIARY).locator('.row-snippet');
    await expect.poll(() => diarySnippets.locator('.find-line').allTextContents()).toEqual(DIARY_LINES.map(String));
    await diarySnippets.nth(2).click();
    await expect.poll(async () => (await query(page)).get('plan')).toBe(DIARY);
    expect((await query(page)).get('q')).toBe('quokka');
    await expect.poll(() => page.textContent('.match-count')).toBe('Match 3 of 3');
    await expect.poll(() => currentMark(page)).toEqual({ line: DIARY_LINES[2], inView: true, text: 'quokka' });
    await screenshot(page, 'search-box-plan-at-line');

    // The middle one, from the same open plan.
    await diarySnippets.nth(1).click();
    await expect.poll(() => page.textContent('.match-count')).toBe('Match 2 of 3');
    await expect.poll(() => currentMark(page)).toEqual({ line: DIARY_LINES[1], inView: true, text: 'quokka' });
  }, 120_000);

  it('passes axe with snippets shown, in both themes and at 360 px', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [{ width: 1400, height: 900 }, { width: 360, height: 740 }]) {
        const { page, context } = await env.open('?q=quokka', { colorScheme, viewport });
        const snippet = row(page, LONG).locator('.row-snippet');
        await snippet.waitFor();
        // The snippet stays inside its row and the window: cut with an ellipsis, never pushing the page wider.
        const fits = await snippet.evaluate((el) => {
          const box = el.getBoundingClientRect();
          const rowBox = el.closest('.grid-row')!.getBoundingClientRect();
          return box.right <= rowBox.right && box.bottom <= rowBox.bottom && box.right <= window.innerWidth;
        });
        expect(fits).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await screenshot(page, `search-box-plans-${viewport.width}-${colorScheme}`);
        await expectAccessible(page, `plans with snippets, ${viewport.width} px, ${colorScheme}`);
        await context.close();
      }
    }
  }, 120_000);

  it('keeps the literal matches and says quietly that snippets are unavailable when find fails', async () => {
    const { page } = await env.open();
    await page.route('**/api/find?**', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }));
    await page.waitForSelector('.grid-row');
    await page.getByRole('searchbox').fill('quokka');
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toContain('snippets unavailable');
    await expect.poll(async () => (await renderedRows(page)).sort()).toEqual([TITLED, LONG, DIARY].sort());
    expect(await page.locator('.row-snippet').count()).toBe(0);
    expect(await page.locator('[data-testid="plan-counts"] .error-text').count()).toBe(0);
  }, 60_000);
});

describe('the memory search box', () => {
  it('shows marked snippets under the matching entries, orders by best match, and a snippet opens its line', async () => {
    const { page } = await env.open('?view=memory');
    await page.waitForSelector('.source-group');
    await page.getByRole('searchbox', { name: /Search/ }).fill('quokka');
    const entry = (file: string) => page.locator(`li:has(> .entry-button[data-entry-id$="/${file}"])`);
    const snippets = entry(BODY_MEMORY).locator('.entry-snippet');
    await expect.poll(() => snippets.locator('.find-line').allTextContents()).toEqual(BODY_MEMORY_LINES.map(String));
    expect(await snippets.first().locator('mark').allTextContents()).toEqual(['quokka']);

    // Best match: the entry named for the word before the one that mentions it in its body, although
    // by name (the usual order) that one comes first.
    const names = () => page.locator('.entry-name').allTextContents();
    const best = page.getByRole('button', { name: 'Best match' });
    expect(await best.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(names).toEqual(['quokka-facts', 'aardvark-log']);
    await screenshot(page, 'search-box-memory');
    await best.click();
    await expect.poll(names).toEqual(['aardvark-log', 'quokka-facts']);
    expect((await query(page)).get('msort')).toBe('name');
    await best.click();
    await expect.poll(names).toEqual(['quokka-facts', 'aardvark-log']);
    expect((await query(page)).get('msort')).toBeNull();
    await expectAccessible(page, 'memory with snippets');

    // The second snippet opens the entry at its line: the second mark of the paragraph both lines are in
    // (which starts on the body's third line, the file's eighth: the reader shows the body only).
    await snippets.nth(1).click();
    await expect.poll(async () => (await query(page)).get('entry')).toMatch(new RegExp(`/${BODY_MEMORY}$`));
    await expect.poll(() => page.textContent('.match-count')).toBe('Match 2 of 2');
    await expect.poll(() => currentMark(page)).toEqual({ line: BODY_MEMORY_LINES[0]! - FRONTMATTER.length, inView: true, text: 'quokka' });
    await screenshot(page, 'search-box-memory-at-line');
  }, 120_000);

  it('passes axe with snippets shown in the dark theme', async () => {
    const { page, context } = await env.open('?view=memory&q=quokka', { colorScheme: 'dark' });
    await page.locator('.entry-snippet').first().waitFor();
    await expectAccessible(page, 'memory with snippets, dark');
    await context.close();
  }, 60_000);
});

describe('the search boxes match as the ranked search does', () => {
  it('finds plans by words in any order and with a typo', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const box = page.getByRole('searchbox');
    // "Quokka survey" is the title: typed the other way round, no literal substring holds it.
    await box.fill('survey quokka');
    await expect.poll(() => renderedRows(page)).toEqual([TITLED]);
    await box.fill('quokak survey');
    await expect.poll(() => renderedRows(page)).toEqual([TITLED]);
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toMatch(/^1 match\b/);
  }, 60_000);

  it('finds memory by words apart in its body, and the "all" chip counts what is listed', async () => {
    const { page } = await env.open('?view=memory');
    await page.waitForSelector('.source-group');
    await page.getByRole('searchbox', { name: /Search/ }).fill('burrow wandered');
    await expect.poll(() => page.locator('.entry-name').allTextContents()).toEqual(['aardvark-log']);
    await expect.poll(() => page.locator('.type-chips button').first().textContent()).toBe('all 1');
  }, 60_000);
});

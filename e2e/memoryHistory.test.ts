// A memory file's History and Blame tabs in a real browser over the real server: a session writes a topic
// and another edits it (their prompts shown), a hand edit after them shows as changed outside Claude Code,
// two versions are compared with the plan history's diff, and Blame names each line's last writer, with a
// secret masked until revealed.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { edit, prompt, write, type LineContext } from '../test/history/transcript.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { apiMemory, query, useTestEnv } from './helpers/setup.js';

const FIRST = 'a1a1a1a1-0000-4000-8000-00000000b10e';
const SECOND = 'b2b2b2b2-0000-4000-8000-00000000b10e';
const TOKEN = `ghp_${'Xy9'.repeat(12)}`;
const V1 = `# Release steps\n\nRun make release.\nCI token: ${TOKEN}\n`;
const V2 = V1.replace('make release', 'npm run release');
const HAND = `${V2}Ask Bob before Friday.\n`;
const DAY = 86_400_000;

async function addStory(fx: Fixture): Promise<void> {
  const cwd = fx.cwd.webapp;
  const base = Date.now() - 3 * DAY;
  const file = path.join(fx.memoryDir.webapp, 'release-steps.md');
  const ctx = (sessionId: string, minutes: number): LineContext => ({ cwd, sessionId, at: new Date(base + minutes * 60_000).toISOString() });
  const project = path.join(fx.home, 'projects', encodeKey(cwd));
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, `${FIRST}.jsonl`), [prompt(ctx(FIRST, 0), 'Write down how we release'), write(ctx(FIRST, 1), file, V1)].join('\n') + '\n');
  await writeFile(path.join(project, `${SECOND}.jsonl`), [prompt(ctx(SECOND, 60), 'We release with npm now'), edit(ctx(SECOND, 61), file, 'make release', 'npm run release')].join('\n') + '\n');
  await writeFile(file, HAND);
  const t = new Date(base + 120 * 60_000);
  await utimes(file, t, t);
}

const env = useTestEnv({ extend: addStory });

describe('a memory file\'s History and Blame', () => {
  it('lists the versions with their prompts, compares two, and blames each line', async () => {
    const memory = await apiMemory(env.server.url);
    const entry = memory.entries.find((e) => e.filename === 'release-steps.md')!;
    const { page } = await env.open(`?view=memory&entry=${encodeURIComponent(entry.id)}`);
    await page.getByRole('tab', { name: 'History' }).click();
    const versions = page.locator('.memory-version');
    await expect.poll(() => versions.count()).toBe(3);
    expect(await versions.locator('.version-name').allTextContents()).toEqual(['v1 · Written', 'v2 · Edited', 'v3 · outside Claude Code']);
    expect(await versions.locator('.version-prompt').allTextContents()).toEqual(['Write down how we release', 'We release with npm now']);
    expect(await versions.nth(2).locator('.who').textContent()).toBe('Changed outside Claude Code');

    // By default the last version against the one before: the hand-written line added.
    const diff = page.getByTestId('memory-diff');
    await expect.poll(() => diff.locator('.row-added').allTextContents()).toEqual([expect.stringContaining('Ask Bob before Friday.')]);
    // v1 against v3: the edited line and the hand-written one; the token masked in both.
    await page.getByLabel('Compare from').selectOption({ label: 'v1 · Written' });
    await expect.poll(() => diff.locator('.row-removed').allTextContents()).toEqual([expect.stringContaining('make release')]);
    expect(await diff.textContent()).not.toContain(TOKEN.slice(4, 16));

    await page.getByRole('tab', { name: 'Blame' }).click();
    const rows = page.locator('.blame-line');
    await expect.poll(() => rows.count()).toBe(5);
    const who = await rows.locator('.blame-who').allTextContents();
    expect(who.map((w) => w.replace(/ · \d.*| · seen .*/, '').replace(/ · (about|less|\d).*$/, ''))).toEqual([
      `v1 · Written in session ${FIRST.slice(0, 8)}`,
      `v1 · Written in session ${FIRST.slice(0, 8)}`,
      `v2 · Edited in session ${SECOND.slice(0, 8)}`,
      `v1 · Written in session ${FIRST.slice(0, 8)}`,
      'v3 · Changed outside Claude Code',
    ]);
    expect(await rows.nth(2).getAttribute('title')).toBe('Answering: We release with npm now');
    const tokenLine = rows.nth(3).locator('.line-text');
    expect(await tokenLine.textContent()).not.toContain(TOKEN.slice(4, 16));
    await page.getByTestId('memory-blame').getByRole('button', { name: 'Reveal' }).click();
    await expect.poll(() => tokenLine.textContent()).toBe(`CI token: ${TOKEN}`);
  });

  it('keeps the tab in the address: a link opens on it, Back returns to the one before', async () => {
    const memory = await apiMemory(env.server.url);
    const entry = memory.entries.find((e) => e.filename === 'release-steps.md')!;
    const { page } = await env.open(`?view=memory&entry=${encodeURIComponent(entry.id)}&etab=blame`);
    expect(await page.getByRole('tab', { name: 'Blame' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.locator('.blame-line').count()).toBe(5);
    await page.getByRole('tab', { name: 'History' }).click();
    await expect.poll(async () => (await query(page)).get('etab')).toBe('history');
    await page.goBack();
    await expect.poll(async () => (await query(page)).get('etab')).toBe('blame');
    await expect.poll(() => page.getByRole('tab', { name: 'Blame' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tablist', { name: 'Memory views' }).getByRole('tab', { name: 'Document' }).click();
    await expect.poll(async () => (await query(page)).get('etab')).toBeNull();
  });
});

// A plan's story in a real browser over the real server: the History tab's timeline (versions from a
// Write and an Edit in a transcript, a rejected and an approved ExitPlanMode), two versions compared
// (rendered, as markdown, side by side, with the changed words marked), the session card with its resume
// command, the "at risk" badge, and the Archive view of a plan whose file is gone.
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPROVED, edit, exitPlanMode, meta, prompt, rejected, toolResult, write, type LineContext } from '../test/history/transcript.js';
import { screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { clipboard, query, useTestEnv } from './helpers/setup.js';

const PLAN = 'history-demo-brave-fox.md';
const GONE = 'gone-plan-quiet-heron.md';
/** Gone too, and without a heading: listed under its session's title. */
const UNTITLED = 'gone-notes-calm-owl.md';
const SESSION = '5e55104e-0000-4000-8000-00000000a11c';
const V1 = '# Plan: Theme switch\n\n## Steps\n\n1. Add a toggle to the header\n2. Store the choice\n';
const V2 = '# Plan: Theme switch\n\n## Steps\n\n1. Add a theme toggle to the footer\n2. Store the choice\n';
const GONE_TEXT = '# Plan: Retired migration\n\nMove the old tables.\n';
const DAY = 86_400_000;

async function addStory(fx: Fixture): Promise<void> {
  const cwd = fx.cwd.webapp;
  const base = Date.now() - 28 * DAY;
  const ctx = (minutes: number): LineContext => ({ cwd, sessionId: SESSION, slug: 'history-demo-brave-fox', at: new Date(base + minutes * 60_000).toISOString() });
  const planPath = path.join(fx.plansDir, PLAN);
  const exit1 = exitPlanMode(ctx(2));
  const exit2 = exitPlanMode(ctx(5));
  const lines = [
    prompt(ctx(0), 'Plan a theme switch'),
    write(ctx(1), planPath, V1),
    exit1.line,
    toolResult(ctx(3), exit1.id, rejected('Put it in the footer.'), true),
    edit(ctx(4), planPath, 'a toggle to the header', 'a theme toggle to the footer'),
    exit2.line,
    toolResult(ctx(6), exit2.id, APPROVED),
    write(ctx(7), path.join(fx.plansDir, GONE), GONE_TEXT),
    write(ctx(6), path.join(fx.plansDir, UNTITLED), 'Just notes, no heading.\n'),
    meta.customTitle(SESSION, 'Theme switch work'),
  ];
  const log = path.join(fx.home, 'projects', encodeKey(cwd), `${SESSION}.jsonl`);
  await mkdir(path.dirname(log), { recursive: true });
  await writeFile(log, lines.join('\n') + '\n');
  // On disk: the last version, last written 28 days ago (Claude Code deletes it after 30).
  await writeFile(planPath, V2);
  const t = new Date(base + 4 * 60_000);
  await utimes(planPath, t, t);
  // At risk too, with a title far longer than its column.
  const longPath = path.join(fx.plansDir, LONG);
  await writeFile(longPath, `# Plan: ${'Migrate every billing report to the new warehouse schema, '.repeat(4)}\n\nSteps.\n`);
  await utimes(longPath, t, t);
}

/** An at-risk plan whose title is cut with an ellipsis: its badge must still show. */
const LONG = 'long-title-plan-slow-crane.md';

const env = useTestEnv({ extend: addStory });

describe('the History tab', () => {
  it('lists the versions and plan-mode events, and compares two versions', async () => {
    const { page } = await env.open(`?plan=${PLAN}`);
    await page.getByRole('tab', { name: /^History/ }).click();
    await expect.poll(async () => (await query(page)).get('ptab')).toBe('history');
    const versions = page.locator('.timeline-version');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.nth(0).locator('.version-name').textContent()).toBe('v1 · Written');
    expect(await versions.nth(1).locator('.version-name').textContent()).toBe('v2 · Edited');
    // Each version and event names its session by the session's title, the id on hover.
    const name = versions.nth(0).locator('.session-name');
    await expect.poll(() => name.textContent()).toBe('Theme switch work');
    expect(await name.getAttribute('title')).toBe(`Session ${SESSION}`);
    await expect.poll(() => page.locator('.timeline-event .session-name').allTextContents()).toEqual(['Theme switch work', 'Theme switch work']);
    // The rejection sits between the two versions, with the user's words; the approval after the last.
    const items = await page.locator('.timeline-item').evaluateAll((els) => els.map((e) => e.className.match(/(timeline-version|event-[a-z-]+)/)![1]));
    expect(items).toEqual(['timeline-version', 'event-plan-rejected', 'timeline-version', 'event-plan-approved']);
    expect(await page.locator('.event-feedback').textContent()).toBe('Put it in the footer.');

    // By default the last version against the one before: rendered, the changed words marked.
    const diff = page.getByTestId('history-diff');
    await expect.poll(() => diff.locator('ins.word-added').allTextContents()).toEqual(['added: theme ', 'added: footer']);
    expect(await diff.locator('del.word-removed').allTextContents()).toEqual(['removed: header']);
    expect(await diff.locator('.block-changed').count()).toBe(1);
    await screenshot(page, 'history-rendered-inline');

    // As markdown, side by side: the old line beside the new one, with line numbers.
    await page.getByRole('button', { name: 'Markdown', exact: true }).click();
    await page.getByRole('button', { name: 'Side by side' }).click();
    await expect.poll(async () => Object.fromEntries(await query(page))).toMatchObject({ raw: '1', layout: 'split' });
    const pair = diff.locator('.diff-pair').filter({ has: page.locator('.row-removed') });
    await expect.poll(() => pair.count()).toBe(1);
    expect(await pair.locator('.side-old .line-text').textContent()).toBe('1. Add a toggle to the removed: header');
    expect(await pair.locator('.side-new del, .side-new ins').allTextContents()).toEqual(['added: theme ', 'added: footer']);
    await screenshot(page, 'history-markdown-split');

    // The same version on both sides: nothing differs.
    await page.getByRole('button', { name: 'Compare from v2' }).click();
    await expect.poll(() => diff.textContent()).toContain('same text');

    // A reload shows the same screen.
    await page.reload();
    await expect.poll(() => page.getByTestId('history-diff').textContent()).toContain('same text');
  });

  it('gives a side-by-side comparison the reader\'s whole width at 1400 px', async () => {
    const { page } = await env.open(`?plan=${PLAN}&ptab=history&layout=split`);
    const compare = page.locator('.history-compare');
    await compare.waitFor();
    const reader = (await page.locator('.reader').boundingBox())!;
    const box = (await compare.boundingBox())!;
    expect(box.width).toBeGreaterThan(reader.width - 80);
    // The timeline is above it, not beside it.
    const timeline = (await page.locator('.history-timeline').boundingBox())!;
    expect(timeline.y + timeline.height).toBeLessThanOrEqual(box.y + 1);
  });

  it('copies any version\'s markdown', async () => {
    const { page } = await env.open(`?plan=${PLAN}&ptab=history`);
    await page.getByRole('button', { name: 'Copy the markdown of v1' }).click();
    await expect.poll(() => clipboard(page)).toBe(V1);
  });

  it('shows the session card with its resume command, and the at-risk badge', async () => {
    const { page } = await env.open(`?plan=${PLAN}`);
    const badge = page.locator('.reader-meta .risk-badge');
    await expect.poll(() => badge.textContent()).toMatch(/At risk · in [12] days?/);
    expect(await badge.getAttribute('title')).toContain('stays readable here');
    // The list says it too, for those plans only (the fixture's other plans are days old), and the badge
    // stays in view beside a title cut short.
    await expect.poll(() => page.locator('.grid-row .badge-risk').count()).toBe(2);
    expect(await page.locator(`.grid-row[data-filename="${PLAN}"] .badge-risk`).textContent()).toBe('at risk');
    const cell = page.locator(`.grid-row[data-filename="${LONG}"] .col-title`);
    const cellBox = (await cell.boundingBox())!;
    const badgeBox = (await cell.locator('.badge-risk').boundingBox())!;
    expect(badgeBox.width).toBeGreaterThan(20);
    expect(badgeBox.x + badgeBox.width).toBeLessThanOrEqual(cellBox.x + cellBox.width + 0.5);
    await page.locator('.session-cards summary').click();
    const card = page.locator(`.session-card[data-session-id="${SESSION}"]`);
    await expect.poll(() => card.locator('.session-title').textContent()).toBe('Theme switch work');
    expect(await card.locator('.resume-command').textContent()).toBe(`cd ${env.fx.cwd.webapp} && claude --resume ${SESSION}`);
    expect(await card.textContent()).toContain('Plan a theme switch');
    // Its transcript's last line is 28 days old: Claude Code deletes it within days.
    expect(await card.locator('.transcript-risk').textContent()).toMatch(/deletes this transcript in [12] days?/);
  });
});

describe('the Archive view', () => {
  it('lists a plan whose file is gone and reads it from its versions', async () => {
    const archived = async () => ((await (await fetch(`${env.server.url}api/archive`)).json()) as { plans: { filename: string; title: string }[] }).plans.map((p) => `${p.filename}: ${p.title}`);
    // A plan the viewer never saw is titled by its name until its story is built (in the background).
    await expect.poll(archived).toEqual([`${GONE}: Retired migration`, `${UNTITLED}: gone-notes-calm-owl`]);
    const { page } = await env.open();
    await page.getByRole('tab', { name: 'Archive' }).click();
    await expect.poll(async () => (await query(page)).get('view')).toBe('archive');
    const row = page.locator(`.archive-row[data-filename="${GONE}"]`);
    // The viewer never saw its file: the service titles it by its last version's heading (rebuilt from the
    // transcript); a plan without a heading is titled by its name, and its row names its session.
    expect(await row.locator('.row-title').textContent()).toBe('Retired migration');
    const untitled = page.locator(`.archive-row[data-filename="${UNTITLED}"]`);
    expect(await untitled.locator('.row-title').textContent()).toBe('gone-notes-calm-owl');
    await expect.poll(() => untitled.locator('.archive-row-meta').textContent()).toContain('from “Theme switch work”');
    // Listed plans are not archived.
    expect(await page.locator(`.archive-row[data-filename="${PLAN}"]`).count()).toBe(0);
    await row.click();
    // It opens on its last version, not on a comparison of its one version with itself.
    expect(await page.getByRole('tab', { name: 'Last version' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.locator('.archive-reader .markdown-body h1').first().textContent()).toBe('Plan: Retired migration');
    // Its title from its last version's heading.
    await expect.poll(() => page.locator('.archive-reader .reader-title').textContent()).toBe('Retired migration');
    await page.getByRole('tab', { name: /^History/ }).click();
    await expect.poll(() => page.locator('.timeline-version').count()).toBe(1);
    await screenshot(page, 'archive-reader');
  });

  it('is used from the keyboard, copies, downloads and restores the last version into its folder', async () => {
    const w = await env.open('?view=archive');
    const { page } = w;
    await page.locator('.archive-row').first().waitFor();
    const order = await page.locator('.archive-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-filename')));
    await page.locator('.list-counts').click();
    await page.keyboard.press('j');
    await expect.poll(async () => (await query(page)).get('plan')).toBe(order[0]);
    await page.keyboard.press('j');
    await expect.poll(async () => (await query(page)).get('plan')).toBe(order[1]);
    await page.keyboard.press('k');
    await expect.poll(async () => (await query(page)).get('plan')).toBe(order[0]);
    // The memory view was not moved behind the Archive's back.
    expect((await query(page)).get('entry')).toBeNull();

    await page.goto(`${env.server.url}?view=archive&plan=${GONE}`);
    await page.locator('.archive-reader .markdown-body h1').first().waitFor();
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => clipboard(page)).toBe(GONE_TEXT);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download HTML' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.html$/);

    await page.getByRole('button', { name: 'Restore…' }).click();
    expect(await page.locator('.restore-confirm code').textContent()).toBe(path.join(env.fx.plansDir, GONE));
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    // The plans view (the default: no view in the URL) with the plan open.
    await expect.poll(async () => (await query(page)).get('view')).toBeNull();
    expect((await query(page)).get('plan')).toBe(GONE);
    expect(await readFile(path.join(env.fx.plansDir, GONE), 'utf8')).toBe(GONE_TEXT);
    await page.locator(`.grid-row[data-filename="${GONE}"]`).waitFor();
    // No request of the archived plan's /content, which does not exist.
    expect(w.consoleErrors.filter((e) => e.includes('404'))).toEqual([]);
  });
});

// The session view in a real browser: a session's conversation from the transcript API, opened from a
// session card, the plan header and Ctrl+K; tool calls folded; the next page; a deep link that survives a
// reload; a subagent's thread; hostile text inert; accessible at 360 px in the dark theme.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPROVED, exitPlanMode, planModeAttachment, prompt, toolResult, toolUse, write, type LineContext } from '../test/history/transcript.js';
import { expectAccessible } from './helpers/axe.js';
import { screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { query, useTestEnv } from './helpers/setup.js';

const PLAN = 'wombat-tidy-brave-fox.md';
const SESSION = '5e55104e-0000-4000-8000-0000000000d1';
const AGENT = 'a0f1e2d3c4b5a6978';
/** A subagent whose call's result does not name it: only its .meta.json's toolUseId ties it to the call. */
const QUIET_AGENT = 'a9e8d7c6b5a4f3e21';
const TEXT = '# Plan: Tidy the wombat cache\n\n1. Clear src/wombat.ts\n';
const HOSTILE = 'Done, **all tidy**. <img src=x onerror="window.__xss=1"> <script>window.__xss=2</script> [click](javascript:window.__xss=3)';

function answer(ctx: LineContext, text: string): string {
  return JSON.stringify({
    parentUuid: null, isSidechain: Boolean(ctx.agentId), type: 'assistant', timestamp: ctx.at, cwd: ctx.cwd, sessionId: ctx.sessionId, uuid: `u-${Math.random()}`,
    ...(ctx.agentId ? { agentId: ctx.agentId } : {}),
    message: { model: 'claude-sonnet-4-5', id: `msg_${Math.random()}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }], usage: { input_tokens: 10, output_tokens: 5 } },
  });
}

async function addSession(fx: Fixture): Promise<void> {
  const cwd = fx.cwd.webapp;
  const base = Date.now() - 86_400_000;
  const ctx = (minutes: number, agentId?: string): LineContext => ({
    cwd, sessionId: SESSION, slug: 'wombat-tidy-brave-fox', at: new Date(base + minutes * 60_000).toISOString(), ...(agentId ? { agentId } : {}),
  });
  const planPath = path.join(fx.plansDir, PLAN);
  const exit = exitPlanMode(ctx(2));
  const test = toolUse(ctx(4), 'Bash', { command: 'npm test -- wombat' });
  const agent = toolUse(ctx(5), 'Agent', { description: 'Find the wombats', prompt: 'Find every wombat', subagent_type: 'Explore' });
  const quiet = toolUse(ctx(6), 'Task', { description: 'Count the quokkas', prompt: 'Count every quokka', subagent_type: 'general-purpose' });
  const compaction = JSON.stringify({ parentUuid: null, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', timestamp: ctx(7).at, cwd, sessionId: SESSION, uuid: 'u-compact', compactMetadata: { trigger: 'auto', preTokens: 1000 } });
  const lines = [
    prompt(ctx(0), 'Tidy the quagga cache please'), planModeAttachment(ctx(0), 'plan_mode', planPath), write(ctx(1), planPath, TEXT), exit.line, toolResult(ctx(3), exit.id, APPROVED),
    test.line, toolResult(ctx(4), test.id, 'Tests 3 passed (wombat)'), agent.line, toolResult(ctx(6), agent.id, `Found 3 wombats.\nagentId: ${AGENT} (for resuming)`),
    quiet.line, toolResult(ctx(6), quiet.id, 'There are 7 quokkas.'), answer(ctx(6), HOSTILE), compaction,
  ];
  // Enough lines that the log takes more than one page (200 lines a page).
  for (let i = 0; i < 230; i++) lines.push(i % 2 ? answer(ctx(8 + i), `Filler answer ${i}`) : prompt(ctx(8 + i), `Filler prompt ${i}`));
  lines.push(prompt(ctx(300), 'The final numbat question'));
  const dir = path.join(fx.home, 'projects', encodeKey(cwd));
  await mkdir(path.join(dir, SESSION, 'subagents'), { recursive: true });
  await writeFile(path.join(dir, `${SESSION}.jsonl`), lines.join('\n') + '\n');
  await writeFile(path.join(dir, SESSION, 'subagents', `agent-${AGENT}.jsonl`), [
    prompt(ctx(5, AGENT), 'Find every wombat'), answer(ctx(6, AGENT), 'The subagent found three wombats'),
  ].join('\n') + '\n');
  await writeFile(path.join(dir, SESSION, 'subagents', `agent-${QUIET_AGENT}.jsonl`), [
    prompt(ctx(6, QUIET_AGENT), 'Count every quokka'), answer(ctx(6, QUIET_AGENT), 'Seven quokkas counted'),
  ].join('\n') + '\n');
  await writeFile(path.join(dir, SESSION, 'subagents', `agent-${QUIET_AGENT}.meta.json`), JSON.stringify({ agentType: 'general-purpose', description: 'Count the quokkas', toolUseId: quiet.id }));
  await writeFile(planPath, TEXT);
}

const env = useTestEnv({ extend: addSession });

async function entryCursor(text: string): Promise<number> {
  let cursor: number | null = 0;
  while (cursor !== null) {
    const res = await fetch(`${env.server.url}api/sessions/${SESSION}/transcript?cursor=${cursor}&limit=1000`);
    const body = (await res.json()) as { entries: { cursor: number; text: string }[]; nextCursor: number | null };
    const hit = body.entries.find((e) => e.text === text);
    if (hit) return hit.cursor;
    cursor = body.nextCursor;
  }
  throw new Error(`no entry ${text}`);
}

describe('the session view', () => {
  it('opens from a session card: prompts, answers, folded tool calls, plan mode, compaction, hostile text inert', async () => {
    const { page, consoleErrors, pageErrors } = await env.open(`?plan=${PLAN}`);
    await page.locator('.session-cards summary').click();
    await page.locator(`.session-card[data-session-id="${SESSION}"] .open-session-link`).click();
    await expect.poll(async () => (await query(page)).get('view')).toBe('session');
    expect((await query(page)).get('session')).toBe(SESSION);
    const convo = page.getByRole('list', { name: 'Conversation' });
    await convo.locator('li.entry-prompt', { hasText: 'Tidy the quagga cache please' }).waitFor();
    expect(await convo.locator('.entry-plan-mode').count()).toBeGreaterThan(0);
    expect(await convo.locator('.entry-compaction').textContent()).toContain('Conversation compacted');
    // The answer is markdown, rendered, with its hostile parts gone.
    const hostile = convo.locator('.entry-markdown', { hasText: 'all tidy' });
    expect(await hostile.locator('strong').textContent()).toBe('all tidy');
    expect(await hostile.locator('img[onerror], script, a[href^="javascript"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    // A tool call is one line; opening it shows its input and result, Enter closes it again.
    const call = convo.locator('.tool-line', { hasText: 'npm test -- wombat' });
    expect(await call.getAttribute('aria-expanded')).toBe('false');
    expect(await convo.locator('.tool-result', { hasText: 'Tests 3 passed' }).count()).toBe(0);
    await call.click();
    expect(await call.getAttribute('aria-expanded')).toBe('true');
    await convo.locator('.tool-result', { hasText: 'Tests 3 passed (wombat)' }).waitFor();
    expect(await convo.locator('.tool-input', { hasText: '"command": "npm test -- wombat"' }).count()).toBe(1);
    await call.focus();
    await page.keyboard.press('Enter');
    expect(await call.getAttribute('aria-expanded')).toBe('false');
    expect(await convo.locator('.tool-result', { hasText: 'Tests 3 passed' }).count()).toBe(0);
    expect([...consoleErrors, ...pageErrors]).toEqual([]);
    await screenshot(page, 'session-view');
    await expectAccessible(page, 'session view');
  }, 120_000);

  it('loads the next page on scroll, and opens a subagent as a nested thread', async () => {
    const { page } = await env.open(`?view=session&session=${SESSION}`);
    const convo = page.getByRole('list', { name: 'Conversation' });
    await convo.locator('.entry').first().waitFor();
    expect(await convo.locator('li.entry-prompt', { hasText: 'The final numbat question' }).count()).toBe(0);
    await page.locator('.transcript-more').scrollIntoViewIfNeeded();
    await convo.locator('li.entry-prompt', { hasText: 'The final numbat question' }).waitFor();
    expect(await page.locator('.transcript-more').count()).toBe(0);

    const toggle = page.locator(`.subagent[data-agent-id="${AGENT}"] .subagent-toggle`);
    await toggle.scrollIntoViewIfNeeded();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const nested = page.getByRole('list', { name: 'Subagent thread' });
    await nested.locator('.entry-markdown', { hasText: 'The subagent found three wombats' }).waitFor();
    expect(await nested.locator('li.entry-prompt .entry-text').textContent()).toBe('Find every wombat');
    // Tied to its call by the meta file alone: nested under that call, not listed apart.
    const quiet = convo.locator('li.entry', { has: page.locator(`.subagent[data-agent-id="${QUIET_AGENT}"]`) });
    expect(await quiet.count()).toBe(1);
    expect(await quiet.locator('.subagent-toggle').textContent()).toContain('general-purpose: Count the quokkas');
    expect(await quiet.textContent()).toContain('Task');
  }, 120_000);

  it('opens at a linked entry, highlighted, and again after a reload', async () => {
    const at = await entryCursor('The final numbat question');
    const { page } = await env.open(`?view=session&session=${SESSION}&at=${at}`);
    const target = page.locator(`#entry-${at}`);
    await target.waitFor();
    expect(await target.getAttribute('class')).toContain('highlighted');
    expect(await target.textContent()).toContain('The final numbat question');
    // What comes before the linked entry loads above it, the linked entry kept.
    expect(await page.locator('li.entry-prompt', { hasText: 'Tidy the quagga cache please' }).count()).toBe(0);
    const earlier = page.getByRole('button', { name: 'Load earlier' });
    const entries = page.locator('.transcript > li');
    for (let pages = 0; (await earlier.count()) > 0; pages++) {
      expect(pages).toBeLessThan(20);
      const shown = await entries.count();
      await earlier.click();
      await expect.poll(() => entries.count()).toBeGreaterThan(shown);
    }
    await page.locator('li.entry-prompt', { hasText: 'Tidy the quagga cache please' }).waitFor();
    expect(await page.locator(`#entry-${at}`).count()).toBe(1);
    // Every entry once, in the log's order.
    const cursors = (await entries.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.cursor)))).filter((c) => !Number.isNaN(c));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    await page.reload();
    await page.locator(`#entry-${at}.highlighted`).waitFor();
    // The entry's own link puts it in the URL.
    await page.getByRole('button', { name: 'Start from the beginning' }).click();
    const first = page.locator('li.entry-prompt', { hasText: 'Tidy the quagga cache please' });
    await first.waitFor();
    await first.locator('.entry-link').click();
    const cursor = await first.getAttribute('data-cursor');
    await expect.poll(async () => (await query(page)).get('at')).toBe(cursor);
    await expect.poll(() => first.getAttribute('class')).toContain('highlighted');
  }, 120_000);

  it('opens from the plan header and from a Ctrl+K session hit', async () => {
    const { page } = await env.open(`?plan=${PLAN}`);
    await page.locator('.reader-meta .open-session-link').first().click();
    await expect.poll(async () => (await query(page)).get('session')).toBe(SESSION);
    await page.locator('li.entry-prompt', { hasText: 'Tidy the quagga cache please' }).waitFor();

    await page.goto(env.server.url);
    await page.waitForSelector('.grid-row');
    await page.keyboard.press('Control+k');
    await page.getByRole('searchbox', { name: 'Find anything' }).fill('quagga');
    const hit = page.locator(`.find-hit[data-kind="session"][data-id="${SESSION}"]`);
    await hit.waitFor();
    await hit.click();
    await expect.poll(async () => (await query(page)).get('view')).toBe('session');
    expect((await query(page)).get('session')).toBe(SESSION);
    await page.locator('li.entry-prompt', { hasText: 'Tidy the quagga cache please' }).waitFor();
  }, 120_000);

  it('passes axe in the dark theme at 360 px without a sideways page scroll', async () => {
    const { page, context } = await env.open(`?view=session&session=${SESSION}`, { colorScheme: 'dark', viewport: { width: 360, height: 800 } });
    await page.locator('.entry').first().waitFor();
    await page.locator('.tool-line').first().click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'session view, dark, 360');
    await screenshot(page, 'session-view-360-dark');
    await context.close();
  }, 120_000);
});

// The session view's Memory tab in a real browser: a session of the api project (whose MEMORY.md is over the
// 200-line limit) was handed a topic in a relevant_memories attachment and wrote a new topic. The tab shows
// MEMORY.md as it was at start with Claude Code's cut, the attachment folded until opened, the write linking
// to the memory reader; the memory reader's History names the session among those the topic was handed to.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prompt, write, type LineContext } from '../test/history/transcript.js';
import { expectAccessible } from './helpers/axe.js';
import { screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { apiMemory, query, useTestEnv } from './helpers/setup.js';

const SESSION = '5e55aeae-0000-4000-8000-0000000000e1';
const HANDED = 'Body 3 of the handed topic, seen by the model.';

async function addSession(fx: Fixture): Promise<void> {
  const cwd = fx.cwd.api;
  // After the fixture's files were written: they are the memory as it was when the session started.
  const base = Date.now() + 60_000;
  const ctx = (minutes: number): LineContext => ({ cwd, sessionId: SESSION, at: new Date(base + minutes * 60_000).toISOString() });
  const handed = JSON.stringify({
    parentUuid: null, isSidechain: false, type: 'attachment',
    attachment: { type: 'relevant_memories', memories: [{ path: path.join(fx.memoryDir.api, 'topic-3.md'), content: HANDED }] },
    timestamp: ctx(1).at, cwd, sessionId: SESSION, uuid: 'u-handed',
  });
  const project = path.join(fx.home, 'projects', encodeKey(cwd));
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, `${SESSION}.jsonl`), [
    prompt(ctx(0), 'What do we know about topic 3?'), handed, write(ctx(2), path.join(fx.memoryDir.api, 'fresh-topic.md'), '# Fresh\nLearned today.\n'),
  ].join('\n') + '\n');
  // On disk as the write left it, a moment after its line was logged (the tool runs after the call is written).
  const fresh = path.join(fx.memoryDir.api, 'fresh-topic.md');
  await writeFile(fresh, '# Fresh\nLearned today.\n');
  const written = new Date(Date.parse(ctx(2).at) + 1000);
  await utimes(fresh, written, written);
}

const env = useTestEnv({ extend: addSession });

describe('the session view\'s Memory tab', () => {
  it('shows the memory at start with its cut, the attachment folded, the write linked; the reader names who was handed a file', async () => {
    const { page, consoleErrors, pageErrors } = await env.open(`?view=session&session=${SESSION}`);
    await page.getByRole('tab', { name: 'Memory', exact: true }).click();
    const panel = page.getByTestId('session-memory');
    const cut = panel.getByTestId('index-cut');
    await cut.waitFor();
    expect(await cut.textContent()).toMatch(/^Claude Code loaded 200 of 230 lines .* from line 201, was cut past the 200-line limit\.$/);
    // The session wrote memory in that folder: that is how it is known.
    expect(await panel.locator('.session-memory-folder').textContent()).toContain('The session wrote memory there.');
    await panel.getByRole('button', { name: 'Show that version' }).click();
    const text = panel.getByTestId('index-version-text');
    await text.locator('.cut-marker').waitFor();
    expect(await text.locator('.not-loaded').textContent()).toContain('Tail line 230: never read by Claude Code');
    const topics = (await panel.locator('.session-memory-topics li').allTextContents()).join('\n');
    expect(topics).toContain('topic-3.md');
    expect(topics).not.toContain('fresh-topic.md');

    // The attachment is folded: its text shows once opened.
    const attachment = panel.locator('.session-memory-attachment');
    expect(await attachment.locator('summary').textContent()).toContain('Relevant memories');
    expect(await attachment.locator('pre').isVisible()).toBe(false);
    await attachment.locator('summary').click();
    expect(await attachment.locator('pre').textContent()).toBe(HANDED);
    expect([...consoleErrors, ...pageErrors]).toEqual([]);
    await screenshot(page, 'session-memory');
    await expectAccessible(page, 'session memory tab');

    // The write opens the memory reader on the file written, on its History (the version the write made).
    await panel.locator('.session-memory-writes a', { hasText: 'fresh-topic.md' }).click();
    await expect.poll(async () => (await query(page)).get('view')).toBe('memory');
    expect((await query(page)).get('etab')).toBe('history');
    await expect.poll(() => page.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe('true');
    const memory = await apiMemory(env.server.url);
    expect((await query(page)).get('entry')).toBe(memory.entries.find((e) => e.filename === 'fresh-topic.md' && e.sourceId === encodeKey(env.fx.cwd.api))!.id);

    const topic = memory.entries.find((e) => e.filename === 'topic-3.md' && e.sourceId === encodeKey(env.fx.cwd.api))!;
    const reader = (await env.open(`?view=memory&entry=${encodeURIComponent(topic.id)}`)).page;
    await reader.getByRole('tab', { name: 'History' }).click();
    const loadedBy = reader.locator('.file-sessions .loaded-by');
    await loadedBy.locator('a').first().waitFor();
    expect(await loadedBy.locator('a').getAttribute('href')).toBe(`?view=session&session=${SESSION}`);
  }, 120_000);
});

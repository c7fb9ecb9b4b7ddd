// A transcript Claude Code deleted after the viewer kept it, in a real browser over the real server (the CLI):
// the viewer copies the idle log in the background, the log is deleted, and the session view still shows its
// conversation under a "kept by the viewer" note; the Archive's retention panel shows the kept copies and the
// bound they use.
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './helpers/axe.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { useTestEnv } from './helpers/setup.js';

const HOUR = 3_600_000;
const SESSION = '5e55104e-0000-4000-8000-0000000000f1';
let log = '';

async function addFiles(fx: Fixture): Promise<void> {
  const dir = path.join(fx.home, 'projects', encodeKey(fx.cwd.webapp));
  await mkdir(dir, { recursive: true });
  log = path.join(dir, `${SESSION}.jsonl`);
  const at = new Date(Date.now() - 3 * HOUR);
  await writeFile(log, [
    { type: 'user', message: { role: 'user', content: 'Feed the numbats' }, uuid: 'u-n1', parentUuid: null },
    { type: 'assistant', message: { role: 'assistant', model: 'claude-opus-4-5', id: 'msg_n1', content: [{ type: 'text', text: 'The numbats are fed.' }] }, uuid: 'a-n1', parentUuid: 'u-n1' },
  ].map((l) => JSON.stringify({ ...l, timestamp: at.toISOString(), cwd: fx.cwd.webapp, sessionId: SESSION })).join('\n') + '\n');
  await utimes(log, at, at);
}

const env = useTestEnv({ extend: addFiles });

interface Retention { keptTranscripts: { keeping: boolean; logs: number; goneLogs: number; keptBytes: number; limitBytes: number } }
const api = async <T,>(p: string): Promise<T> => (await (await fetch(`${env.server.url}${p}`)).json()) as T;

describe('a transcript kept by the viewer', () => {
  it('stays readable in the session view once deleted, and the retention panel shows the copies and their bound', async () => {
    // The copies are made in the background once the start's heavy work is done.
    await expect.poll(async () => (await api<{ kept: boolean; source: string }>(`api/sessions/${SESSION}`)).source).toBe('transcript');
    await expect.poll(async () => (await api<Retention>('api/retention')).keptTranscripts.logs, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    await rm(log);
    await expect.poll(async () => (await api<{ kept: boolean }>(`api/sessions/${SESSION}`)).kept, { timeout: 30_000 }).toBe(true);

    const { page, context } = await env.open(`?view=session&session=${SESSION}`, { viewport: { width: 800, height: 800 } });
    await page.getByTestId('kept-note').waitFor();
    await page.getByText('Feed the numbats').first().waitFor();
    await page.getByText('The numbats are fed.').first().waitFor();
    await expectAccessible(page, 'kept session, 800 px');
    await context.close();

    const archive = await env.open('?view=archive', { viewport: { width: 800, height: 800 } });
    const panel = archive.page.getByTestId('retention-panel');
    await panel.waitFor();
    await panel.locator('summary').click();
    await expect.poll(() => panel.getByTestId('kept-transcripts').innerText()).toMatch(/Transcripts kept by the viewer: \d+ logs? \(1 deleted by Claude Code\), .+ of 200(\.0)? MB/);
    await archive.context.close();
  }, 180_000);
});

// A transcript line longer than the reader's limit is not read, and every answer built on its log says so.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionCard } from '../../src/domain/types.js';
import { MAX_LINE_BYTES } from '../../src/domain/transcripts/transcriptReader.js';
import { startServer, type Running } from '../helpers/http.js';
import { conversationLine, encodeCwd, TempHome, uuid } from '../helpers/home.js';

let home: TempHome;
let server: Running;
const SID = uuid(0x51);
const OTHER = uuid(0x52);

beforeAll(async () => {
  home = await TempHome.create('pmv-unread-');
  const cwd = await home.repo('app');
  await home.plan('long-line-plan.md', '# Long line\n');
  await home.plan('other-plan.md', '# Other\n');
  const log = path.join(home.claude, 'projects', encodeCwd(cwd), `${SID}.jsonl`);
  await mkdir(path.dirname(log), { recursive: true });
  const tooLong = conversationLine(cwd, SID, 'long-line-plan', 'x'.repeat(MAX_LINE_BYTES + 10));
  await writeFile(log, `${conversationLine(cwd, SID, 'long-line-plan', 'before')}\n${tooLong}\n${conversationLine(cwd, SID, 'long-line-plan', 'after')}\n`);
  await home.session(cwd, OTHER, ['other-plan']);
  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('a transcript line over the reader\'s limit', () => {
  it('is counted in the history and the card of its session, and the lines around it are read', async () => {
    const history = await server.json<{ unreadLines: number; sessions: string[] }>('/api/plans/long-line-plan.md/history');
    expect(history).toMatchObject({ unreadLines: 1, sessions: [SID] });
    const card = await server.json<SessionCard>(`/api/sessions/${SID}`);
    expect(card.unreadLines).toBe(1);
    expect(card.lastPrompt).toBe('after');
  });

  it('leaves the answers of other sessions whole', async () => {
    expect((await server.json<{ unreadLines: number }>('/api/plans/other-plan.md/history')).unreadLines).toBe(0);
    expect((await server.json<SessionCard>(`/api/sessions/${OTHER}`)).unreadLines).toBe(0);
  });
});

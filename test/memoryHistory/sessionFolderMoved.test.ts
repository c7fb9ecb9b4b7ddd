// Which memory folder a session read, when the settings changed since it ran: today the user's settings send
// every project to one shared folder (autoMemoryDirectory), but the sessions ran before that, in the git
// root's default folder. A session that wrote memory there, or was handed memories from there, is answered
// with that folder; one that shows neither gets the folder the settings name now, and says so.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionMemoryBody } from '../../src/contract/sessionMemory.js';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { prompt, write, type LineContext } from '../history/transcript.js';

let home: TempHome;
let server: Running;
let defaultDir: string;
let sharedDir: string;

const WROTE = uuid(0x61);
const HANDED = uuid(0x62);
const NEITHER = uuid(0x63);
const at = (hour: number): string => new Date(Date.UTC(2026, 10, 21, hour)).toISOString();

beforeAll(async () => {
  home = await TempHome.create('pmv-sessfolder-');
  const repo = await home.repo('shop');
  const project = path.join(home.claude, 'projects', encodeCwd(repo));
  defaultDir = path.join(project, 'memory');
  sharedDir = path.join(home.root, 'shared-memory');
  await mkdir(defaultDir, { recursive: true });
  await mkdir(sharedDir, { recursive: true });
  await writeFile(path.join(defaultDir, 'MEMORY.md'), '# Memory\n- [Deploy](deploy.md) — how we ship\n');
  await writeFile(path.join(defaultDir, 'deploy.md'), '# Deploy\nmake release\n');
  await writeFile(path.join(sharedDir, 'MEMORY.md'), '# Shared\n');
  await home.write('settings.json', JSON.stringify({ autoMemoryDirectory: '~/shared-memory' }));
  const ctx = (sessionId: string, hour: number): LineContext => ({ cwd: repo, sessionId, at: at(hour) });
  await home.write(path.join(project, `${WROTE}.jsonl`), [
    prompt(ctx(WROTE, 8), 'Remember how we deploy'),
    write(ctx(WROTE, 9), path.join(defaultDir, 'deploy.md'), '# Deploy\nmake release\n'),
  ].join('\n') + '\n');
  await home.write(path.join(project, `${HANDED}.jsonl`), [
    prompt(ctx(HANDED, 10), 'How do we deploy?'),
    JSON.stringify({
      parentUuid: null, isSidechain: false, type: 'attachment', uuid: uuid(0x64), timestamp: at(10), cwd: repo, sessionId: HANDED,
      attachment: { type: 'relevant_memories', memories: [{ path: path.join(defaultDir, 'deploy.md'), content: '# Deploy\nmake release\n' }] },
    }),
  ].join('\n') + '\n');
  await home.write(path.join(project, `${NEITHER}.jsonl`), prompt(ctx(NEITHER, 11), 'Hello') + '\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: false });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

const folderOf = async (sessionId: string) => (await server.json<SessionMemoryBody>(`/api/sessions/${sessionId}/memory`)).folder;

describe('the memory folder of a session, after the settings moved it', () => {
  it('is the folder the session wrote memory in', async () => {
    expect(await folderOf(WROTE)).toMatchObject({ dir: defaultDir, chosenBy: 'writes' });
  });

  it('is the folder of the memories it was handed', async () => {
    expect(await folderOf(HANDED)).toMatchObject({ dir: defaultDir, chosenBy: 'attachments' });
  });

  it('is the folder the settings name now when the session shows none, saying so', async () => {
    expect(await folderOf(NEITHER)).toMatchObject({ dir: sharedDir, chosenBy: 'settings' });
  });
});

// What a session saw of memory, through the HTTP API on a real server: an earlier session wrote a MEMORY.md
// over the load budget and a topic; the session under test started after, was handed a nested_memory and a
// relevant_memories attachment (keys in another order, a memory named by `filePath`, a text over the cut,
// a secret), then edited MEMORY.md down and wrote a new topic. The answer gives MEMORY.md as it was at the
// session's start with Claude Code's cut of that version, the topics that existed then, the attachments'
// texts, and each write with the version it made; the memory files' histories name the sessions they were
// handed to.
import { mkdir, realpath, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryVersion } from '../../src/contract/memoryHistory.js';
import type { SessionMemoryBody } from '../../src/contract/sessionMemory.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { edit, prompt, write, type LineContext } from '../history/transcript.js';

let home: TempHome;
let server: Running;
let key: string;
let repo: string;
let memDir: string;

const EARLIER = uuid(0xe1);
const S = uuid(0x51);
const BIG = uuid(0x52);
const AGENT = 'a5e1f00d';
const at = (hour: number, minute = 0): string => new Date(Date.UTC(2026, 10, 20, hour, minute)).toISOString();

/** 230 lines: Claude Code loads the first 200. */
const BIG_INDEX = `# Memory\n${Array.from({ length: 229 }, (_, i) => `- [Note ${i}](deploy.md) — hook ${i}`).join('\n')}\n`;
const SMALL_INDEX = '# Memory\n- [Deploy](deploy.md) — how we ship\n';
const DEPLOY = '# Deploy\nRun make release.\n';
const DB = `# DB\n${'x'.repeat(4995)}`;
const NESTED = '# Lib rules\nNo default exports.\napi_key = abcd1234efgh5678\n';
const NOTES = '# Notes\nNew today.\n';

const history = async (id: string): Promise<MemoryVersion[]> =>
  (await server.json<{ versions: MemoryVersion[] }>(`/api/memory/history?id=${encodeURIComponent(id)}`)).versions;
const version = async (id: string, v: string): Promise<string> =>
  (await server.json<{ content: string }>(`/api/memory/versions/${encodeURIComponent(v)}?id=${encodeURIComponent(id)}`)).content;

function attachmentLine(ctx: LineContext, attachment: Record<string, unknown>, first = true): string {
  const rest = {
    uuid: uuid(0x100 + ctx.at.length), timestamp: ctx.at, cwd: ctx.cwd, sessionId: ctx.sessionId, version: '2.1.329', gitBranch: 'main',
    ...(ctx.agentId ? { agentId: ctx.agentId, isSidechain: true } : {}),
  };
  // Claude Code writes `type` before `attachment`; a tolerant reader takes them in any order.
  return JSON.stringify(first ? { parentUuid: null, isSidechain: false, type: 'attachment', attachment, ...rest } : { attachment, ...rest, type: 'attachment' });
}

async function onDisk(name: string, text: string, mtime: string): Promise<void> {
  const file = path.join(memDir, name);
  await writeFile(file, text);
  await utimes(file, new Date(mtime), new Date(mtime));
}

beforeAll(async () => {
  home = await TempHome.create('pmv-sessmem-');
  repo = await home.repo('webapp');
  key = encodeCwd(repo);
  const project = path.join(home.claude, 'projects', key);
  memDir = path.join(project, 'memory');
  await mkdir(memDir, { recursive: true });
  const e = (minute: number): LineContext => ({ cwd: repo, sessionId: EARLIER, at: at(8, minute) });
  const s = (minute: number): LineContext => ({ cwd: repo, sessionId: S, at: at(9, minute) });
  await writeFile(path.join(project, `${EARLIER}.jsonl`), [
    prompt(e(0), 'Remember how we deploy'),
    write(e(1), path.join(memDir, 'deploy.md'), DEPLOY),
    write(e(2), path.join(memDir, 'MEMORY.md'), BIG_INDEX),
  ].join('\n') + '\n');
  await writeFile(path.join(project, `${S}.jsonl`), [
    prompt(s(0), 'Tidy the memory index'),
    attachmentLine(s(1), { type: 'nested_memory', path: path.join(repo, 'lib', 'CLAUDE.md'), content: NESTED }),
    attachmentLine(s(2), {
      memories: [
        { content: DEPLOY, path: path.join(memDir, 'deploy.md'), mtimeMs: 1 },
        { filePath: path.join(memDir, 'db.md'), content: DB },
      ],
      type: 'relevant_memories',
    }, false),
    edit(s(3), path.join(memDir, 'MEMORY.md'), BIG_INDEX.slice(0, -1), SMALL_INDEX.slice(0, -1)),
    write(s(4), path.join(memDir, 'notes.md'), NOTES),
  ].join('\n') + '\n');
  // A session handed 15 texts of 1.2 MB, a token at the start of each.
  const big = `token: ${'ghp_'}${'A'.repeat(40)}\n${'y'.repeat(1_200_000)}`;
  const lines = [prompt({ cwd: repo, sessionId: BIG, at: at(12) }, 'Many memories')];
  for (let i = 0; i < 15; i++) {
    lines.push(attachmentLine({ cwd: repo, sessionId: BIG, at: at(12, i + 1) }, { type: 'nested_memory', path: `/big/${i}/CLAUDE.md`, content: big }));
  }
  await writeFile(path.join(project, `${BIG}.jsonl`), lines.join('\n') + '\n');
  // Its subagent was handed a memory too, in its own log.
  const sub = path.join(project, S, 'subagents', `agent-${AGENT}.jsonl`);
  await mkdir(path.dirname(sub), { recursive: true });
  await writeFile(sub, attachmentLine({ ...s(5), agentId: AGENT }, { type: 'relevant_memories', memories: [{ path: path.join(memDir, 'deploy.md'), content: DEPLOY }] }) + '\n');
  await onDisk('db.md', DB, at(7));
  await onDisk('deploy.md', DEPLOY, at(8, 1));
  await onDisk('MEMORY.md', SMALL_INDEX, at(9, 3));
  await onDisk('notes.md', NOTES, at(9, 4));
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: false, cacheDir: path.join(home.root, 'cache') });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('GET /api/sessions/{id}/memory', () => {
  it('gives the session, its memory folder, and MEMORY.md as it was at start with the cut Claude Code made of it', async () => {
    const body = await server.json<SessionMemoryBody>(`/api/sessions/${S}/memory`);
    new OpenApiChecker(await server.json<Record<string, unknown>>('/api/openapi.json'))
      .assertResponse('GET', '/api/sessions/{sessionId}/memory', 200, 'application/json', body);
    expect(body.sessionId).toBe(S);
    expect(body.startedAt).toBe(at(9, 0));
    expect(body.cwd).toBe(repo);
    expect(body.projectKey).toBe(key);
    expect(body.folder).toEqual({ sourceId: key, dir: await realpath(memDir), project: 'webapp', chosenBy: 'writes' });
    expect(body.incomplete).toBe(false);

    const indexVersions = await history(`${key}/MEMORY.md`);
    expect(indexVersions.map((v) => [v.source, v.at, v.sessionId])).toEqual([['write', at(8, 2), EARLIER], ['edit', at(9, 3), S]]);
    const index = body.atStart.index!;
    expect(index).toMatchObject({ id: `${key}/MEMORY.md`, file: 'MEMORY.md', versionId: indexVersions[0]!.id, at: at(8, 2) });
    expect(await version(`${key}/MEMORY.md`, index.versionId!)).toBe(BIG_INDEX);
    let end200 = -1;
    for (let i = 0; i < 200; i++) end200 = BIG_INDEX.indexOf('\n', end200 + 1);
    expect(index.load).toEqual({
      truncated: true, reason: 'lines', totalLines: 230, keptLines: 200, totalChars: BIG_INDEX.length - 1, keptChars: end200,
      keptStart: 0, keptEnd: end200, firstUnreadLine: 200,
    });
  });

  it('lists the topics that existed at start, each at its version then, and not the one the session created', async () => {
    const body = await server.json<SessionMemoryBody>(`/api/sessions/${S}/memory`);
    const [deploy] = await history(`${key}/deploy.md`);
    const db = await history(`${key}/db.md`);
    expect(db.map((v) => [v.source, v.at])).toEqual([['outside', at(7)]]);
    expect(body.atStart.topics).toEqual([
      { id: `${key}/db.md`, file: 'db.md', versionId: db[0]!.id, at: at(7) },
      { id: `${key}/deploy.md`, file: 'deploy.md', versionId: deploy!.id, at: at(8, 1) },
    ]);
  });

  it('gives the attachments it was handed, in order, with their texts masked and cut', async () => {
    const { attachments, omittedAttachments } = await server.json<SessionMemoryBody>(`/api/sessions/${S}/memory`);
    expect(omittedAttachments).toBe(0);
    expect(attachments.map((a) => [a.kind, a.at, a.agentId, a.line, a.unread])).toEqual([
      ['nested_memory', at(9, 1), null, 2, false],
      ['relevant_memories', at(9, 2), null, 3, false],
      ['relevant_memories', at(9, 5), AGENT, 1, false],
    ]);
    expect(attachments[2]!.items.map((i) => i.memoryId)).toEqual([`${key}/deploy.md`]);
    expect(attachments[0]!.items).toEqual([{
      path: path.join(repo, 'lib', 'CLAUDE.md'), memoryId: null, chars: NESTED.length,
      text: NESTED.replace('abcd1234efgh5678', '•'.repeat(16)), cut: false,
    }]);
    expect(attachments[1]!.items).toEqual([
      { path: path.join(memDir, 'deploy.md'), memoryId: `${key}/deploy.md`, chars: DEPLOY.length, text: DEPLOY, cut: false },
      { path: path.join(memDir, 'db.md'), memoryId: `${key}/db.md`, chars: 5000, text: DB.slice(0, 4000), cut: true },
    ]);
  });

  it('gives what it wrote, each with the version it made', async () => {
    const { wrote } = await server.json<SessionMemoryBody>(`/api/sessions/${S}/memory`);
    const indexEdit = (await history(`${key}/MEMORY.md`))[1]!;
    const [notes] = await history(`${key}/notes.md`);
    expect(wrote).toEqual([
      { id: `${key}/MEMORY.md`, file: 'MEMORY.md', tool: 'Edit', at: at(9, 3), agentId: null, versionId: indexEdit.id },
      { id: `${key}/notes.md`, file: 'notes.md', tool: 'Write', at: at(9, 4), agentId: null, versionId: notes!.id },
    ]);
    expect(await version(`${key}/MEMORY.md`, indexEdit.id)).toBe(SMALL_INDEX);
  });

  it('names the sessions a memory file was handed to in its history (loadedBy), beside the sessions that wrote it', async () => {
    const loads = async (id: string): Promise<unknown> =>
      (await server.json<{ loadedBy?: unknown }>(`/api/memory/history?id=${encodeURIComponent(id)}`)).loadedBy;
    const once = [{ sessionId: S, firstAt: at(9, 2), lastAt: at(9, 2), times: 1 }];
    // Handed to the session, then to its subagent.
    expect(await loads(`${key}/deploy.md`)).toEqual([{ sessionId: S, firstAt: at(9, 2), lastAt: at(9, 5), times: 2 }]);
    expect(await loads(`${key}/db.md`)).toEqual(once);
    expect(await loads(`${key}/MEMORY.md`)).toEqual([]);
    expect((await history(`${key}/deploy.md`)).map((v) => v.sessionId)).toEqual([EARLIER]);
  });

  it('reads a bounded amount of attachment text: a text over 1 MiB in part, lines past 16 MiB not at all', async () => {
    const { attachments } = await server.json<SessionMemoryBody>(`/api/sessions/${BIG}/memory`);
    expect(attachments).toHaveLength(15);
    // Each line is a little over 1.2 MB: 13 of them fit in 16 MiB.
    expect(attachments.map((a) => a.unread)).toEqual([...Array(13).fill(false), true, true]);
    expect(attachments[14]!.items).toEqual([]);
    const [first] = attachments[0]!.items;
    expect(first).toEqual({ path: '/big/0/CLAUDE.md', memoryId: null, chars: null, text: `token: ${'•'.repeat(44)}\n${'y'.repeat(4000 - 52)}`, cut: true });
  });

  it('answers 404 Session not found for a session no log names', async () => {
    const res = await server.get(`/api/sessions/${uuid(0x99)}/memory`);
    expect(res.status).toBe(404);
    expect(res.body).toBe('Session not found');
  });
});

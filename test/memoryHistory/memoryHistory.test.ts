// A memory file's history and blame from real-shaped transcripts through the HTTP API: sessions that
// Write, Edit and MultiEdit memory files (one under another machine's home), a hand edit seen on disk
// ("changed outside Claude Code"), an edit after it replayed onto the hand-edited text, a topic deleted
// from disk and kept in the memory archive. Blame per line is computed by hand below.
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchivedMemory, BlameLine, MemoryVersion } from '../../src/contract/memoryHistory.js';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, eventually, TempHome, uuid } from '../helpers/home.js';
import { edit, multiEdit, prompt, toolResult, write, type LineContext } from '../history/transcript.js';

let home: TempHome;
let server: Running;
let key: string;
let memDir: string;
let project: string;

const A = uuid(0xa1);
const B = uuid(0xb1);
const C = uuid(0xc1);
const at = (hour: number, minute = 0): string => new Date(Date.UTC(2026, 10, 19, hour, minute)).toISOString();

interface History { id: string; filepath: string; onDisk: boolean; versions: MemoryVersion[] }
interface Blame { id: string; versionId: string | null; lines: BlameLine[] }

const q = (id: string): string => `id=${encodeURIComponent(id)}`;
const history = (id: string): Promise<History> => server.json<History>(`/api/memory/history?${q(id)}`);
const blame = (id: string): Promise<Blame> => server.json<Blame>(`/api/memory/blame?${q(id)}`);
const version = async (id: string, v: string): Promise<string> =>
  (await server.json<{ content: string }>(`/api/memory/versions/${encodeURIComponent(v)}?${q(id)}`)).content;

const INDEX = '# Memory\n- [Deploy](deploy.md) — how we ship\n';
const DEPLOY_A = '# Deploy\nRun make release.\nTag the commit.\n';
const DEPLOY_B = '# Deploy\nRun npm run release.\nTag the commit.\n';
const DEPLOY_HAND = `${DEPLOY_B}Ask Bob before Friday deploys.\n`;
const DEPLOY_C = '# Deploy\nRun npm run release.\nTag the commit (signed).\nAsk Bob before Friday deploys.\n';

async function log(file: string, lines: string[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, lines.join('\n') + '\n');
}

async function onDisk(name: string, text: string, mtime: string): Promise<void> {
  const file = path.join(memDir, name);
  await writeFile(file, text);
  await utimes(file, new Date(mtime), new Date(mtime));
}

beforeAll(async () => {
  home = await TempHome.create('pmv-memhist-');
  const repo = await home.repo('webapp');
  key = encodeCwd(repo);
  project = path.join(home.claude, 'projects', key);
  memDir = path.join(project, 'memory');
  await mkdir(memDir, { recursive: true });
  const a = (minute: number): LineContext => ({ cwd: repo, sessionId: A, at: at(9, minute) });
  await log(path.join(project, `${A}.jsonl`), [
    prompt(a(0), 'Remember how we deploy'),
    write(a(1), path.join(memDir, 'deploy.md'), DEPLOY_A),
    toolResult(a(1), 'toolu_1', 'File created successfully'),
    write(a(2), path.join(memDir, 'MEMORY.md'), INDEX),
    write(a(3), path.join(memDir, 'old.md'), '# Old\nA stale note.\n'),
  ]);
  // B's transcript was copied from another machine: its paths name that machine's home.
  const b = (minute: number): LineContext => ({ cwd: repo, sessionId: B, at: at(10, minute) });
  await log(path.join(project, `${B}.jsonl`), [
    prompt(b(0), 'We use npm now, not make'),
    edit(b(1), `/home/alice/.claude/projects/${key}/memory/deploy.md`, 'Run make release.', 'Run npm run release.'),
  ]);
  await onDisk('MEMORY.md', INDEX, at(9, 2));
  await onDisk('old.md', '# Old\nA stale note.\n', at(9, 3));
  // A hand edit after B's.
  await onDisk('deploy.md', DEPLOY_HAND, at(10, 30));
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: true, cacheDir: path.join(home.root, 'cache') });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('memory history', () => {
  it('lists every version with its session, time and prompt, and the hand edit as outside Claude Code', async () => {
    const h = await history(`${key}/deploy.md`);
    expect(h.onDisk).toBe(true);
    expect(h.versions.map((v) => [v.source, v.at, v.sessionId, v.prompt])).toEqual([
      ['write', at(9, 1), A, 'Remember how we deploy'],
      ['edit', at(10, 1), B, 'We use npm now, not make'],
      ['outside', at(10, 30), null, null],
    ]);
    const texts = await Promise.all(h.versions.map((v) => version(`${key}/deploy.md`, v.id)));
    expect(texts).toEqual([DEPLOY_A, DEPLOY_B, DEPLOY_HAND]);
  });

  it('replays a later edit onto the hand-edited text, and blames each line on its last writer', async () => {
    const c = (minute: number): LineContext => ({ cwd: home.root, sessionId: C, at: at(11, minute) });
    await log(path.join(project, `${C}.jsonl`), [
      prompt({ ...c(0), cwd: path.join(home.root, 'repos', 'webapp') }, 'Tags are signed now'),
      multiEdit(c(1), path.join(memDir, 'deploy.md'), [{ old_string: 'Tag the commit.', new_string: 'Tag the commit (signed).' }]),
    ]);
    await onDisk('deploy.md', DEPLOY_C, at(11, 2));
    const h = await eventually(async () => {
      const now = await history(`${key}/deploy.md`);
      return now.versions.at(-1)?.sessionId === C ? now : null;
    });
    if (h === null) throw new Error('session C\'s edit never showed');
    expect(h.versions.map((v) => [v.source, v.at, v.sessionId])).toEqual([
      ['write', at(9, 1), A], ['edit', at(10, 1), B], ['outside', at(10, 30), null], ['edit', at(11, 1), C],
    ]);
    expect(await version(`${key}/deploy.md`, h.versions[3]!.id)).toBe(DEPLOY_C);
    const [vA, vB, vHand, vC] = h.versions.map((v) => v.id);
    const b = await blame(`${key}/deploy.md`);
    expect(b.versionId).toBe(vC);
    expect(b.lines.map((l) => [l.line, l.text, l.versionId, l.source, l.at, l.sessionId, l.prompt])).toEqual([
      [1, '# Deploy', vA, 'write', at(9, 1), A, 'Remember how we deploy'],
      [2, 'Run npm run release.', vB, 'edit', at(10, 1), B, 'We use npm now, not make'],
      [3, 'Tag the commit (signed).', vC, 'edit', at(11, 1), C, 'Tags are signed now'],
      [4, 'Ask Bob before Friday deploys.', vHand, 'outside', at(10, 30), null, null],
    ]);
    const index = await blame(`${key}/MEMORY.md`);
    expect(index.lines.map((l) => [l.text, l.sessionId])).toEqual([['# Memory', A], ['- [Deploy](deploy.md) — how we ship', A]]);
  });

  it('keeps a deleted topic in the memory archive, its versions still readable', async () => {
    await rm(path.join(memDir, 'old.md'));
    const archived = await eventually(async () => {
      const { files } = await server.json<{ files: ArchivedMemory[] }>('/api/memory/archive');
      const file = files.find((f) => f.id === `${key}/old.md`);
      return file?.deletedAt == null ? null : file;
    });
    if (archived === null) throw new Error('old.md never reached the archive');
    expect(archived).toMatchObject({ filename: 'old.md', sessionId: A });
    const h = await history(`${key}/old.md`);
    expect(h.onDisk).toBe(false);
    expect(h.versions.map((v) => v.source)).toEqual(['write']);
    expect(await version(`${key}/old.md`, h.versions[0]!.id)).toBe('# Old\nA stale note.\n');
  });

  it('answers 404 for an id that names no memory file, and for a version it does not have', async () => {
    expect((await server.get(`/api/memory/history?${q(`${key}/deploy.md`)}`)).status).toBe(200);
    expect((await server.get(`/api/memory/history?id=${encodeURIComponent('nope/x.md')}`)).status).toBe(404);
    expect((await server.get(`/api/memory/blame?id=${encodeURIComponent('nope/x.md')}`)).status).toBe(404);
    expect((await server.get(`/api/memory/versions/t0?${q(`${key}/deploy.md`)}`)).status).toBe(404);
  });
});

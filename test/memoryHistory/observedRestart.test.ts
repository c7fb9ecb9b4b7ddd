// A change outside Claude Code the viewer saw stays in the history after a restart, even once a session has
// written the file again: the observed contents are kept under the cache dir. Without a cache dir nothing
// is kept, and only what is on disk now is known besides the writes.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryVersion } from '../../src/contract/memoryHistory.js';
import { startServer } from '../helpers/http.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { prompt, write, type LineContext } from '../history/transcript.js';

let home: TempHome;
let repo: string;
let file: string;
let log: string;
let id: string;
const S = uuid(0x301);
const T = uuid(0x302);
const at = (hour: number): string => new Date(Date.UTC(2026, 10, 19, hour, 0)).toISOString();

beforeAll(async () => {
  home = await TempHome.create('pmv-memrestart-');
  repo = await home.repo('webapp');
  const key = encodeCwd(repo);
  const memDir = path.join(home.claude, 'projects', key, 'memory');
  await mkdir(memDir, { recursive: true });
  file = path.join(memDir, 'notes.md');
  log = path.join(home.claude, 'projects', key, `${S}.jsonl`);
  const ctx = (hour: number): LineContext => ({ cwd: repo, sessionId: S, at: at(hour) });
  await writeFile(log, [prompt(ctx(9), 'Take notes'), write(ctx(9), file, '# Notes\nFirst.\n')].join('\n') + '\n');
  await writeFile(file, '# Notes\nFirst.\nBy hand.\n');
  await utimes(file, new Date(at(10)), new Date(at(10)));
  id = `${key}/notes.md`;
});

afterAll(async () => {
  await home?.cleanup();
});

const sources = (versions: MemoryVersion[]): [string, string | null][] => versions.map((v) => [v.source, v.at]);

describe('observed memory versions', () => {
  it('survive a restart after a session wrote the file again', async () => {
    const cacheDir = path.join(home.root, 'cache');
    const first = await startServer({ claudeDir: home.claude, homeDir: home.root, cacheDir });
    const seen = await first.json<{ versions: MemoryVersion[] }>(`/api/memory/history?id=${encodeURIComponent(id)}`);
    expect(sources(seen.versions)).toEqual([['write', at(9)], ['outside', at(10)]]);
    await first.close();

    // While the viewer was stopped, a session wrote the file whole again.
    const ctx: LineContext = { cwd: repo, sessionId: T, at: at(11) };
    await writeFile(path.join(path.dirname(log), `${T}.jsonl`), [prompt(ctx, 'Start over'), write(ctx, file, '# Notes\nSecond.\n')].join('\n') + '\n');
    await writeFile(file, '# Notes\nSecond.\n');
    await utimes(file, new Date(at(11)), new Date(at(11)));

    const second = await startServer({ claudeDir: home.claude, homeDir: home.root, cacheDir });
    const after = await second.json<{ versions: MemoryVersion[] }>(`/api/memory/history?id=${encodeURIComponent(id)}`);
    expect(sources(after.versions)).toEqual([['write', at(9)], ['outside', at(10)], ['write', at(11)]]);
    const hand = await second.json<{ content: string }>(`/api/memory/versions/${encodeURIComponent(after.versions[1]!.id)}?id=${encodeURIComponent(id)}`);
    expect(hand.content).toBe('# Notes\nFirst.\nBy hand.\n');
    await second.close();

    const uncached = await startServer({ claudeDir: home.claude, homeDir: home.root, cacheDir: null });
    const none = await uncached.json<{ versions: MemoryVersion[] }>(`/api/memory/history?id=${encodeURIComponent(id)}`);
    expect(sources(none.versions)).toEqual([['write', at(9)], ['write', at(11)]]);
    await uncached.close();
  });
});

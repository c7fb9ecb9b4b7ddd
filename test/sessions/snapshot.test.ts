import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DERIVATION_VERSION } from '../../src/domain/derivation.js';
import { SessionIndexCache } from '../../src/domain/sessions/indexCache.js';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { conversationLine, SID_A, SID_B, tempHome, writeIndexCache, type TempHome } from './helpers.js';

const CWD_A = '/home/alice/src/webapp';
const FOLDER = '-home-alice-src-webapp';

let home: TempHome;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await home.cleanup();
});

interface FileEntry {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
  offset: number;
  lines: number;
  lastCwd: string | null;
  lastCwdRank: number;
  sessions: [string, string, number][];
  slugs: [string, string][];
  rest: string;
}

/** The files of a snapshot, string indexes resolved (the test's own reading of the flat format). */
function decodeFiles(snapshot: { strings: string[]; files: (string | number)[]; facts: string[] }): FileEntry[] {
  const { strings, files } = snapshot;
  const out: FileEntry[] = [];
  for (let at = 0; at < files.length; ) {
    const [p, size, mtimeMs, ino, offset, lines, lastCwd, lastCwdRank, sessionCount] = files.slice(at, at + 9) as [string, ...number[]];
    at += 9;
    const sessions = Array.from({ length: sessionCount! }, (_, k): [string, string, number] =>
      [strings[files[at + 3 * k] as number]!, strings[files[at + 3 * k + 1] as number]!, files[at + 3 * k + 2] as number]);
    at += 3 * sessionCount!;
    const slugCount = files[at++] as number;
    const slugs = Array.from({ length: slugCount }, (_, k): [string, string] => [strings[files[at + 2 * k] as number]!, strings[files[at + 2 * k + 1] as number]!]);
    at += 2 * slugCount;
    const rest = snapshot.facts[out.length]!;
    out.push({ path: p, size: size!, mtimeMs: mtimeMs!, ino: ino!, offset: offset!, lines: lines!, lastCwd: lastCwd === -1 ? null : strings[lastCwd!]!, lastCwdRank: lastCwdRank!, sessions, slugs, rest });
  }
  return out;
}

/** `snapshot` with these files, written in the flat format with a fresh string table. */
function encodeFiles(snapshot: object, entries: FileEntry[]): unknown {
  const strings: string[] = [];
  const ref = (value: string): number => (strings.includes(value) ? strings.indexOf(value) : strings.push(value) - 1);
  const files = entries.flatMap((e) => [
    e.path, e.size, e.mtimeMs, e.ino, e.offset, e.lines, e.lastCwd === null ? -1 : ref(e.lastCwd), e.lastCwdRank, e.sessions.length,
    ...e.sessions.flatMap(([a, b, rank]) => [ref(a), ref(b), rank]), e.slugs.length, ...e.slugs.flatMap(([a, b]) => [ref(a), ref(b)]),
  ]);
  return { ...snapshot, strings, files, facts: entries.map((e) => e.rest) };
}

/** A JSON round trip, as a cache file would do it. */
const viaJson = (index: SessionIndex): unknown => JSON.parse(JSON.stringify(index.toJSON()));

async function populated(): Promise<{ index: SessionIndex; file: string }> {
  const file = await home.write(`${FOLDER}/${SID_A}.jsonl`, [
    conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'persisted-slug' }),
    conversationLine({ sessionId: SID_A, cwd: CWD_A }).slice(0, 40), // partial tail: offset stops before it
  ].join(''));
  await home.write(`${FOLDER}/${SID_A}/subagents/agent-a1.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'sub-slug' }));
  await home.folder('-no-logs');
  const index = new SessionIndex({ projectsDir: home.projectsDir });
  await index.refresh();
  return { index, file };
}

describe('SessionIndex.toJSON / fromJSON', () => {
  it('round-trips every answer and the per-file offsets', async () => {
    const { index, file } = await populated();
    const restored = SessionIndex.fromJSON(viaJson(index), { projectsDir: home.projectsDir });
    expect(restored).not.toBeNull();
    expect(restored!.linkForPlan('persisted-slug.md')).toEqual(index.linkForPlan('persisted-slug.md'));
    expect(restored!.linkForPlan('sub-slug-agent-a1.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(restored!.projectFolders()).toEqual(index.projectFolders());
    expect(restored!.knownCwds()).toEqual([CWD_A]);
    expect(restored!.cwdForSession(SID_A)).toBe(CWD_A);
    expect(restored!.toJSON()).toEqual(index.toJSON());

    // Nothing changed on disk: the restored index reads nothing.
    expect(await restored!.refresh()).toBe(false);
    expect(restored!.scanStats().bytesRead).toBe(0);

    // An append is read from the stored offset: the partial tail (40 bytes) again, plus what was added.
    const rest = conversationLine({ sessionId: SID_B, cwd: CWD_A, slug: 'after-restore' });
    await appendFile(file, `\n${rest}`);
    expect(await restored!.refresh()).toBe(true);
    expect(restored!.scanStats().bytesRead).toBe(1 + 40 + 1 + Buffer.byteLength(rest));
    expect(restored!.linkForPlan('after-restore.md')?.sessionId).toBe(SID_B);
  });

  it('snapshot(), in time slices, writes what toJSON() does', async () => {
    const { index } = await populated();
    // Some more folders and logs, with directory stamps from a walk on the main thread.
    for (let i = 0; i < 40; i++) {
      const sid = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
      await home.write(`-home-alice-src-p${i}/${sid}.jsonl`, conversationLine({ sessionId: sid, cwd: `/home/alice/src/p${i}`, slug: `plan-${i}` }));
    }
    await index.refresh();
    const sliced = JSON.parse(JSON.stringify(await index.snapshot())) as { files: unknown[]; dirs: unknown[] };
    expect(sliced).toEqual(viaJson(index));
    expect(sliced.files.length).toBeGreaterThan(40 * 9);
    expect(sliced.dirs.length).toBeGreaterThan(0);
  });

  it('a restored index still notices a file replaced while it was not running', async () => {
    const { index, file } = await populated();
    const data = viaJson(index);
    const replacement = path.join(home.root, 'new.jsonl');
    await writeFile(replacement, conversationLine({ sessionId: SID_B, cwd: CWD_A, slug: 'replaced' }));
    await rename(replacement, file);
    const restored = SessionIndex.fromJSON(data, { projectsDir: home.projectsDir })!;
    expect(await restored.refresh()).toBe(true);
    expect(restored.linkForPlan('persisted-slug.md')).toBeNull();
    expect(restored.linkForPlan('replaced.md')?.sessionId).toBe(SID_B);
  });

  it('rejects anything that is not a valid snapshot of this projects dir', async () => {
    const { index } = await populated();
    const good = viaJson(index) as Record<string, unknown> & { strings: string[]; files: (string | number)[]; facts: string[] };
    const goodFile = decodeFiles(good)[0]!;
    const withFile = (patch: Partial<FileEntry>): unknown => encodeFiles(good, [{ ...goodFile, ...patch }]);
    const withFlat = (change: (flat: (string | number)[]) => void): unknown => {
      const flat = [...good.files];
      change(flat);
      return { ...good, files: flat };
    };
    const garbage: [string, unknown][] = [
      ['null', null],
      ['number', 42],
      ['string', 'index'],
      ['array', []],
      ['empty object', {}],
      ['wrong format', { ...good, format: 'something-else' }],
      ['future version', { ...good, version: (good.version as number) + 1 }],
      ['other projects dir', { ...good, projectsDir: path.join(home.root, 'other') }],
      ['folders not an array', { ...good, folders: 'x' }],
      ['dot folder', { ...good, folders: ['.hidden'] }],
      ['folder with separator', { ...good, folders: ['a/b'] }],
      ['duplicate folder', { ...good, folders: [FOLDER, FOLDER] }],
      ['file in unknown folder', { ...good, folders: [] }],
      ['files not an array', { ...good, files: {} }],
      ['strings not an array', { ...good, strings: {} }],
      ['a string that is not one', { ...good, strings: good.strings.map(() => 7) }],
      ['path not a string', withFlat((flat) => void (flat[0] = 7))],
      ['truncated files', withFlat((flat) => void flat.pop())],
      ['string index out of range', withFlat((flat) => void (flat[6] = good.strings.length))],
      ['fractional string index', withFlat((flat) => void (flat[6] = 0.5))],
      ['bad rank', withFlat((flat) => void (flat[7] = 3))],
      ['session count past the end', withFlat((flat) => void (flat[8] = 10_000))],
      ['facts not a text', withFile({ rest: 7 as unknown as string })],
      ['facts missing', { ...good, facts: [] }],
      ['facts not a list', { ...good, facts: 'x' }],
      ['fractional line count', withFile({ lines: 0.5 })],
      ['path escaping', withFile({ path: `../${SID_A}.jsonl` })],
      ['path not a log', withFile({ path: `${FOLDER}/memory/x.jsonl` })],
      ['path with backslash', withFile({ path: `${FOLDER}/${SID_A}/subagents/a\\b/agent-1.jsonl` })],
      ['negative size', withFile({ size: -1 })],
      ['offset past size', withFile({ offset: goodFile.size + 1 })],
      ['fractional offset', withFile({ offset: 1.5 })],
      ['NaN-ish mtime', withFile({ mtimeMs: 'yesterday' as unknown as number })],
      ['missing ino', withFile({ ino: undefined as unknown as number })],
      ['bad lastCwd', withFile({ lastCwd: 'relative/path' })],
      ['bad session id', withFile({ sessions: [['not-a-uuid', CWD_A, 2]] })],
      ['bad session cwd', withFile({ sessions: [[SID_A, 'relative', 2]] })],
      ['bad session rank', withFile({ sessions: [[SID_A, CWD_A, -1]] })],
      ['bad slug', withFile({ slugs: [['Not A Slug', SID_A]] })],
      ['slug to bad session', withFile({ slugs: [['ok-slug', 'x']] })],
      ['duplicate session', withFile({ sessions: [[SID_A, CWD_A, 2], [SID_A, CWD_A, 2]] })],
      ['duplicate slug', withFile({ slugs: [['ok-slug', SID_A], ['ok-slug', SID_B]] })],
      ['duplicate file', encodeFiles(good, [goodFile, goodFile])],
      ['dirs not an array', { ...good, dirs: {} }],
      ['dirs cut short', { ...good, dirs: ['', 1, 2] }],
      ['dir escaping', { ...good, dirs: ['..', 1, 2, 3] }],
      ['dir not a project dir', { ...good, dirs: [`${FOLDER}/memory`, 1, 2, 3] }],
      ['dir stamp not a number', { ...good, dirs: ['', 'x', 2, 3] }],
      ['dir with a negative inode', { ...good, dirs: [FOLDER, 1, -2, 3] }],
    ];
    for (const [label, data] of garbage) {
      expect(SessionIndex.fromJSON(data, { projectsDir: home.projectsDir }), label).toBeNull();
    }
    expect(SessionIndex.fromJSON(good, { projectsDir: home.projectsDir })).not.toBeNull();
    expect(SessionIndex.fromJSON(encodeFiles(good, decodeFiles(good)), { projectsDir: home.projectsDir })!.toJSON()).toEqual(good);
  });

  it('replaces a cache of an older format without a warning, and warns about a broken one', async () => {
    const { index } = await populated();
    const cacheDir = path.join(home.root, 'cache');
    const warnings: string[] = [];
    const cache = new SessionIndexCache(cacheDir, home.projectsDir, { warn: (m) => warnings.push(m) });
    await mkdir(cacheDir, { recursive: true });
    const { facts, ...saved } = viaJson(index) as { facts: string[]; files: unknown[] };
    const header = { derivation: DERIVATION_VERSION };
    await writeIndexCache(cache.file, { header, index: { ...saved, version: 1, files: [{ path: 'x' }] }, facts });
    expect(await cache.load({ projectsDir: home.projectsDir })).toBeNull();
    // Derived by other rules (another build, or one from before the rules were versioned): as silent.
    await writeIndexCache(cache.file, { header: { derivation: DERIVATION_VERSION - 1 }, index: { ...saved, files: [{ path: 'x' }] }, facts });
    expect(await cache.load({ projectsDir: home.projectsDir })).toBeNull();
    await writeFile(cache.file, JSON.stringify(saved));
    expect(await cache.load({ projectsDir: home.projectsDir })).toBeNull();
    expect(warnings).toEqual([]);
    await writeIndexCache(cache.file, { header, index: { ...saved, files: [{ path: 'x' }] }, facts });
    expect(await cache.load({ projectsDir: home.projectsDir })).toBeNull();
    expect(warnings).toHaveLength(1);
    await cache.save(index);
    expect((await cache.load({ projectsDir: home.projectsDir }))?.toJSON()).toEqual(index.toJSON());
  });
});

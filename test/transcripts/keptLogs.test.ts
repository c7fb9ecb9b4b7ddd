// The viewer's copies of logs (KeptLogs) on real files in a temp dir: a log that only grew is kept by
// appending a gzip member to its copy (the decompressed copy equals the log), identical logs share one
// copy, and an index that is not ours is ignored with a warning.
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeptLogs } from '../../src/domain/transcripts/keptLogs.js';

let root: string;
let dir: string;
const kept: KeptLogs[] = [];
const line = (n: number): string => JSON.stringify({ type: 'user', n, text: `line ${n} `.repeat(20) }) + '\n';
const lines = (from: number, to: number): string => Array.from({ length: to - from }, (_, i) => line(from + i)).join('');

function keeper(warnings: string[] = [], limitBytes = 1 << 30): KeptLogs {
  const k = new KeptLogs({ dir, limitBytes, writable: true, logger: { warn: (m) => warnings.push(m) }, idleMs: 0 });
  kept.push(k);
  return k;
}

async function objectOf(k: KeptLogs, file: string): Promise<Buffer> {
  return readFile(path.join(dir, 'objects', `${k.of(file)!.sha}.gz`));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'pmv-keptlogs-'));
  dir = path.join(root, 'cache', 'kept-logs-test');
});

afterEach(async () => {
  for (const k of kept.splice(0)) await k.close();
  await rm(root, { recursive: true, force: true });
});

describe('KeptLogs', () => {
  it('counts a gone log\'s copy opened for reading in the bound: the oldest log\'s copy makes room for it', async () => {
    const older = path.join(root, 'older.jsonl');
    const newer = path.join(root, 'newer.jsonl');
    await writeFile(older, lines(0, 400));
    await writeFile(newer, lines(1000, 1400));
    await utimes(older, new Date(Date.now() - 5000), new Date(Date.now() - 5000));
    const { size } = await stat(newer);
    const first = keeper();
    await first.keepIdle(() => [[newer, Date.now() - 1000], [older, Date.now() - 5000]]);
    const [cOld, cNew] = [first.of(older)!.keptBytes, first.of(newer)!.keptBytes];
    await first.close();
    // Again on the same folder, bounded: room for the newer log's copy and its decompressed text, not the older's too.
    const k = keeper([], size + cNew + Math.floor(cOld / 2));
    expect(k.has(older) && k.has(newer)).toBe(true);
    expect(k.keptBytes).toBe(cOld + cNew);
    await rm(newer);
    k.setGone(newer, true);
    await k.settled();
    expect(k.has(older)).toBe(false);
    expect(k.keptPathOf(newer)).not.toBeNull();
    expect(await readFile(k.keptPathOf(newer)!, 'utf8')).toBe(lines(1000, 1400));
    expect(k.keptBytes).toBe(cNew + size);
  });

  it('removes, at its first pass, the copies no entry refers to (a run killed before it saved its index)', async () => {
    const log = path.join(root, 'a.jsonl');
    await writeFile(log, lines(0, 10));
    const orphan = path.join(dir, 'objects', `${'0'.repeat(64)}.gz`);
    const notOurs = path.join(dir, 'objects', 'notes.txt');
    await mkdir(path.dirname(orphan), { recursive: true });
    await writeFile(orphan, 'left over');
    await writeFile(notOurs, 'not ours');
    const k = keeper();
    await k.keepIdle(() => [[log, Date.now() - 1000]]);
    expect((await readdir(path.join(dir, 'objects'))).sort()).toEqual([`${k.of(log)!.sha}.gz`, 'notes.txt'].sort());
  });

  it('keeps a log that only grew by appending a member to its copy', async () => {
    const log = path.join(root, 'a.jsonl');
    await writeFile(log, lines(0, 200));
    const k = keeper();
    expect(await k.keep(log)).toBe(true);
    const first = await objectOf(k, log);
    await appendFile(log, lines(200, 300));
    expect(await k.keep(log)).toBe(true);
    const second = await objectOf(k, log);
    // The first copy's bytes are the start of the second: only the appended bytes were compressed.
    expect(second.subarray(0, first.length).equals(first)).toBe(true);
    expect(second.length).toBeGreaterThan(first.length);
    expect(gunzipSync(second).equals(await readFile(log))).toBe(true);
    expect(k.of(log)).toMatchObject({ size: (await readFile(log)).length, keptBytes: second.length, gone: false });
    // The copy it replaced is removed.
    expect(await readdir(path.join(dir, 'objects'))).toEqual([`${k.of(log)!.sha}.gz`]);
    // Unchanged: not copied again.
    expect(await k.keep(log)).toBe(false);
    // What the user typed, readable by the user alone.
    expect((await stat(path.join(dir, 'objects', `${k.of(log)!.sha}.gz`))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('rewrites the copy of a log that was rewritten, and shares one copy between identical logs', async () => {
    const a = path.join(root, 'a.jsonl');
    const b = path.join(root, 'b.jsonl');
    await writeFile(a, lines(0, 50));
    const k = keeper();
    await k.keep(a);
    await writeFile(a, lines(10, 40));
    await writeFile(b, lines(10, 40));
    await k.keep(a);
    await k.keep(b);
    expect(k.of(a)!.sha).toBe(k.of(b)!.sha);
    expect(await readdir(path.join(dir, 'objects'))).toHaveLength(1);
    expect(gunzipSync(await objectOf(k, a)).toString()).toBe(lines(10, 40));
    expect(k.keptBytes).toBe(k.of(a)!.keptBytes);
  });

  it('reads its index back, and skips an index or entries that are not its own with a warning', async () => {
    const log = path.join(root, 'a.jsonl');
    await writeFile(log, lines(0, 10));
    const first = keeper();
    await first.keep(log);
    // The index is written a moment after changes, and when the keeper closes.
    await first.close();
    expect(keeper().has(log)).toBe(true);
    const index = path.join(dir, 'index.json');
    const saved = JSON.parse(await readFile(index, 'utf8')) as { format: string; logs: [string, Record<string, unknown>][] };
    await writeFile(index, JSON.stringify({ ...saved, logs: [...saved.logs, ['relative.jsonl', saved.logs[0]![1]], [path.join(root, 'b.jsonl'), { ...saved.logs[0]![1], sha: '../../escape' }]] }));
    const warnings: string[] = [];
    const again = keeper(warnings);
    expect(again.has(log)).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/2 entries .* skipped/)]);
    await writeFile(index, '{"format": "something else"');
    const none = keeper(warnings);
    expect(none.has(log)).toBe(false);
    expect(warnings.at(-1)).toMatch(/not readable/);
  });
});

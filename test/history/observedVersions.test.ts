// The versions the viewer observes of plans: content-addressed, deduplicated, bounded (oldest dropped
// first), kept across restarts, and never a reason to fail.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCliArgs, parseSize, UsageError } from '../../src/config/args.js';
import { contentHash, ObservedVersions } from '../../src/domain/history/observedVersions.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
let dir: string;
const t = (minute: number): number => Date.UTC(2026, 10, 19, 9, minute);

beforeEach(async () => {
  home = await TempHome.create('pmv-observed-');
  dir = path.join(home.root, 'history');
});

afterEach(async () => {
  await home?.cleanup();
});

describe('observed versions', () => {
  it('keep each distinct content once, in order, and not the same content twice in a row', async () => {
    const store = new ObservedVersions(dir);
    expect(store.observe('/p/a.md', Buffer.from('one'), t(1))).toBe(true);
    expect(store.observe('/p/a.md', Buffer.from('one'), t(2))).toBe(false);
    expect(store.observe('/p/a.md', Buffer.from('two'), t(3))).toBe(true);
    expect(store.observe('/p/b.md', Buffer.from('one'), t(4))).toBe(true);
    expect(store.of('/p/a.md')!.versions.map((v) => v.sha)).toEqual([contentHash('one'), contentHash('two')]);
    expect(store.content(contentHash('two'))?.toString()).toBe('two');
    // One object per content, shared by the plans that had it.
    expect((await readdir(path.join(dir, 'objects'))).sort()).toEqual([contentHash('one'), contentHash('two')].sort());
  });

  it('come back after a restart, with a plan marked gone', () => {
    const store = new ObservedVersions(dir);
    store.observe('/p/a.md', Buffer.from('one'), t(1));
    store.gone('/p/a.md', new Date(t(9)));
    store.save();
    const again = new ObservedVersions(dir);
    expect(again.of('/p/a.md')).toEqual({ versions: [{ sha: contentHash('one'), size: 3, at: new Date(t(1)).toISOString() }], goneAt: new Date(t(9)).toISOString() });
  });

  it('stay within their limit, dropping the oldest first and their objects with them', async () => {
    const store = new ObservedVersions(dir, 10);
    store.observe('/p/a.md', Buffer.from('aaaa'), t(1));
    store.observe('/p/b.md', Buffer.from('bbbb'), t(2));
    store.observe('/p/a.md', Buffer.from('cccc'), t(3));
    expect(store.totalBytes).toBeLessThanOrEqual(10);
    expect(store.of('/p/a.md')!.versions.map((v) => v.sha)).toEqual([contentHash('cccc')]);
    expect(store.of('/p/b.md')!.versions).toHaveLength(1);
    expect(await readdir(path.join(dir, 'objects'))).not.toContain(contentHash('aaaa'));
  });

  it('keep nothing with a limit of 0 or without a folder, and never throw for an unwritable one', async () => {
    expect(new ObservedVersions(dir, 0).observe('/p/a.md', Buffer.from('x'), t(1))).toBe(false);
    expect(new ObservedVersions(null).observe('/p/a.md', Buffer.from('x'), t(1))).toBe(false);
    // A cache dir whose parent is a file: every write fails (ENOTDIR).
    const file = path.join(home.root, 'a-file');
    await writeFile(file, 'x');
    const unwritable = new ObservedVersions(path.join(file, 'history'));
    expect(unwritable.observe('/p/a.md', Buffer.from('x'), t(1))).toBe(false);
    expect(() => unwritable.save()).not.toThrow();
  });
});

describe('--history-limit', () => {
  it('takes sizes in binary units and refuses anything else', () => {
    expect(parseSize('200MB')).toBe(200 * 1024 ** 2);
    expect(parseSize('2gb')).toBe(2 * 1024 ** 3);
    expect(parseSize('512k')).toBe(512 * 1024);
    expect(parseSize('0')).toBe(0);
    expect(parseCliArgs(['--history-limit', '1.5GB']).historyLimitBytes).toBe(1.5 * 1024 ** 3);
    expect(parseCliArgs([]).historyLimitBytes).toBeNull();
    for (const bad of ['', 'lots', '-1MB', '5TB', '1e3']) expect(() => parseCliArgs(['--history-limit', bad])).toThrow(UsageError);
  });
});

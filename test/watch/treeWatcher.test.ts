// TreeWatcher on real temp dirs: what the per-directory fs.watch design relies on.
import { readFileSync, type FSWatcher } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TreeWatcher, type TreeEvent, type TreeWatchOptions } from '../../src/watch/treeWatcher.js';
import { eventually, sleep } from '../helpers/home.js';

let base: string;
let root: string;
let watchers: TreeWatcher[];
let events: TreeEvent[];
let errors: Error[];

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'pmv-tree-'));
  root = path.join(base, 'root');
  watchers = [];
  events = [];
  errors = [];
});

afterEach(async () => {
  await Promise.all(watchers.map((w) => w.close()));
  await rm(base, { recursive: true, force: true });
});

async function watch(depth: number, extra: Partial<TreeWatchOptions> = {}, dir = root): Promise<TreeWatcher> {
  const w = new TreeWatcher(dir, { depth, onEvent: (e) => events.push(e), onError: (e) => errors.push(e), ...extra });
  watchers.push(w);
  await w.ready();
  return w;
}

const filesSeen = () => new Set(events.flatMap((e) => (e.kind === 'file' ? [e.path] : [])));
const seen = (p: string) => eventually(() => filesSeen().has(p), 5000, 10);
const kinds = () => events.map((e) => e.kind);
const watched = (w: TreeWatcher) => Object.keys(w.watcher.getWatched()).sort();

describe('files', () => {
  it('reports adds, changes and removals, and always delivers the last change of a burst', async () => {
    await mkdir(root);
    const contents: string[] = [];
    const file = path.join(root, 'log.jsonl');
    await watch(0, { onEvent: (e) => e.kind === 'file' && contents.push(readFileSyncSafe(e.path)) });
    for (let i = 0; i < 50; i++) await appendFile(file, `line ${i}\n`);
    const final = await readFile(file, 'utf8');
    expect(await eventually(() => contents.at(-1) === final, 5000, 10)).toBe(true);
    await rm(file);
    expect(await eventually(() => contents.at(-1) === '<gone>', 5000, 10)).toBe(true);
  });

  it('delivers a file appended to without pause while the appends go on', async () => {
    await mkdir(root);
    await watch(0);
    const file = path.join(root, 'streaming.jsonl');
    const deadline = Date.now() + 5000;
    while (events.length === 0 && Date.now() < deadline) {
      await appendFile(file, 'x\n');
      await sleep(1);
    }
    expect(events[0]).toEqual({ kind: 'file', path: file });
  });

  it('delivers every file of a mass change, a slice per turn of the event loop', async () => {
    await mkdir(root);
    let turn = 0;
    let spinning = true;
    const spin = (): void => void (spinning && (turn++, setImmediate(spin)));
    spin();
    const perTurn = new Map<number, number>();
    // File events only: the slice bounds those; a burst this size may also bring one 'rescan' from a timer.
    await watch(0, { onEvent: (e) => { events.push(e); if (e.kind === 'file') perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1); } });
    const files = Array.from({ length: 300 }, (_, i) => path.join(root, `mass-${i}.md`));
    await Promise.all(files.map((f) => writeFile(f, 'x')));
    const all = await eventually(() => files.every((f) => filesSeen().has(f)), 5000, 10);
    spinning = false;
    expect(all).toBe(true);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(32);
  });

  it('sees atomic renames into place and never reports transient names, dotfiles or ignored paths', async () => {
    await mkdir(path.join(root, 'skipped'), { recursive: true });
    await mkdir(path.join(root, '.hidden'), { recursive: true });
    const w = await watch(2, { ignore: (p) => path.basename(p) === 'skipped' });
    expect(watched(w)).toEqual([root]);
    const plan = path.join(root, 'plan.md');
    await writeFile(`${plan}.tmp.1.abc`, '# v1\n');
    await rename(`${plan}.tmp.1.abc`, plan);
    await writeFile(path.join(root, '.dotfile'), 'x');
    await writeFile(path.join(root, 'skipped', 'x.md'), 'x');
    await writeFile(path.join(root, '.hidden', 'x.md'), 'x');
    expect(await seen(plan)).toBe(true);
    await sleep(100);
    expect([...filesSeen()]).toEqual([plan]);
  });

  it('respects the depth limit: depth 0 is the root only, depth 1 one level of folders', async () => {
    await mkdir(path.join(root, 'a', 'b'), { recursive: true });
    const w = await watch(1);
    expect(watched(w)).toEqual([root, path.join(root, 'a')]);
    await writeFile(path.join(root, 'a', 'b', 'too-deep.md'), 'x');
    await writeFile(path.join(root, 'a', 'in-depth.md'), 'x');
    expect(await seen(path.join(root, 'a', 'in-depth.md'))).toBe(true);
    await sleep(100);
    expect(filesSeen().has(path.join(root, 'a', 'b', 'too-deep.md'))).toBe(false);
  });
});

describe('directories', () => {
  it('watches a new folder (mkdir -p, or a populated folder moved in) and reports the files it holds', async () => {
    await mkdir(root);
    const w = await watch(3);
    const outside = path.join(base, 'populated');
    await mkdir(path.join(outside, 'nested'), { recursive: true });
    await writeFile(path.join(outside, 'one.jsonl'), '1\n');
    await writeFile(path.join(outside, 'nested', 'two.jsonl'), '2\n');
    await rename(outside, path.join(root, 'moved'));
    expect(await seen(path.join(root, 'moved', 'one.jsonl'))).toBe(true);
    expect(await seen(path.join(root, 'moved', 'nested', 'two.jsonl'))).toBe(true);
    expect(watched(w)).toContain(path.join(root, 'moved', 'nested'));
    // And they are watched from then on.
    await appendFile(path.join(root, 'moved', 'nested', 'three.jsonl'), '3\n');
    expect(await seen(path.join(root, 'moved', 'nested', 'three.jsonl'))).toBe(true);
    // A tree created in one go, written to at once.
    const deep = path.join(root, 'x', 'y', 'z');
    await mkdir(deep, { recursive: true });
    await writeFile(path.join(deep, 'quick.md'), 'q');
    expect(await seen(path.join(deep, 'quick.md'))).toBe(true);
  });

  it('sets up the watches of a large folder in slices: the event loop turns while they are made', async () => {
    await mkdir(root);
    const count = 4000;
    for (let i = 0; i < count; i += 500) {
      await Promise.all(Array.from({ length: 500 }, (_, k) => mkdir(path.join(root, `d${i + k}`))));
    }
    let considered = 0;
    const halfDone: number[] = [];
    let ticking = true;
    const tick = (): void => {
      if (considered > 0 && considered < count) halfDone.push(considered);
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const w = await watch(1, { ignore: () => (considered++, false) });
    ticking = false;
    expect(watched(w)).toHaveLength(count + 1);
    // In one piece (as before), no turn of the event loop came between the first and the last watch.
    expect(halfDone.length).toBeGreaterThan(0);
  });

  it('closes the watches of a folder moved away and asks for a rescan', async () => {
    await mkdir(path.join(root, 'gone', 'inner'), { recursive: true });
    await writeFile(path.join(root, 'gone', 'a.md'), 'a');
    const w = await watch(3);
    expect(watched(w)).toEqual([root, path.join(root, 'gone'), path.join(root, 'gone', 'inner')]);
    await rename(path.join(root, 'gone'), path.join(base, 'elsewhere'));
    expect(await eventually(() => kinds().includes('rescan'), 5000, 10)).toBe(true);
    expect(watched(w)).toEqual([root]);
    const before = events.length;
    await writeFile(path.join(base, 'elsewhere', 'inner', 'after.md'), 'x');
    await sleep(100);
    expect(events.length).toBe(before);
  });

  it('does not follow a symlinked folder below the root; the root itself may be a symlink', async () => {
    const real = path.join(base, 'real');
    const target = path.join(base, 'target');
    await mkdir(real);
    await mkdir(target);
    await symlink(real, root);
    await symlink(target, path.join(real, 'linked'));
    await symlink('.', path.join(real, 'loop'));
    const w = await watch(4);
    expect(watched(w)).toEqual([root]);
    await writeFile(path.join(target, 'outside.md'), 'x');
    await writeFile(path.join(root, 'inside.md'), 'x');
    expect(await seen(path.join(root, 'inside.md'))).toBe(true);
    await sleep(100);
    expect([...filesSeen()]).toEqual([path.join(root, 'inside.md')]);
    expect(errors).toEqual([]);
  });
});

describe('the root', () => {
  it('is polled for while missing, and re-watched when it appears, vanishes, or is replaced', async () => {
    await watch(1);
    await mkdir(root);
    expect(await eventually(() => kinds().includes('root-appeared'), 5000, 10)).toBe(true);
    await writeFile(path.join(root, 'first.md'), 'x');
    expect(await seen(path.join(root, 'first.md'))).toBe(true);
    await rm(root, { recursive: true });
    expect(await eventually(() => kinds().includes('root-vanished'), 5000, 10)).toBe(true);
    events = [];
    // Replaced within the same tick: the new directory must be watched all the same.
    await mkdir(root);
    await rm(root, { recursive: true });
    await mkdir(root);
    expect(await eventually(() => kinds().includes('root-appeared'), 5000, 10)).toBe(true);
    events = [];
    await rm(root, { recursive: true });
    await mkdir(root);
    expect(await eventually(() => kinds().includes('root-appeared'), 5000, 10)).toBe(true);
    await writeFile(path.join(root, 'again.md'), 'x');
    expect(await seen(path.join(root, 'again.md'))).toBe(true);
  });
});

describe('lost events, errors and close', () => {
  it('asks for one rescan after a burst of 500+ events, and for one when the kernel names no entry', async () => {
    await mkdir(root);
    const w = await watch(0);
    await Promise.all(Array.from({ length: 600 }, (_, i) => writeFile(path.join(root, `f${i}.md`), 'x')));
    expect(await eventually(() => kinds().includes('rescan'), 5000, 10)).toBe(true);
    events = [];
    const rootWatch = (w.watcher as unknown as { root: { fsw: FSWatcher } }).root.fsw;
    rootWatch.emit('change', 'rename', null);
    expect(await eventually(() => kinds().includes('rescan'), 5000, 10)).toBe(true);
  });

  it('reports ENOSPC, but not a symlink loop', async () => {
    await mkdir(root);
    const w = await watch(0);
    w.watcher.emit('error', Object.assign(new Error('ELOOP'), { code: 'ELOOP' }));
    w.watcher.emit('error', Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' }));
    expect(errors.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['ENOSPC']);
  });

  it('close() ends every watch and timer: nothing is delivered afterwards, not even a pending change', async () => {
    await mkdir(path.join(root, 'sub'), { recursive: true });
    const w = await watch(2);
    await writeFile(path.join(root, 'pending.md'), 'x');
    // The write's event is usually still waiting out its debounce here; on a slow turn it may already have
    // been delivered, which is no fault: what counts is that nothing comes once close() is called.
    const delivered = events.length;
    const closing = w.close();
    await closing;
    expect(watched(w)).toEqual([]);
    await writeFile(path.join(root, 'sub', 'after.md'), 'x');
    await rm(root, { recursive: true });
    await sleep(400);
    expect(events.slice(delivered)).toEqual([]);
  });
});

function readFileSyncSafe(p: string): string {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '<gone>';
  }
}

// Reloads reuse each file's parse while its stat shows the same version, and a load gives the event
// loop back while it works. What a reload lists must be what a first load would list.
import fc from 'fast-check';
import { mkdir, rename, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../src/domain/markdown/frontmatter.js';
import { extractLinks } from '../../src/domain/markdown/links.js';
import { loadMemory } from '../../src/domain/memory/loader.js';
import { MemoryStore } from '../../src/domain/memory/memoryStore.js';
import { type FileCacheView, ParsedFileCache, parseFile } from '../../src/domain/memory/parsedFile.js';
import { encodeProjectPath } from '../../src/domain/memory/projectKey.js';
import { nextSliceTurn, TimeSlicer } from '../../src/domain/timeSlicer.js';
import { type TempHome, memoryDirFor, tempHome, webappProject, write } from './helpers.js';

let t: TempHome;
let cwd: string;
let key: string;
let dir: string;
beforeEach(async () => {
  t = await tempHome();
  ({ cwd, key, dir } = await webappProject(t));
});
afterEach(async () => {
  await t.cleanup();
});

/** A load through `cache`, counting the files it had to read. */
async function load(cache: ParsedFileCache) {
  const view = cache.begin();
  let reads = 0;
  const counting: FileCacheView = {
    knows: (filepath) => view.knows(filepath),
    lookup: (filepath, stats) => view.lookup(filepath, stats),
    remember: (filepath, stats, parsed) => {
      reads++;
      view.remember(filepath, stats, parsed);
    },
    finish: () => view.finish(),
  };
  const memory = await loadMemory({
    claudeDir: t.claude, homeDir: t.home, projects: [{ key, dir: path.dirname(dir), cwd }], cache: counting,
  });
  return { ...memory, reads };
}

const uncached = () =>
  loadMemory({ claudeDir: t.claude, homeDir: t.home, projects: [{ key, dir: path.dirname(dir), cwd }] });
// ctime moves in coarse kernel ticks; waiting past one makes a rewrite observable by its stat.
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('reloading with the parse cache', () => {
  beforeEach(async () => {
    await write(path.join(dir, 'MEMORY.md'), '# Index\n- [A](a.md)\n');
    await write(path.join(dir, 'a.md'), '---\nname: alpha\n---\nsee [[b]]\n');
    await write(path.join(dir, 'b.md'), '# Beta\n');
    await write(path.join(dir, 'notes', 'c.md'), '# C\n');
  });

  it('reads only what changed and lists exactly what a load without cache lists', async () => {
    const cache = new ParsedFileCache();
    expect((await load(cache)).reads).toBe(4);
    const again = await load(cache);
    expect(again.reads).toBe(0);
    expect(JSON.stringify(again.listing)).toBe(JSON.stringify((await uncached()).listing));

    await nextTick();
    await writeFile(path.join(dir, 'a.md'), '---\nname: alpha two\n---\nsee [[b]] and [[c]]\n');
    const changed = await load(cache);
    expect(changed.reads).toBe(1);
    expect(changed.listing.entries.find((e) => e.filename === 'a.md')!.name).toBe('alpha two');
    expect(JSON.stringify(changed.listing)).toBe(JSON.stringify((await uncached()).listing));
  });

  it('sees a rewrite that keeps the size and puts the old mtime back', async () => {
    const cache = new ParsedFileCache();
    const file = path.join(dir, 'b.md');
    const old = new Date('2024-01-02T03:04:05Z');
    await utimes(file, old, old);
    await load(cache);
    await nextTick();
    await writeFile(file, '# Bzzz\n');
    await utimes(file, old, old);
    const after = await load(cache);
    expect(after.reads).toBe(1);
    expect(after.listing.entries.find((e) => e.filename === 'b.md')!.name).toBe('Bzzz');
    expect(await after.search('bzzz')).toEqual([`${key}/b.md`]);
  });

  it('sees a file replaced by rename, and one that became unreadable or a directory', async () => {
    const cache = new ParsedFileCache();
    await load(cache);
    await write(path.join(dir, 'b.md.tmp.1'), '# Renamed\n');
    await rename(path.join(dir, 'b.md.tmp.1'), path.join(dir, 'b.md'));
    await rm(path.join(dir, 'notes', 'c.md'));
    await mkdir(path.join(dir, 'notes', 'c.md'));
    const after = await load(cache);
    expect(after.listing.entries.map((e) => [e.filename, e.name])).toEqual([
      ['MEMORY.md', 'Index'], ['a.md', 'alpha'], ['b.md', 'Renamed'],
    ]);
  });

  it('keeps only the files the latest load saw', async () => {
    const cache = new ParsedFileCache();
    await load(cache);
    expect(cache.size).toBe(4);
    await unlink(path.join(dir, 'b.md'));
    await rm(path.join(dir, 'notes'), { recursive: true });
    await load(cache);
    expect(cache.size).toBe(2);
  });

  it('lets the load started last decide what is kept, whichever finishes last', () => {
    const cache = new ParsedFileCache();
    const older = cache.begin();
    const newer = cache.begin();
    const stats = { dev: 1, ino: 2, size: 3, mtimeMs: 4, ctimeMs: 5 };
    const parsed = parseFile('# X\n', 3, 4, 1);
    older.remember('/old.md', stats, parsed);
    newer.remember('/x.md', stats, parsed);
    newer.finish();
    older.finish();
    expect(cache.size).toBe(1);
    const view = cache.begin();
    expect(view.lookup('/old.md', stats)).toBeNull();
    expect(view.lookup('/x.md', stats)).toBe(parsed);
    expect(view.lookup('/x.md', { ...stats, ctimeMs: 6 })).toBeNull();
    expect(view.lookup('/x.md', { ...stats, ino: 7 })).toBeNull();
  });

  it('a store reload hands out the same listing while nothing changed, and a fresh one after a change', async () => {
    const store = new MemoryStore({ claudeDir: t.claude, homeDir: t.home, projects: () => [{ key, dir: path.dirname(dir), cwd }] });
    const first = await store.list();
    store.invalidate();
    expect(await store.list()).toBe(first);
    await nextTick();
    await write(path.join(dir, 'b.md'), '# Beta edited\n');
    await write(path.join(dir, 'd.md'), '# D\n');
    store.invalidate();
    const second = await store.list();
    expect(second).not.toBe(first);
    expect(second.entries.map((e) => [e.filename, e.name])).toEqual([
      ['MEMORY.md', 'Index'], ['a.md', 'alpha'], ['b.md', 'Beta edited'], ['d.md', 'D'], ['notes/c.md', 'C'],
    ]);
    expect(JSON.stringify(second)).toBe(JSON.stringify((await uncached()).listing));
    expect(await store.search('edited')).toEqual([`${key}/b.md`]);
  });

  it('rebuilds a source whose files are unchanged when another source changed, and keeps both right', async () => {
    const other = path.join(t.root, 'src', 'api');
    await mkdir(other, { recursive: true });
    const otherDir = memoryDirFor(t.claude, other);
    await write(path.join(otherDir, 'x.md'), '# X\n');
    const projects = [{ key, dir: path.dirname(dir), cwd }, { key: encodeProjectPath(other), dir: path.dirname(otherDir), cwd: other }];
    const store = new MemoryStore({ claudeDir: t.claude, homeDir: t.home, projects: () => projects });
    const first = await store.list();
    await nextTick();
    await write(path.join(otherDir, 'x.md'), '# X two\n');
    store.invalidate();
    const second = await store.list();
    const webapp = (l: typeof first) => l.entries.filter((e) => e.sourceId === key);
    // The unchanged source's entries are the very same objects; the changed one is read again.
    expect(webapp(second)).toEqual(webapp(first));
    expect(webapp(second)[0]).toBe(webapp(first)[0]);
    expect(second.entries.find((e) => e.filename === 'x.md')!.name).toBe('X two');
    expect(second.sources.map((s) => s.entryCount)).toEqual(first.sources.map((s) => s.entryCount));
  });
});

describe('real paths without realpath', () => {
  it('reports the real directory of a symlinked memory folder and of a symlinked projects folder', async () => {
    const elsewhere = path.join(t.root, 'elsewhere', 'memory');
    await write(path.join(elsewhere, 'x.md'), '# X\n');
    await rm(dir, { recursive: true });
    await symlink(elsewhere, dir);
    let memory = await uncached();
    expect(memory.listing.sources.map((s) => s.dir)).toEqual([elsewhere]);
    expect(memory.listing.entries.map((e) => e.filepath)).toEqual([path.join(elsewhere, 'x.md')]);

    const realProjects = path.join(t.root, 'projects-real');
    await rename(path.join(t.claude, 'projects'), realProjects);
    await symlink(realProjects, path.join(t.claude, 'projects'));
    await rm(path.join(realProjects, key, 'memory'));
    await write(path.join(realProjects, key, 'memory', 'y.md'), '# Y\n');
    memory = await uncached();
    expect(memory.listing.sources.map((s) => s.dir)).toEqual([path.join(realProjects, key, 'memory')]);
  });

  it('does not walk into a nested folder twice through a symlink back to it', async () => {
    await write(path.join(dir, 'deep', 'inner', 'z.md'), '# Z\n');
    await symlink(path.join(dir, 'deep'), path.join(dir, 'deep', 'inner', 'up'));
    const memory = await uncached();
    expect(memory.listing.entries.map((e) => e.filename)).toEqual(['deep/inner/z.md']);
  });
});

describe('TimeSlicer', () => {
  it('gives the event loop back once a slice is used up, and not before', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('immediate'));
    await new TimeSlicer(60_000).maybeYield();
    order.push('long slice');
    setImmediate(() => order.push('immediate 2'));
    await new TimeSlicer(0).maybeYield();
    order.push('spent slice');
    expect(order).toEqual(['long slice', 'immediate', 'immediate 2', 'spent slice']);
  });

  it('runs one slice per turn of the event loop, tasks taking turns in order', async () => {
    // An immediate that queues itself runs once per turn: a marker between turns.
    const events: string[] = [];
    let ticking = true;
    const tick = (): void => {
      events.push('turn');
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const task = async (name: string): Promise<void> => {
      for (let i = 0; i < 3; i++) {
        await nextSliceTurn();
        events.push(name);
      }
    };
    await Promise.all([task('a'), task('b'), task('c')]);
    ticking = false;
    const slices = events.flatMap((e, i) => (e === 'turn' ? [] : [i]));
    expect(slices.map((i) => events[i])).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
    // Requests are read between turns: no two slices may share one.
    for (let k = 1; k < slices.length; k++) expect(events.slice(slices[k - 1]! + 1, slices[k])).toContain('turn');
  });

  it('starts a slicer in a turn of its own, after the slices already waiting', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('immediate'));
    const waiting = nextSliceTurn().then(() => order.push('waiting slice'));
    await TimeSlicer.inOwnTurn();
    order.push('own slice');
    await waiting;
    expect(order).toEqual(['immediate', 'waiting slice', 'own slice']);
  });
});

describe('parseFile', () => {
  it('finds the same links as extractLinks, also when it skips texts without `[`', () => {
    const text = fc.array(fc.constantFrom('[', ']', '(', ')', '[[', ']]', 'x.md', 'a', ' ', '\n', '```\n', '---\n', 'name: n\n', '#'), {
      maxLength: 40,
    }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const links = extractLinks(parseFrontmatter(t).body);
        const parsed = parseFile(t, t.length, 0, 1);
        expect(parsed.markdownTargets).toEqual(links.markdown);
        expect(parsed.wikiTargets).toEqual(links.wikilinks);
      }),
      { numRuns: 2000 },
    );
  });
});

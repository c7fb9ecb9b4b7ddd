import { mkdir, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOpenedText } from '../../src/domain/files.js';
import { MemoryStore } from '../../src/domain/memory/memoryStore.js';
import { type TempHome, tempHome, webappProject, write } from './helpers.js';

let t: TempHome;
let dir: string;
let key: string;
let clock: number;
let projectCalls: number;
let store: MemoryStore;
beforeEach(async () => {
  t = await tempHome();
  const { cwd, ...project } = await webappProject(t);
  ({ key, dir } = project);
  clock = 1_000_000;
  projectCalls = 0;
  store = new MemoryStore({
    claudeDir: t.claude,
    homeDir: t.home,
    projects: () => {
      projectCalls++;
      return [{ key, dir: path.dirname(dir), cwd }];
    },
    now: () => clock,
  });
});
afterEach(async () => {
  await t.cleanup();
});

const ids = async () => (await store.list()).entries.map((e) => e.filename);

describe('MemoryStore cache', () => {
  it('serves the cached listing for 5 s, then reloads', async () => {
    await write(path.join(dir, 'a.md'), 'a');
    expect(await ids()).toEqual(['a.md']);
    await write(path.join(dir, 'b.md'), 'b');
    clock += 4999;
    expect(await ids()).toEqual(['a.md']);
    clock += 1;
    expect(await ids()).toEqual(['a.md', 'b.md']);
  });

  it('reloads at once after invalidate()', async () => {
    await write(path.join(dir, 'a.md'), 'a');
    expect(await ids()).toEqual(['a.md']);
    await unlink(path.join(dir, 'a.md'));
    store.invalidate();
    expect(await ids()).toEqual([]);
  });

  it('shares one load between concurrent callers', async () => {
    await write(path.join(dir, 'a.md'), 'a');
    const [one, two] = await Promise.all([store.list(), store.list(), store.search('a')]);
    expect(one).toBe(two);
    expect(projectCalls).toBe(1);
  });

  it('does not cache a load that an invalidate() overtook', async () => {
    await write(path.join(dir, 'a.md'), 'a');
    const stale = store.list();
    store.invalidate();
    expect((await stale).entries.map((e) => e.filename)).toEqual(['a.md']);
    // Written after the overtaken load finished: only a fresh load can see it.
    await write(path.join(dir, 'b.md'), 'b');
    expect(await ids()).toEqual(['a.md', 'b.md']);
  });
});

describe('MemoryStore warnings', () => {
  it('reports the same warning once across reloads', async () => {
    const messages: string[] = [];
    await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/' }));
    const warned = new MemoryStore({
      claudeDir: t.claude, homeDir: t.home, projects: () => [], now: () => clock,
      logger: { warn: (m) => void messages.push(m) },
    });
    await warned.list();
    warned.invalidate();
    await warned.list();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/home directory/);
  });
});

/** What GET /api/memory/content answers: the listed entry's file, opened by the store, read whole. */
async function content(id: string): Promise<string | null> {
  const opened = await store.open(id);
  return opened && readOpenedText(opened);
}

describe('MemoryStore.open', () => {
  it('returns the raw text, frontmatter included, for a listed id', async () => {
    const text = '---\nname: x\n---\n# X\n';
    await write(path.join(dir, 'notes', 'x.md'), text);
    expect(await content(`${key}/notes/x.md`)).toBe(text);
  });

  it('answers null for unknown and traversal ids', async () => {
    await write(path.join(dir, 'a.md'), 'a');
    await write(path.join(t.root, 'secret.md'), 'secret');
    for (const id of ['nope', `${key}/b.md`, '../x', `${key}/../../secret.md`, `${key}/../../../../../../etc/passwd`,
      `${key}/notes/../a.md`, dir + '/a.md', '']) {
      expect(await content(id)).toBeNull();
    }
    expect(await content(`${key}/a.md`)).toBe('a');
  });

  it('answers null when the file vanished or became a directory after listing', async () => {
    await write(path.join(dir, 'a.md'), 'a');
    await write(path.join(dir, 'b.md'), 'b');
    await store.list();
    await unlink(path.join(dir, 'a.md'));
    await rm(path.join(dir, 'b.md'));
    await mkdir(path.join(dir, 'b.md'));
    expect(await content(`${key}/a.md`)).toBeNull();
    expect(await content(`${key}/b.md`)).toBeNull();
  });
});

describe('MemoryStore.search', () => {
  beforeEach(async () => {
    await write(path.join(dir, 'MEMORY.md'), '# Index\n- [Umlaut](umlaut.md)\n');
    await write(path.join(dir, 'umlaut.md'), 'Ärger mit dem Build');
    await write(path.join(dir, 'greek.md'), 'ΟΔΟΣ και λόγος');
    await write(path.join(dir, 'pattern.md'), 'literal a.*b here');
    await write(path.join(dir, 'other.md'), 'aXXb only');
    await write(path.join(dir, 'fm.md'), '---\nname: hidden-in-frontmatter\nmetadata:\n  type: feedback\n---\nbody');
  });

  it('matches case-insensitively, Unicode included', async () => {
    expect(await store.search('ärger')).toEqual([`${key}/umlaut.md`]);
    expect(await store.search('ÄRGER')).toEqual([`${key}/umlaut.md`]);
    expect(await store.search('οδοσ')).toEqual([`${key}/greek.md`]);
    expect(await store.search('οδος')).toEqual([`${key}/greek.md`]);
    expect(await store.search('ΛΌΓΟΣ')).toEqual([`${key}/greek.md`]);
  });

  it('treats the query as literal text, not a pattern', async () => {
    expect(await store.search('a.*b')).toEqual([`${key}/pattern.md`]);
  });

  it('searches frontmatter and returns ids in listing order', async () => {
    expect(await store.search('HIDDEN-IN')).toEqual([`${key}/fm.md`]);
    expect(await store.search('md')).toEqual([`${key}/MEMORY.md`]);
    expect(await store.search('e')).toEqual([
      `${key}/MEMORY.md`, `${key}/fm.md`, `${key}/pattern.md`, `${key}/umlaut.md`,
    ]);
  });

  it('returns nothing for an empty query', async () => {
    expect(await store.search('')).toEqual([]);
  });
});

// The memory reader's change notices name the files that changed (the watchers collect their paths), and
// the ranked search looks again only at those: a file replaced under the same listing facts (name, size,
// time) is found by its new text once a notice names it, and not while notices name other files; a notice
// naming none, or naming a path the listing does not show, compares every file.
import { readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Viewer } from '../../src/viewer.js';
import { encodeCwd, TempHome } from '../helpers/home.js';
import { buildFindHome } from './home.js';

let home: TempHome;
let viewer: Viewer;
let memoryDir: (repo: string) => string;
let repos: { webapp: string; tools: string };

beforeEach(async () => {
  home = await TempHome.create();
  repos = await buildFindHome(home);
  memoryDir = (repo) => path.join(home.claude, 'projects', encodeCwd(repo), 'memory');
  viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false, cacheDir: null });
  await viewer.finder.built;
});

afterEach(async () => {
  await viewer.close();
  await rm(home.root, { recursive: true, force: true });
});

const ids = async (q: string): Promise<string[]> => {
  await viewer.finder.idle();
  return (await viewer.finder.find(q, { limit: 50 })).results.map((r) => r.id);
};

/** Replaces a file by a new one (a new inode, as Claude Code's atomic saves leave) with `from` swapped for `to` of the same length, and its old mtime. */
async function swap(file: string, from: string, to: string): Promise<void> {
  expect(to.length).toBe(from.length);
  const before = await stat(file);
  const text = await readFile(file, 'utf8');
  expect(text).toContain(from);
  await writeFile(`${file}.new`, text.replace(from, to));
  await rename(`${file}.new`, file);
  await utimes(file, before.atime, before.mtime);
  expect((await stat(file)).ino).not.toBe(before.ino);
}

describe('memory change notices', () => {
  it('look again only at the files they name', async () => {
    const style = path.join(memoryDir(repos.webapp), 'style.md');
    const deploy = path.join(memoryDir(repos.webapp), 'deploy.md');
    await swap(style, 'small', 'okapi');
    viewer.memoryChanged([deploy]);
    expect(await ids('okapi')).toEqual([]);
    viewer.memoryChanged([style]);
    const found = await ids('okapi');
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('style.md');
  });

  it('have the observed versions look again only at the files they name', async () => {
    const style = path.join(memoryDir(repos.webapp), 'style.md');
    // Observed versions are kept under a cache dir.
    await viewer.close();
    viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false, cacheDir: path.join(home.root, 'cache') });
    // The pass after start looks at every file (the pass under way is private state: read, not changed);
    // from then on only what the notices name is opened.
    await viewer.watching;
    const state = viewer as unknown as { memoryObserving: Promise<void> | null };
    while (state.memoryObserving !== null) await state.memoryObserving;
    // observe() is private: the spy counts which files a pass opens.
    const observe = vi.spyOn(viewer.memoryHistory as unknown as { observe(id: string, filepath: string): Promise<unknown> }, 'observe');
    viewer.memoryChanged([style]);
    // close() waits for the pass under way.
    await viewer.close();
    expect(observe.mock.calls.map(([, filepath]) => filepath)).toEqual([style]);
  });

  it('compare every file when they name none, or a path the listing does not show', async () => {
    const deploy = path.join(memoryDir(repos.webapp), 'deploy.md');
    const release = path.join(memoryDir(repos.tools), 'release.md');
    await swap(deploy, 'zebra', 'quagg');
    viewer.memoryChanged(null);
    expect((await ids('quagg'))[0]).toContain('deploy.md');
    await swap(release, 'publish', 'shelved');
    viewer.memoryChanged([path.join(memoryDir(repos.tools), 'gone.md')]);
    expect((await ids('shelved'))[0]).toContain('release.md');
  });
});

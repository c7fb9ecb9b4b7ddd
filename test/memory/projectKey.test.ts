import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeProjectKey, encodeProjectPath, gitRootOf } from '../../src/domain/memory/projectKey.js';
import { type TempHome, tempHome, write } from './helpers.js';

describe('encodeProjectPath', () => {
  it('turns every UTF-16 unit outside [A-Za-z0-9] into a dash', () => {
    expect(encodeProjectPath('/home/u/.config')).toBe('-home-u--config');
    expect(encodeProjectPath('C:\\Users\\c\\p')).toBe('C--Users-c-p');
    expect(encodeProjectPath('/a/é/😀')).toBe('-a---' + '--');
  });

  it('cuts long names to 200 characters plus a stable base36 hash', () => {
    const long = `/${'x'.repeat(300)}`;
    const key = encodeProjectPath(long);
    expect(key).toMatch(/^-x{199}-[0-9a-z]+$/);
    expect(key.slice(0, 200)).toBe(`-${'x'.repeat(199)}`);
    expect(encodeProjectPath(long)).toBe(key);
    expect(encodeProjectPath(`/${'x'.repeat(299)}y`)).not.toBe(key);
  });

  it('keeps short encodings alphanumeric-or-dash and length-preserving', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => {
      const key = encodeProjectPath(s);
      expect(key).toMatch(/^[A-Za-z0-9-]*$/);
      expect(key.length).toBe(s.length);
    }));
  });
});

describe('decodeProjectKey', () => {
  let t: TempHome;
  beforeEach(async () => {
    t = await tempHome();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('finds the directory whose encoding is the key, whatever each dash stood for', async () => {
    const real = path.join(t.root, 'src', 'my.app-v2');
    await mkdir(real, { recursive: true });
    // A decoy that matches the first dashes but has no continuation: the search must backtrack.
    await mkdir(path.join(t.root, 'src', 'my', 'app'), { recursive: true });
    const decoded = await decodeProjectKey(encodeProjectPath(real), t.root);
    expect(decoded).toEqual({ path: real, name: 'my.app-v2' });
  });

  it('works from the real file-system root by default', async () => {
    const real = path.join(t.root, 'work', 'proj');
    await mkdir(real, { recursive: true });
    expect(await decodeProjectKey(encodeProjectPath(real))).toEqual({ path: real, name: 'proj' });
  });

  it('returns the undecodable tail for a deleted project', async () => {
    await mkdir(path.join(t.root, 'src'), { recursive: true });
    const gone = path.join(t.root, 'src', 'deleted-proj');
    expect(await decodeProjectKey(encodeProjectPath(gone), t.root)).toEqual({ path: null, name: 'deleted-proj' });
  });

  it('returns the key without leading dashes when nothing resolves', async () => {
    expect(await decodeProjectKey('-nowhere-at-all', t.root)).toEqual({ path: null, name: 'nowhere-at-all' });
    expect(await decodeProjectKey('C--Users-c-p', t.root)).toEqual({ path: null, name: 'C--Users-c-p' });
  });
});

describe('gitRootOf', () => {
  let t: TempHome;
  beforeEach(async () => {
    t = await tempHome();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('walks up to the directory holding .git', async () => {
    const repo = path.join(t.root, 'repo');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await mkdir(path.join(repo, 'pkg', 'sub'), { recursive: true });
    expect(gitRootOf(path.join(repo, 'pkg', 'sub'))).toBe(repo);
    expect(gitRootOf(repo)).toBe(repo);
  });

  it('maps a linked worktree to its main worktree root', async () => {
    const main = path.join(t.root, 'main');
    await mkdir(path.join(main, '.git', 'worktrees', 'feature'), { recursive: true });
    const worktree = path.join(t.root, 'wt', 'feature');
    await write(path.join(worktree, '.git'), `gitdir: ${path.join(main, '.git', 'worktrees', 'feature')}\n`);
    await mkdir(path.join(worktree, 'src'), { recursive: true });
    expect(gitRootOf(path.join(worktree, 'src'))).toBe(main);
  });

  it('keeps a submodule (gitdir under .git/modules) as its own root', async () => {
    const sub = path.join(t.root, 'super', 'lib');
    await write(path.join(sub, '.git'), 'gitdir: ../.git/modules/lib\n');
    expect(gitRootOf(sub)).toBe(sub);
  });

  it('returns the cwd outside git', async () => {
    const plain = path.join(t.root, 'plain', 'dir');
    await mkdir(plain, { recursive: true });
    expect(gitRootOf(plain)).toBe(plain);
  });
});

// `npm install <git url>`: npm clones the repository, installs its devDependencies, runs its prepare
// script (the build), packs the result by its "files" and installs that. The repository here is a commit
// of the working tree in a temp dir, reached by a git+file:// URL, so the route is tested on what would be
// pushed; npm still fetches the build's devDependencies from the registry (or its cache).
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInstalledBin, cleanProject, npmWarnings, ok, ROOT, run } from './support.js';

let work: { dir: string; cleanup: () => Promise<void> };
let repo: string;

beforeAll(async () => {
  work = await cleanProject('pmv-install-git-');
  repo = path.join(work.dir, 'repo');
  await mkdir(repo);
  // Tracked files and new ones not ignored, as they are now in the working tree.
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0').filter((f) => f !== '');
  for (const file of files) await cp(path.join(ROOT, file), path.join(repo, file), { recursive: true, force: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error; // deleted in the working tree, not yet in the index
  });
  const git = (...args: string[]): void => void execFileSync('git', ['-c', 'user.name=install check', '-c', 'user.email=check@example.invalid', ...args], { cwd: repo });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'snapshot of the working tree');
}, 600_000);

afterAll(async () => {
  await work?.cleanup();
});

describe('from a git URL', () => {
  it('builds in prepare, installs only what it runs, and runs', async () => {
    const installed = ok(await run('npm', ['install', '--no-audit', '--no-fund', `git+file://${repo}`], { cwd: work.dir, timeoutMs: 1_200_000 }), 'npm install <git url>');
    expect(npmWarnings(installed)).toEqual([]);
    const pkg = path.join(work.dir, 'node_modules', 'plan-memory-viewer');
    expect((await readdir(path.join(work.dir, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual(['plan-memory-viewer']);
    const dist = await readdir(path.join(pkg, 'dist'));
    expect(dist).toContain('cli.js');
    expect(dist).toContain('THIRD-PARTY-NOTICES.txt');
    expect(dist.filter((f) => f.endsWith('.map') || f === '.build')).toEqual([]);
    await checkInstalledBin(path.join(work.dir, 'node_modules', '.bin', 'plan-memory-viewer'), work.dir);
  }, 1_500_000);
});

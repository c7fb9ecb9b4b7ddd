import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverPlanFolders, resolvePlansDirectory } from '../../src/domain/plans/planFolders.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
let repo: string;

beforeEach(async () => {
  home = await TempHome.create();
  repo = await home.repo('webapp');
});

afterEach(async () => {
  await home.cleanup();
});

describe('resolvePlansDirectory', () => {
  it('resolves relative to the project root', async () => {
    expect(await resolvePlansDirectory('docs/plans', repo)).toBe(path.join(repo, 'docs/plans'));
    expect(await resolvePlansDirectory('./plans/', repo)).toBe(path.join(repo, 'plans'));
  });

  it('accepts an absolute path inside the project', async () => {
    expect(await resolvePlansDirectory(path.join(repo, 'inside'), repo)).toBe(path.join(repo, 'inside'));
  });

  it('does not expand ~ (a folder literally named ~ inside the project)', async () => {
    expect(await resolvePlansDirectory('~/plans', repo)).toBe(path.join(repo, '~/plans'));
  });

  it.each(['../outside', '/etc', 'docs/../../escape', 'docs\\plans', 'a\0b'])('refuses %j', async (value) => {
    expect(await resolvePlansDirectory(value, repo)).toBeNull();
  });

  it('refuses a symlink that escapes the project', async () => {
    const outside = path.join(home.root, 'elsewhere');
    await mkdir(outside);
    await symlink(outside, path.join(repo, 'link'));
    expect(await resolvePlansDirectory('link', repo)).toBeNull();
    expect(await resolvePlansDirectory('link/deeper', repo)).toBeNull();
  });

  it('accepts a symlink that stays inside the project', async () => {
    await mkdir(path.join(repo, 'real'));
    await symlink(path.join(repo, 'real'), path.join(repo, 'alias'));
    expect(await resolvePlansDirectory('alias', repo)).toBe(path.join(repo, 'alias'));
  });
});

describe('discoverPlanFolders', () => {
  it('adds each project plansDirectory, local settings first, then project, then user', async () => {
    const other = await home.repo('api');
    const third = await home.repo('infra');
    await home.write(`${repo}/.claude/settings.local.json`, JSON.stringify({ plansDirectory: 'local-plans' }));
    await home.write(`${repo}/.claude/settings.json`, JSON.stringify({ plansDirectory: 'shared-plans' }));
    await home.write(`${other}/.claude/settings.json`, JSON.stringify({ plansDirectory: 'docs/plans' }));
    await home.write('settings.json', JSON.stringify({ plansDirectory: 'user-plans' }));
    const folders = await discoverPlanFolders(home.claude, [repo, other, third, repo]);
    expect(folders).toEqual([
      { dir: path.join(home.claude, 'plans'), projectRoot: null },
      { dir: path.join(other, 'docs/plans'), projectRoot: other },
      { dir: path.join(third, 'user-plans'), projectRoot: third },
      { dir: path.join(repo, 'local-plans'), projectRoot: repo },
    ]);
  });

  it('skips malformed settings, non-string values, escapes and unknown project roots, with a warning for escapes', async () => {
    const warnings: string[] = [];
    const other = await home.repo('api');
    await home.write(`${repo}/.claude/settings.local.json`, '{ not json');
    await home.write(`${repo}/.claude/settings.json`, JSON.stringify({ plansDirectory: 42 }));
    await home.write(`${other}/.claude/settings.json`, JSON.stringify({ plansDirectory: '../../etc' }));
    const folders = await discoverPlanFolders(home.claude, [repo, other, '/no/such/project', 'relative/cwd'], { warn: (m) => warnings.push(m) });
    expect(folders).toEqual([{ dir: path.join(home.claude, 'plans'), projectRoot: null }]);
    expect(warnings.some((w) => w.includes('../../etc'))).toBe(true);
  });

  it('skips a FIFO or a directory named settings.json without waiting for a writer, and an oversized file', async () => {
    const warnings: string[] = [];
    const other = await home.repo('api');
    await mkdir(path.join(repo, '.claude'), { recursive: true });
    execFileSync('mkfifo', [path.join(repo, '.claude', 'settings.local.json')]);
    await mkdir(path.join(repo, '.claude', 'settings.json'));
    await home.write(`${other}/.claude/settings.local.json`, JSON.stringify({ plansDirectory: 'big', pad: 'x'.repeat(1_100_000) }));
    await home.write(`${other}/.claude/settings.json`, JSON.stringify({ plansDirectory: 'fine' }));
    const folders = await discoverPlanFolders(home.claude, [repo, other], { warn: (m) => warnings.push(m) });
    expect(folders).toEqual([
      { dir: path.join(home.claude, 'plans'), projectRoot: null },
      { dir: path.join(other, 'fine'), projectRoot: other },
    ]);
    expect(warnings).toEqual([`ignoring ${path.join(other, '.claude', 'settings.local.json')}: larger than 256 KiB`]);
  });
});

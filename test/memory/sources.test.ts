import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMemory, type MemoryProjectInfo } from '../../src/domain/memory/loader.js';
import { encodeProjectPath } from '../../src/domain/memory/projectKey.js';
import { customSourceId } from '../../src/domain/memory/roots.js';
import type { MemorySource } from '../../src/domain/types.js';
import { type TempHome, collectingLogger, memoryDirFor, tempHome, write } from './helpers.js';

let t: TempHome;
beforeEach(async () => {
  t = await tempHome();
});
afterEach(async () => {
  await t.cleanup();
});

/** A git repository at `<root>/src/<name>` with a default memory dir holding one topic. */
async function project(name: string): Promise<{ cwd: string; info: MemoryProjectInfo }> {
  const cwd = path.join(t.root, 'src', name);
  await mkdir(path.join(cwd, '.git'), { recursive: true });
  const key = encodeProjectPath(cwd);
  await write(path.join(memoryDirFor(t.claude, cwd), 'topic.md'), `# ${name} topic\n`);
  return { cwd, info: { key, dir: path.join(t.claude, 'projects', key), cwd } };
}

async function load(projects: MemoryProjectInfo[], logger = collectingLogger()) {
  return loadMemory({ claudeDir: t.claude, homeDir: t.home, projects, logger });
}

const byProject = (sources: MemorySource[], name: string) => sources.filter((s) => s.project === name);

describe('default sources', () => {
  it('lists every projects/<key>/memory dir with the cwd from the projects list, sorted by project', async () => {
    const web = await project('webapp');
    const api = await project('Api');
    // A project folder without a memory dir is not a source.
    await mkdir(path.join(t.claude, 'projects', '-no-memory'), { recursive: true });
    const { listing } = await load([web.info, api.info]);
    expect(listing.sources.map((s) => [s.id, s.kind, s.project, s.cwd, s.active])).toEqual([
      [api.info.key, 'project', 'Api', api.cwd, true],
      [web.info.key, 'project', 'webapp', web.cwd, true],
    ]);
    expect(listing.sources[0]!.dir).toBe(memoryDirFor(t.claude, api.cwd));
  });

  it('takes the cwd of a key without logs from the git root of a known cwd', async () => {
    const repo = path.join(t.root, 'src', 'mono');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    const sub = path.join(repo, 'packages', 'ui');
    await mkdir(sub, { recursive: true });
    await write(path.join(memoryDirFor(t.claude, repo), 'MEMORY.md'), '# Index\n');
    const subKey = encodeProjectPath(sub);
    const { listing } = await load([{ key: subKey, dir: path.join(t.claude, 'projects', subKey), cwd: sub }]);
    expect(listing.sources).toHaveLength(1);
    expect(listing.sources[0]).toMatchObject({ id: encodeProjectPath(repo), project: 'mono', cwd: repo });
  });

  it('decodes the key of a project without logs, and shows the tail of a deleted one', async () => {
    const live = path.join(t.root, 'src', 'live.app');
    await mkdir(live, { recursive: true });
    await write(path.join(memoryDirFor(t.claude, live), 'a.md'), 'a');
    const gone = path.join(t.root, 'src', 'gone-app');
    await write(path.join(memoryDirFor(t.claude, gone), 'b.md'), 'b');
    const { listing } = await load([]);
    const sources = listing.sources.map((s) => [s.project, s.cwd]);
    expect(sources).toEqual([['gone-app', null], ['live.app', live]]);
  });
});

describe('user-level autoMemoryDirectory', () => {
  it('adds one "All projects" source and makes every default inactive', async () => {
    const web = await project('webapp');
    const api = await project('api');
    await write(path.join(t.home, 'shared-memory', 'MEMORY.md'), '# Shared\n');
    await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/shared-memory' }));
    const { listing } = await load([web.info, api.info]);
    const shared = path.join(t.home, 'shared-memory');
    expect(listing.sources.map((s) => [s.project, s.kind, s.active])).toEqual([
      ['All projects', 'custom', true], ['api', 'project', false], ['webapp', 'project', false],
    ]);
    expect(listing.sources[0]).toMatchObject({ id: customSourceId(shared), cwd: null, dir: shared });
    expect(listing.entries.map((e) => e.id)).toContain(`${customSourceId(shared)}/MEMORY.md`);
  });

  it('gives a stable custom id across loads', async () => {
    await write(path.join(t.root, 'mem', 'a.md'), 'a');
    await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'mem') }));
    const first = (await load([])).listing.sources[0]!.id;
    const second = (await load([])).listing.sources[0]!.id;
    expect(first).toMatch(/^custom-[0-9a-f]{12}$/);
    expect(second).toBe(first);
  });

  it('ignores a relative value with a warning and keeps defaults active', async () => {
    const web = await project('webapp');
    await write(path.join(t.home, 'rel', 'a.md'), 'a');
    await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: 'rel' }));
    const logger = collectingLogger();
    const { listing } = await load([web.info], logger);
    expect(listing.sources.map((s) => [s.kind, s.active])).toEqual([['project', true]]);
    expect(logger.messages.join('\n')).toMatch(/ignoring autoMemoryDirectory "rel"/);
  });

  it('does not list a custom dir that does not exist', async () => {
    const web = await project('webapp');
    await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/not-there' }));
    const { listing } = await load([web.info]);
    expect(listing.sources.map((s) => [s.kind, s.active])).toEqual([['project', false]]);
  });

  it('allows a dir inside the claude dir', async () => {
    await write(path.join(t.claude, 'team-memory', 'x.md'), 'x');
    await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/.claude/team-memory' }));
    const { listing } = await load([]);
    expect(listing.sources.map((s) => s.dir)).toEqual([path.join(t.claude, 'team-memory')]);
  });
});

describe('refused roots', () => {
  const cases: [string, (t: TempHome) => string, RegExp][] = [
    ['the file-system root', () => '/', /file-system root/],
    ['the home dir', () => '~/', /home directory/],
    ['~/.ssh', () => '~/.ssh', /dot-directory/],
    ['inside ~/.gnupg', (h) => path.join(h.home, '.gnupg', 'x'), /dot-directory/],
    ['the parent of home', (h) => h.root, /contains the home/],
  ];
  for (const [label, value, message] of cases) {
    it(`refuses ${label} and logs it`, async () => {
      await write(path.join(t.home, '.ssh', 'id.md'), 'secret');
      await write(path.join(t.home, '.gnupg', 'x', 'k.md'), 'secret');
      await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: value(t) }));
      const logger = collectingLogger();
      const { listing } = await load([], logger);
      expect(listing.sources).toEqual([]);
      expect(logger.messages.join('\n')).toMatch(message);
    });
  }

  it('refuses a repository naming Claude Code\'s plans folder, its projects folder or a project\'s log folder', async () => {
    const web = await project('webapp');
    await write(path.join(t.claude, 'plans', 'a-plan.md'), '# A plan\n');
    const logs = path.join(t.claude, 'projects', web.info.key);
    for (const value of ['~/.claude/plans', '~/.claude/projects', logs, path.join(t.claude, 'plans', 'sub', '..'), '~/.claude']) {
      await write(path.join(web.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: value }));
      const logger = collectingLogger();
      const { listing } = await load([web.info], logger);
      // Claude Code would read there instead of the default folder: the default is inactive, and nothing is listed.
      expect(listing.sources.map((s) => s.kind), value).toEqual(['project']);
      expect(logger.messages.join('\n'), value).toMatch(/not listing autoMemoryDirectory .*: it (holds Claude Code's plans|holds every project's session logs|is a project folder of session logs|is the Claude Code folder itself)/);
    }
    // A project's own memory folder stays a memory folder.
    await write(path.join(web.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: path.join(logs, 'memory') }));
    const { listing } = await load([web.info]);
    expect(listing.sources.map((s) => [s.kind, s.active])).toEqual([['project', true]]);
  });

  it('refuses a symlink that resolves into a dot-directory of home', async () => {
    await write(path.join(t.home, '.ssh', 'id.md'), 'secret');
    await symlink(path.join(t.home, '.ssh'), path.join(t.root, 'innocent'));
    await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'innocent') }));
    const logger = collectingLogger();
    const { listing } = await load([], logger);
    expect(listing.entries).toEqual([]);
    expect(logger.messages.join('\n')).toMatch(/innocent: it is a dot-directory of home/);
  });
});

describe('repo-level autoMemoryDirectory', () => {
  for (const file of ['settings.local.json', 'settings.json']) {
    it(`in .claude/${file}: a custom source under the project, its default inactive`, async () => {
      const web = await project('webapp');
      const api = await project('api');
      await write(path.join(t.root, 'repo-mem', 'MEMORY.md'), '# Repo memory\n');
      await write(path.join(web.cwd, '.claude', file), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'repo-mem') }));
      const { listing } = await load([web.info, api.info]);
      expect(listing.sources.map((s) => [s.project, s.kind, s.cwd, s.active])).toEqual([
        ['api', 'project', api.cwd, true],
        ['webapp', 'project', web.cwd, false],
        ['webapp', 'custom', web.cwd, true],
      ]);
    });
  }

  it('prefers settings.local.json over settings.json', async () => {
    const web = await project('webapp');
    await write(path.join(t.root, 'local-mem', 'l.md'), 'l');
    await write(path.join(t.root, 'shared-mem', 's.md'), 's');
    await write(path.join(web.cwd, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'local-mem') }));
    await write(path.join(web.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'shared-mem') }));
    const { listing } = await load([web.info]);
    expect(listing.sources.filter((s) => s.kind === 'custom').map((s) => s.dir)).toEqual([path.join(t.root, 'local-mem')]);
  });

  it('skips an ignored (relative) local value and uses settings.json', async () => {
    const web = await project('webapp');
    await write(path.join(t.root, 'shared-mem', 's.md'), 's');
    await write(path.join(web.cwd, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryDirectory: 'relative/mem' }));
    await write(path.join(web.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'shared-mem') }));
    const logger = collectingLogger();
    const { listing } = await load([web.info], logger);
    expect(listing.sources.filter((s) => s.kind === 'custom').map((s) => s.dir)).toEqual([path.join(t.root, 'shared-mem')]);
    expect(logger.messages.join('\n')).toMatch(/relative\/mem/);
  });

  it('takes precedence over the user-level setting for that project', async () => {
    const web = await project('webapp');
    await write(path.join(t.home, 'all-mem', 'a.md'), 'a');
    await write(path.join(t.root, 'web-mem', 'w.md'), 'w');
    await write(path.join(t.claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/all-mem' }));
    await write(path.join(web.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'web-mem') }));
    const { listing } = await load([web.info]);
    const web2 = byProject(listing.sources, 'webapp');
    expect(web2.map((s) => [s.kind, s.dir, s.active])).toEqual([
      ['project', memoryDirFor(t.claude, web.cwd), false],
      ['custom', path.join(t.root, 'web-mem'), true],
    ]);
    expect(byProject(listing.sources, 'All projects').map((s) => s.dir)).toEqual([path.join(t.home, 'all-mem')]);
  });

  it('is read from the git root too, and deactivates both the root key and the cwd key', async () => {
    const repo = path.join(t.root, 'src', 'mono');
    const sub = path.join(repo, 'pkg');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await mkdir(sub, { recursive: true });
    await write(path.join(memoryDirFor(t.claude, repo), 'r.md'), 'r');
    await write(path.join(memoryDirFor(t.claude, sub), 's.md'), 's');
    await write(path.join(t.root, 'mono-mem', 'm.md'), 'm');
    await write(path.join(repo, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'mono-mem') }));
    const subKey = encodeProjectPath(sub);
    const { listing } = await load([{ key: subKey, dir: path.join(t.claude, 'projects', subKey), cwd: sub }]);
    expect(listing.sources.map((s) => [s.id, s.project, s.active])).toEqual([
      [encodeProjectPath(repo), 'mono', false],
      [subKey, 'pkg', false],
      [customSourceId(path.join(t.root, 'mono-mem')), 'pkg', true],
    ]);
  });

  it('expands ~/ against the home dir', async () => {
    const web = await project('webapp');
    await write(path.join(t.home, 'notes', 'mem', 'n.md'), 'n');
    await write(path.join(web.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/notes/mem' }));
    const { listing } = await load([web.info]);
    expect(listing.sources.find((s) => s.kind === 'custom')?.dir).toBe(path.join(t.home, 'notes', 'mem'));
  });

  it('refuses a repo pointing at ~/.ssh, logging it', async () => {
    const web = await project('webapp');
    await write(path.join(t.home, '.ssh', 'id.md'), 'secret');
    await write(path.join(web.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/.ssh' }));
    const logger = collectingLogger();
    const { listing } = await load([web.info], logger);
    expect(listing.sources.every((s) => s.kind === 'project')).toBe(true);
    expect(listing.entries.some((e) => e.filepath.includes('.ssh'))).toBe(false);
    expect(logger.messages.join('\n')).toMatch(/\.ssh.*dot-directory/);
  });

  it('lists a dir named by several projects once, under the first project by name', async () => {
    const zed = await project('zed');
    const alpha = await project('alpha');
    await write(path.join(t.root, 'common', 'c.md'), 'c');
    for (const p of [zed, alpha]) {
      await write(path.join(p.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: path.join(t.root, 'common') }));
    }
    const { listing } = await load([zed.info, alpha.info]);
    const customs = listing.sources.filter((s) => s.kind === 'custom');
    expect(customs.map((s) => [s.project, s.cwd])).toEqual([['alpha', alpha.cwd]]);
    expect(listing.sources.filter((s) => s.kind === 'project').every((s) => !s.active)).toBe(true);
  });
});

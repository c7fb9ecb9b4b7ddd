// Symlinks a repository can ship in its plansDirectory or memory folder (docs/security.md, rule 10a): a
// link is followed only to a `.md` file (or a folder) inside the same folder tree with no dot-segment below
// its root. Everything else is not listed, not served, not searchable, not openable, and said once.
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryEntry, PlanMetadata } from '../../src/domain/types.js';
import { request } from '../helpers/http.js';
import { encodeCwd, eventually, TempHome, uuid } from '../helpers/home.js';
import { harness, type Harness } from './support.js';

const SECRET = 'BEGIN-OPENSSH-PRIVATE-KEY-do-not-leak';
const TOKEN = 'sk-ant-oat01-credential-do-not-leak';
const ENV = 'DATABASE_PASSWORD=env-do-not-leak';

let home: TempHome;
let server: Harness;
let repo: string;
let repoPlans: string;
let memDir: string;

const plans = async (): Promise<PlanMetadata[]> => (await server.json<{ plans: PlanMetadata[] }>('/api/plans')).plans;
const planNames = async (): Promise<string[]> => (await plans()).map((p) => p.filename).sort();
const entries = async (): Promise<MemoryEntry[]> => (await server.json<{ entries: MemoryEntry[] }>('/api/memory')).entries;

beforeAll(async () => {
  home = await TempHome.create('pmv-adv-links-');
  // Secrets a link could reach: an SSH key, Claude Code's own login token, another project's .env.
  await home.write(path.join(home.root, '.ssh', 'id_rsa'), `${SECRET}\n`);
  await home.write(path.join(home.root, '.ssh', 'notes.md'), `${SECRET}\n`);
  await home.write('.credentials.json', `{"token":"${TOKEN}"}\n`);
  const other = await home.repo('other');
  await home.write(path.join(other, '.env'), `${ENV}\n`);
  await home.write(path.join(other, 'docs', 'other.md'), `# Other project ${ENV}\n`);

  // A repository whose settings name its own plans folder, holding links of every kind.
  repo = await home.repo('cloned');
  repoPlans = path.join(repo, 'plans');
  await home.write(path.join(repo, '.claude', 'settings.json'), JSON.stringify({ plansDirectory: 'plans' }));
  await home.session(repo, uuid(1), ['real-plan']);
  await home.write(path.join(repoPlans, 'real-plan.md'), '# The real plan\n');
  await home.write(path.join(repoPlans, '.hidden.md'), `# hidden ${SECRET}\n`);
  await home.write(path.join(repoPlans, 'data.txt'), `not markdown ${SECRET}\n`);
  await symlink('../../../.ssh/id_rsa', path.join(repoPlans, 'notes.md')); // relative, out to ~/.ssh
  await symlink(path.join(home.claude, '.credentials.json'), path.join(repoPlans, 'token.md')); // absolute, to the token
  await symlink(path.join(other, '.env'), path.join(repoPlans, 'env.md')); // another project's .env
  await symlink(path.join(other, 'docs', 'other.md'), path.join(repoPlans, 'other.md')); // a .md of another project
  await symlink('.hidden.md', path.join(repoPlans, 'unhidden.md')); // a dotfile in the same folder
  await symlink('data.txt', path.join(repoPlans, 'data.md')); // a non-markdown file in the same folder
  await symlink(path.join(home.root, '.ssh'), path.join(repoPlans, 'ssh.md')); // a directory
  await symlink('real-plan.md', path.join(repoPlans, 'alias.md')); // relative, inside: followed
  await symlink(path.join(repoPlans, 'real-plan.md'), path.join(repoPlans, 'absolute-alias.md')); // absolute, inside: followed

  // A memory source with the same kinds of links, files and folders.
  memDir = path.join(home.claude, 'projects', encodeCwd(repo), 'memory');
  await home.write(path.join(memDir, 'MEMORY.md'), '# Memory\n- [Topic](topic.md)\n');
  await home.write(path.join(memDir, 'topic.md'), '---\nname: topic\n---\nA real topic.\n');
  await home.write(path.join(memDir, 'notes', 'deep.md'), '---\nname: deep\n---\nNested.\n');
  await home.write(path.join(memDir, '.git', 'config.md'), `${SECRET}\n`);
  await symlink(path.join(home.claude, '.credentials.json'), path.join(memDir, 'credentials.md'));
  await symlink(path.join(other, '.env'), path.join(memDir, 'env.md'));
  await symlink('../../../../.ssh/notes.md', path.join(memDir, 'ssh-notes.md')); // relative, a .md in ~/.ssh
  await symlink(path.join(home.root, '.ssh'), path.join(memDir, 'ssh')); // a directory out of the tree
  await symlink(path.join(other, 'docs'), path.join(memDir, 'other-docs')); // a directory of another project
  await symlink('.git', path.join(memDir, 'git')); // a dot-folder inside the tree
  await symlink('topic.md', path.join(memDir, 'alias.md')); // inside: followed
  await symlink('notes', path.join(memDir, 'notes-link')); // a folder inside: followed (its files once)

  server = await harness({ claudeDir: home.claude, homeDir: home.root, watch: true });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

async function everyAnswer(): Promise<string> {
  const bodies: string[] = [];
  for (const p of await plans()) bodies.push((await request(server.port, { path: `/api/plans/${encodeURIComponent(p.filename)}/content` })).body);
  for (const e of await entries()) bodies.push((await request(server.port, { path: `/api/memory/content?id=${encodeURIComponent(e.id)}` })).body);
  for (const q of [SECRET, TOKEN, ENV, 'do-not-leak']) {
    bodies.push((await request(server.port, { path: `/api/search?q=${encodeURIComponent(q)}` })).body);
    bodies.push((await request(server.port, { path: `/api/memory/search?q=${encodeURIComponent(q)}` })).body);
  }
  bodies.push((await request(server.port, { path: '/api/plans' })).body, (await request(server.port, { path: '/api/memory' })).body);
  return bodies.join('\n');
}

describe('symlinks in a plans folder', () => {
  it('lists only links to a .md file inside the same folder, relative or absolute', async () => {
    expect(await planNames()).toEqual(['absolute-alias.md', 'alias.md', 'real-plan.md']);
    const alias = (await plans()).find((p) => p.filename === 'alias.md');
    expect(alias?.title).toBe('The real plan');
  });

  it('says once why each other link is skipped, however often the folder is read again', async () => {
    await server.viewer.refresh();
    await server.viewer.refresh();
    for (const name of ['notes.md', 'token.md', 'env.md', 'other.md', 'unhidden.md', 'data.md', 'ssh.md']) {
      expect([name, server.warnings.filter((w) => w.includes(path.join(repoPlans, name))).length]).toEqual([name, 1]);
    }
  });

  it('refuses to open a skipped link', async () => {
    for (const name of ['notes.md', 'token.md']) {
      const res = await request(server.port, {
        method: 'POST', path: '/api/open', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ filepath: path.join(repoPlans, name) }),
      });
      expect(res.status).toBe(400);
    }
    expect(server.opened).toEqual([]);
  });

  it('skips a link that appears while running, and one re-aimed outside after it was listed', async () => {
    await symlink('../../../.ssh/id_rsa', path.join(repoPlans, 'later.md'));
    await home.write(path.join(repoPlans, 'fresh.md'), '# Fresh\n');
    expect(await eventually(async () => (await planNames()).includes('fresh.md'), 15_000)).toBe(true);
    expect(await planNames()).not.toContain('later.md');
    expect(await eventually(() => server.warnings.some((w) => w.includes('later.md')), 15_000)).toBe(true);

    // alias.md is listed; aimed at the key now (a new link renamed over it), it must not serve the key.
    const tmp = path.join(repoPlans, 'swap.tmp.1');
    await symlink('../../../.ssh/id_rsa', tmp);
    await rename(tmp, path.join(repoPlans, 'alias.md'));
    const res = await request(server.port, { path: '/api/plans/alias.md/content' });
    expect(res.body).not.toContain(SECRET);
    expect(res.status).toBe(404);
    expect(await eventually(async () => !(await planNames()).includes('alias.md'), 15_000)).toBe(true);
  });
});

describe('symlinks in a memory folder', () => {
  it('lists only links to a .md file or a folder inside the memory folder', async () => {
    const files = (await entries()).map((e) => e.filename).sort();
    expect(files).toEqual(['MEMORY.md', 'alias.md', 'notes/deep.md', 'topic.md']);
  });

  it('says once why each other link is skipped', async () => {
    await server.viewer.refresh();
    await entries();
    for (const name of ['credentials.md', 'env.md', 'ssh-notes.md', 'ssh', 'other-docs', 'git']) {
      expect([name, server.warnings.filter((w) => w.includes(path.join(memDir, name) + ':')).length]).toEqual([name, 1]);
    }
  });
});

describe('what a skipped link points at', () => {
  it('never reaches an answer: listings, content, searches', async () => {
    const all = await everyAnswer();
    for (const secret of [SECRET, TOKEN, ENV]) expect(all).not.toContain(secret);
  });

  it('stays out after the target changes and the link is removed and made again', async () => {
    await rm(path.join(memDir, 'credentials.md'));
    await writeFile(path.join(home.claude, '.credentials.json'), `{"token":"${TOKEN}-2"}\n`);
    await symlink(path.join(home.claude, '.credentials.json'), path.join(memDir, 'credentials.md'));
    await mkdir(path.join(memDir, 'more'), { recursive: true });
    await writeFile(path.join(memDir, 'more', 'ok.md'), '---\nname: ok\n---\n');
    expect(await eventually(async () => (await entries()).some((e) => e.filename === 'more/ok.md'), 15_000)).toBe(true);
    expect(await everyAnswer()).not.toContain(TOKEN);
  });
});

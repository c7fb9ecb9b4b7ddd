// The health check's detectors on real-shaped memory folders (temp dirs): each kind of problem found
// where Claude Code would go wrong, and not where it would not.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeProjectPath } from '../../../src/domain/memory/projectKey.js';
import { type TempHome, tempHome, write } from '../helpers.js';
import { DAY, files, gitProject, health, indexLine, kinds, topic } from './homes.js';

let t: TempHome;
beforeEach(async () => {
  t = await tempHome();
});
afterEach(async () => {
  await t.cleanup();
});

describe('load budget findings', () => {
  it('over-budget names the lines and entries Claude Code never loads; unreachable the topics linked only there', async () => {
    const p = await gitProject(t, 'webapp');
    const entries = Array.from({ length: 203 }, (_, i) => indexLine(`Note ${i + 1}`, `note-${i + 1}.md`, `hook ${i + 1}`));
    // note-2 is linked again past the cut, so it stays reachable.
    entries.push(indexLine('Note 2 again', 'note-2.md', 'second link'));
    await files(p.dir, { 'MEMORY.md': `${entries.join('\n')}\n` });
    for (let i = 1; i <= 203; i++) await files(p.dir, { [`note-${i}.md`]: topic(`note-${i}`, `Note number ${i}`) });
    const h = await health(t, [p.info]);
    const source = h.byProject('webapp');
    expect(source.load).toMatchObject({ lines: 204, keptLines: 200, truncated: true, firstUnreadLine: 201 });
    const over = source.problems.filter((p) => p.kind === 'over-budget');
    expect(over).toHaveLength(1);
    expect(over[0]).toMatchObject({ file: 'MEMORY.md', line: 201, fix: 'move-past-cut' });
    expect(over[0]!.message).toContain('lines 201–204');
    expect(over[0]!.related.map((r) => r.file)).toEqual(['note-201.md', 'note-202.md', 'note-203.md', 'note-2.md']);
    const unreachable = source.problems.filter((p) => p.kind === 'unreachable');
    expect(unreachable.map((p) => [p.target, p.line])).toEqual([['note-201.md', 201], ['note-202.md', 202], ['note-203.md', 203]]);
  });

  it('leaves frontmatter and HTML comments out before counting: a 230-line file of 190 counted lines is not over', async () => {
    const p = await gitProject(t, 'webapp');
    const comment = ['<!-- maintainers: keep entries short', ...Array.from({ length: 30 }, (_, i) => `rule ${i}`), '-->'];
    const front = ['---', 'name: index', 'description: "project index"', '---'];
    const entries = Array.from({ length: 190 }, (_, i) => indexLine(`N${i}`, `n${i}.md`, 'h'));
    await files(p.dir, { 'MEMORY.md': `${[...front, ...comment, ...entries].join('\n')}\n` });
    const source = (await health(t, [p.info])).byProject('webapp');
    // The comment leaves an empty first line, which the trim removes: 190 counted lines.
    expect(source.load).toMatchObject({ lines: 190, truncated: false, firstUnreadLine: null });
    expect(source.problems.filter((x) => x.kind === 'over-budget' || x.kind === 'unreachable')).toEqual([]);
  });
});

describe('links', () => {
  it('finds dangling links with a retarget suggestion when one topic clearly was meant; team/ links are valid', async () => {
    const p = await gitProject(t, 'webapp');
    await files(p.dir, {
      'MEMORY.md': [
        indexLine('Deploy notes', 'deploy_notes.md', 'how to ship'),
        indexLine('Gone', 'gone-topic.md', 'deleted long ago'),
        indexLine('Team style', 'team/style.md', 'shared by the team'),
        indexLine('User role', 'user-role.md', 'who the user is'),
      ].join('\n') + '\n',
      'deploy-notes.md': topic('deploy-notes', 'How we deploy'),
      'user-role.md': topic('user-role', 'Senior backend engineer', { type: 'user', body: 'See [[ghost-memory]] and [[deploy-notes]].' }),
      'team/style.md': '# Team style\n',
    });
    const h = await health(t, [p.info]);
    expect(h.listing.sources[0]!.index!.danglingLinks).toEqual(['deploy_notes.md', 'gone-topic.md']);
    const dangling = h.byProject('webapp').problems.filter((x) => x.kind === 'dangling');
    expect(dangling.map((d) => [d.file, d.line, d.target, d.fix])).toEqual([
      ['MEMORY.md', 1, 'deploy_notes.md', 'retarget-link'],
      ['MEMORY.md', 2, 'gone-topic.md', 'remove-link'],
      ['user-role.md', null, 'ghost-memory', 'remove-link'],
    ]);
    expect(dangling[0]!.related).toEqual([{ sourceId: p.info.key, file: 'deploy-notes.md' }]);
  });

  it('reports orphans with the add-to-index fix, but not pinned memories; untyped memories are no problem', async () => {
    const p = await gitProject(t, 'webapp');
    await files(p.dir, {
      'MEMORY.md': `${indexLine('Linked', 'linked.md', 'in the index')}\n`,
      'linked.md': topic('linked', 'Linked from the index', { type: null }),
      'forgotten.md': topic('forgotten', 'Nobody links this'),
      'always.md': topic('always', 'Always applies', { type: null, pinned: true }),
    });
    const source = (await health(t, [p.info])).byProject('webapp');
    expect(kinds(source)).toEqual(['orphan:forgotten.md']);
    expect(source.problems[0]!.fix).toBe('add-to-index');
    expect(source.pinned).toEqual(['always.md']);
  });
});

describe('frontmatter', () => {
  it('truncated-value gives the full written text; bad-frontmatter the line and a quoting fix', async () => {
    const p = await gitProject(t, 'webapp');
    await files(p.dir, {
      'MEMORY.md': `${indexLine('Epic', 'epic.md', 'h')}\n${indexLine('Build', 'build.md', 'h')}\n`,
      'epic.md': topic('epic', '', { rawDescription: 'Epic #604 — converge the builds' }),
      'build.md': ['---', 'name: build', 'description: Fix: the build is flaky', 'metadata:', '  type: project', '---', 'Body', ''].join('\n'),
    });
    const source = (await health(t, [p.info])).byProject('webapp');
    const cut = source.problems.find((x) => x.kind === 'truncated-value')!;
    expect(cut).toMatchObject({ file: 'epic.md', line: 3, target: 'description', fix: 'quote-value' });
    expect(cut.message).toContain('“Epic #604 — converge the builds”');
    expect(cut.message).toContain('reads “Epic”');
    const bad = source.problems.find((x) => x.kind === 'bad-frontmatter')!;
    expect(bad).toMatchObject({ file: 'build.md', line: 3, target: 'description', fix: 'quote-value' });
  });

  it('pinned-over-limit when more than 4 memories are pinned', async () => {
    const p = await gitProject(t, 'webapp');
    const pinned = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`pin-${i}.md`, topic(`pin-${i}`, `Pinned ${i}`, { type: null, pinned: true })]));
    await files(p.dir, { 'MEMORY.md': '# Memory\n', ...pinned });
    const source = (await health(t, [p.info])).byProject('webapp');
    expect(source.pinned).toHaveLength(5);
    expect(kinds(source)).toEqual(['pinned-over-limit:-']);
    expect(source.problems[0]!.related).toHaveLength(5);
  });
});

describe('stale', () => {
  it('flags a topic unchanged for 90 days whose session is gone; not while its session is known, nor a pinned one', async () => {
    const p = await gitProject(t, 'webapp');
    const now = Date.now();
    const old = new Date(now - 120 * DAY);
    await files(p.dir, {
      'MEMORY.md': ['gone', 'alive', 'pinned', 'fresh'].map((n) => indexLine(n, `${n}.md`, 'h')).join('\n') + '\n',
      'gone.md': topic('gone', 'Session gone', { session: 'aaaaaaaa-0000-4000-8000-000000000001' }),
      'alive.md': topic('alive', 'Session still here', { session: 'aaaaaaaa-0000-4000-8000-000000000002' }),
      'pinned.md': topic('pinned', 'Pinned on purpose', { pinned: true }),
    }, old);
    await files(p.dir, { 'fresh.md': topic('fresh', 'Recently written') });
    const h = await health(t, [p.info], { now, sessions: ['aaaaaaaa-0000-4000-8000-000000000002'] });
    expect(kinds(h.byProject('webapp'))).toEqual(['stale:gone.md']);
    expect(h.byProject('webapp').problems[0]!.message).toContain('120 days');
    // A flag moves the threshold.
    const h200 = await health(t, [p.info], { now, staleDays: 200, sessions: [] });
    expect(kinds(h200.byProject('webapp'))).toEqual([]);
  });
});

describe('stale by memory type', () => {
  it('ages project and untyped topics only: user, feedback and reference memories never go stale by age', async () => {
    const p = await gitProject(t, 'webapp');
    const now = Date.now();
    const names = ['proj', 'untyped', 'user', 'feedback', 'ref'];
    await files(p.dir, {
      'MEMORY.md': names.map((n) => indexLine(n, `${n}.md`, 'h')).join('\n') + '\n',
      'proj.md': topic('proj', 'Work in progress', { type: 'project' }),
      'untyped.md': topic('untyped', 'Nobody said', { type: null }),
      'user.md': topic('user', 'Senior backend engineer', { type: 'user' }),
      'feedback.md': topic('feedback', 'Never mock the database', { type: 'feedback' }),
      'ref.md': topic('ref', 'Bugs live in Linear', { type: 'reference' }),
    }, new Date(now - 400 * DAY));
    const h = await health(t, [p.info], { now, sessions: [] });
    expect(kinds(h.byProject('webapp'))).toEqual(['stale:proj.md', 'stale:untyped.md']);
  });
});

describe('duplicates', () => {
  it('the same name, nearly the same description, the same text: the later copy, with a fix', async () => {
    const p = await gitProject(t, 'webapp');
    const body = 'The staging database is reset every Monday at 06:00 UTC; never keep test data there.';
    await files(p.dir, {
      'MEMORY.md': '# Memory\n',
      'a-role.md': topic('user-role', 'User is a senior backend engineer, new to React', { type: 'user' }),
      'b-role.md': topic('user-role-2', 'User is a senior backend engineer and new to React', { type: 'user' }),
      'c-role.md': topic('user-role', 'Different words entirely here', { type: 'user' }),
      'staging.md': topic('staging', 'Staging resets', { body }),
      'staging-copy.md': topic('staging-again', 'Staging reset schedule', { body: `${body}\n` }),
      'unrelated.md': topic('unrelated', 'User prefers tabs over spaces in Go files'),
    });
    const source = (await health(t, [p.info])).byProject('webapp');
    const dups = source.problems.filter((x) => x.kind === 'duplicate');
    expect(dups.map((d) => [d.file, d.related[0]!.file, d.fix])).toEqual([
      ['b-role.md', 'a-role.md', 'trash-topic'],
      ['c-role.md', 'a-role.md', 'trash-topic'],
      ['staging.md', 'staging-copy.md', 'trash-topic'],
    ]);
    expect(dups[0]!.message).toContain('Nearly the same description');
    expect(dups[1]!.message).toContain('The same name');
    expect(dups[2]!.message).toContain('The same text');
  });

  it('the same fact in several projects, in each of them, without a fix', async () => {
    const web = await gitProject(t, 'webapp');
    const api = await gitProject(t, 'api');
    const fact = topic('tabs', 'User prefers tabs over spaces in Go code', { type: 'feedback', body: 'Use tabs in Go files; gofmt does anyway.' });
    await files(web.dir, { 'MEMORY.md': '# Memory\n', 'tabs.md': fact });
    await files(api.dir, { 'MEMORY.md': '# Memory\n', 'go-style.md': fact.replace('name: tabs', 'name: go-style') });
    const h = await health(t, [web.info, api.info]);
    const inWeb = h.byProject('webapp').problems.find((x) => x.kind === 'duplicate')!;
    expect(inWeb).toMatchObject({ file: 'tabs.md', fix: null, related: [{ sourceId: api.info.key, file: 'go-style.md' }] });
    expect(inWeb.message).toContain('api');
    expect(h.byProject('api').problems.find((x) => x.kind === 'duplicate')!.related).toEqual([{ sourceId: web.info.key, file: 'tabs.md' }]);
  });
});

describe('split-brain', () => {
  it('memory left in the default folder while autoMemoryDirectory points elsewhere: reported on both sides', async () => {
    const p = await gitProject(t, 'webapp');
    await files(p.dir, { 'MEMORY.md': `${indexLine('Old', 'old.md', 'h')}\n`, 'old.md': topic('old', 'Written before the setting') });
    const custom = path.join(t.home, 'memory');
    await files(custom, { 'MEMORY.md': '# Memory\n' });
    await write(path.join(p.cwd, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: custom }));
    const h = await health(t, [p.info]);
    const [left, reader] = [h.listing.sources.find((s) => s.kind === 'project')!, h.listing.sources.find((s) => s.kind === 'custom')!];
    expect(left.active).toBe(false);
    const leftProblems = h.sources.find((s) => s.sourceId === left.id)!.problems.filter((x) => x.kind === 'split-brain');
    expect(leftProblems).toHaveLength(1);
    expect(leftProblems[0]!.message).toContain(custom);
    expect(leftProblems[0]!.related).toEqual([{ sourceId: reader.id, file: null }]);
    expect(h.sources.find((s) => s.sourceId === reader.id)!.problems.map((x) => x.kind)).toEqual(['split-brain']);
  });

  it('memory folders of deleted worktrees of the same repository, found from git\'s worktree records and nested paths', async () => {
    const repo = await gitProject(t, 'shop');
    await files(repo.dir, { 'MEMORY.md': '# Memory\n' });
    // A sibling worktree git still knows about (no `git worktree prune` yet), since deleted.
    const sibling = path.join(t.root, 'src', 'shop-feature');
    await write(path.join(repo.cwd, '.git', 'worktrees', 'shop-feature', 'gitdir'), `${sibling}/.git\n`);
    // A worktree Claude Code made inside the repository, since deleted.
    const nested = path.join(repo.cwd, '.claude', 'worktrees', 'fix-login');
    const folders = [sibling, nested].map((cwd) => ({ cwd, key: encodeProjectPath(cwd) }));
    for (const f of folders) {
      await files(path.join(t.claude, 'projects', f.key, 'memory'), { 'MEMORY.md': '# Memory\n', 'wip.md': topic('wip', `Work in ${f.cwd}`) });
    }
    // An unrelated folder whose project is gone is not a worktree of anything.
    const gone = path.join(t.root, 'src', 'gone-app');
    await files(path.join(t.claude, 'projects', encodeProjectPath(gone), 'memory'), { 'MEMORY.md': '# Memory\n', 'x.md': topic('x', 'X') });
    const projects = [repo.info, ...[...folders, { cwd: gone, key: encodeProjectPath(gone) }].map((f) => ({ key: f.key, dir: path.join(t.claude, 'projects', f.key), cwd: f.cwd }))];
    const h = await health(t, projects);
    const split = (id: string) => h.sources.find((s) => s.sourceId === id)!.problems.filter((x) => x.kind === 'split-brain');
    for (const f of folders) {
      const [p] = split(f.key);
      expect(p!.message).toContain(`deleted worktree (${f.cwd}) of shop`);
      expect(p!.related).toEqual([{ sourceId: repo.info.key, file: null }]);
    }
    expect(split(repo.info.key)).toHaveLength(2);
    expect(split(encodeProjectPath(gone))).toEqual([]);
  });
});

describe('secrets', () => {
  it('names the kind and line of credential-looking text, never the text itself', async () => {
    const p = await gitProject(t, 'webapp');
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    await files(p.dir, {
      'MEMORY.md': `${indexLine('Access', 'access.md', 'how to reach staging')}\n`,
      'access.md': topic('access', 'Staging access', {
        body: [
          '# Access', '', `CI uses the token ${token}.`, 'password: hunter2!', 'password: <ask the user>',
          'The password field is required.', '-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAA', '-----END OPENSSH PRIVATE KEY-----',
        ].join('\n'),
      }),
    });
    const source = (await health(t, [p.info])).byProject('webapp');
    const secrets = source.problems.filter((x) => x.kind === 'secret');
    expect(secrets.map((s) => [s.file, s.line])).toEqual([['access.md', 11], ['access.md', 12], ['access.md', 15]]);
    expect(secrets.map((s) => s.message.split(' looks like a ')[1]!.split('.')[0])).toEqual(['GitHub token', 'password', 'private key block']);
    for (const s of secrets) {
      expect(s.message).not.toContain(token);
      expect(s.message).not.toContain('hunter2');
    }
    expect(secrets[0]!.fix).toBeNull();
  });
});

describe('sources', () => {
  it('lists subagent memory folders as custom sources named after their agent; skips agents/ inside a memory folder', async () => {
    const p = await gitProject(t, 'webapp');
    await files(p.dir, { 'MEMORY.md': '# Memory\n', 'agents/reviewer/notes.md': '# Agent notes\n', 'kept.md': '# Kept\n' });
    await files(path.join(t.claude, 'agent-memory', 'code-reviewer'), { 'MEMORY.md': '# Reviewer memory\n' });
    await files(path.join(p.cwd, '.claude', 'agent-memory', 'planner'), { 'MEMORY.md': '# Planner memory\n' });
    await files(path.join(p.cwd, '.claude', 'agent-memory-local', 'tester'), { 'MEMORY.md': '# Tester memory\n', 'flaky.md': '# Flaky tests\n' });
    await mkdir(path.join(t.claude, 'agent-memory', '.hidden'), { recursive: true });
    const h = await health(t, [p.info]);
    expect(h.listing.sources.map((s) => [s.project, s.kind, s.active, s.cwd])).toEqual([
      ['agent: code-reviewer', 'custom', true, null],
      ['webapp', 'project', true, p.cwd],
      ['webapp agent: planner', 'custom', true, p.cwd],
      ['webapp agent: tester (local)', 'custom', true, p.cwd],
    ]);
    expect(h.listing.entries.filter((e) => e.sourceId === p.info.key).map((e) => e.filename)).toEqual(['MEMORY.md', 'kept.md']);
  });
});

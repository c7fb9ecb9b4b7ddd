// Every fix on real-shaped folders in temp dirs: the preview writes nothing and shows the diff, the
// applied fix leaves exactly the expected bytes, and the health check no longer finds the problem.
import { readFile, readdir, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FixKind, MemoryProblem } from '../../../src/contract/memoryCare.js';
import { MemoryCare } from '../../../src/domain/memory/care/memoryCare.js';
import { MemoryStore } from '../../../src/domain/memory/memoryStore.js';
import { LinkResolver } from '../../../src/domain/memory/linkResolver.js';
import { findOrphans, indexMentions } from '../../../src/domain/memory/orphans.js';
import { type TempHome, tempHome } from '../helpers.js';
import { type Project, files, gitProject, indexLine, topic } from './homes.js';

let t: TempHome;
let p: Project;
let care: MemoryCare;
let changes: number;
beforeEach(async () => {
  t = await tempHome();
  p = await gitProject(t, 'webapp');
  const store = new MemoryStore({ claudeDir: t.claude, homeDir: t.home, projects: () => [p.info] });
  changes = 0;
  care = new MemoryCare({
    store, careDir: path.join(t.root, 'care'), readOnly: false, sessionKnown: () => false,
    changed: () => {
      changes++;
      store.invalidate();
    },
  });
});
afterEach(async () => {
  await t.cleanup();
});

const read = (file: string) => readFile(path.join(p.dir, file), 'utf8');

async function problems(kind?: string): Promise<MemoryProblem[]> {
  const all = (await care.health()).sources.find((s) => s.sourceId === p.info.key)!.problems;
  return kind ? all.filter((x) => x.kind === kind) : all;
}

/** Preview (nothing written), then apply with the preview's hash. */
async function fix(problem: Pick<MemoryProblem, 'file' | 'target'> & { fix: FixKind | null }, kind?: FixKind) {
  const request = { sourceId: p.info.key, kind: kind ?? problem.fix!, file: problem.file!, target: problem.target };
  const before = await snapshot();
  const preview = await care.fix({ ...request, apply: false });
  if (!('ok' in preview)) throw new Error(`preview: ${preview.status} ${preview.message}`);
  expect(await snapshot()).toEqual(before);
  expect(preview.ok.applied).toBe(false);
  const applied = await care.fix({ ...request, hash: preview.ok.hash, apply: true });
  if (!('ok' in applied)) throw new Error(`apply: ${applied.status} ${applied.message}`);
  expect(applied.ok).toMatchObject({ applied: true, diff: preview.ok.diff, hash: preview.ok.hash });
  return { preview: preview.ok, applied: applied.ok };
}

/** Every file of the folder and its bytes, temp files included (none may be left behind). */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(p.dir, { recursive: true })).sort()) {
    const full = path.join(p.dir, name);
    if ((await stat(full)).isFile()) out[name] = await readFile(full, 'utf8');
  }
  return out;
}

describe('add-to-index', () => {
  it('adds an orphan in the index\'s own style, under the heading of its type, before the cut', async () => {
    const index = [
      '# Project memory', '', '## User', '* [User role](user-role.md): senior backend engineer', '',
      '## Feedback', '* [Testing](testing.md): integration tests, no mocks', '',
    ].join('\n');
    await files(p.dir, {
      'MEMORY.md': index,
      'user-role.md': topic('user-role', 'Senior backend engineer', { type: 'user' }),
      'testing.md': topic('testing', 'Integration tests', { type: 'feedback' }),
      'editor.md': topic('editor prefs', '', { type: 'user', rawDescription: 'Uses Vim #keybindings — never suggest VS Code' }),
    });
    const [orphan] = await problems('orphan');
    const { preview } = await fix(orphan!);
    expect(preview.files).toEqual(['MEMORY.md']);
    expect(preview.diff).toBe([
      '--- a/MEMORY.md', '+++ b/MEMORY.md', '@@ -2,6 +2,7 @@', ' ', ' ## User', ' * [User role](user-role.md): senior backend engineer',
      '+* [editor prefs](editor.md): Uses Vim #keybindings — never suggest VS Code', ' ', ' ## Feedback', ' * [Testing](testing.md): integration tests, no mocks', '',
    ].join('\n'));
    expect(await read('MEMORY.md')).toBe(index.replace('senior backend engineer\n', 'senior backend engineer\n* [editor prefs](editor.md): Uses Vim #keybindings — never suggest VS Code\n'));
    expect(await problems('orphan')).toEqual([]);
  });

  it('writes a MEMORY.md when there is none, as Claude Code would', async () => {
    await files(p.dir, { 'deploy notes.md': topic('deploy-notes', 'How we ship (Fridays excluded)') });
    const [orphan] = await problems('orphan');
    const { preview } = await fix(orphan!);
    expect(preview.diff).toContain('--- /dev/null\n+++ b/MEMORY.md\n');
    expect(await read('MEMORY.md')).toBe('- [deploy-notes](deploy%20notes.md) — How we ship (Fridays excluded)\n');
    expect(await problems()).toEqual([]);
  });
});

describe('dangling links', () => {
  beforeEach(async () => {
    await files(p.dir, {
      'MEMORY.md': [
        indexLine('Deploy notes', 'deploy_notes.md#steps', 'how to ship'),
        indexLine('Gone', 'gone.md', 'deleted'),
        'See also [the gone topic](gone.md) for history.',
        '',
      ].join('\n'),
      'deploy-notes.md': topic('deploy-notes', 'How we deploy', { body: 'Ask [[old-runbook|the runbook]] first.' }),
    });
  });

  it('retargets a link to the topic it meant, keeping text and anchor', async () => {
    const [dangling] = (await problems('dangling')).filter((d) => d.fix === 'retarget-link');
    await fix(dangling!);
    expect(await read('MEMORY.md')).toBe([
      indexLine('Deploy notes', 'deploy-notes.md#steps', 'how to ship'), indexLine('Gone', 'gone.md', 'deleted'),
      'See also [the gone topic](gone.md) for history.', '',
    ].join('\n'));
  });

  it('removes an index entry line whole and turns a link in prose into its text; a wikilink into its alias', async () => {
    const gone = (await problems('dangling')).find((d) => d.target === 'gone.md')!;
    await fix(gone);
    expect(await read('MEMORY.md')).toBe([
      indexLine('Deploy notes', 'deploy_notes.md#steps', 'how to ship'), 'See also the gone topic for history.', '',
    ].join('\n'));
    const wiki = (await problems('dangling')).find((d) => d.target === 'old-runbook')!;
    expect(wiki.file).toBe('deploy-notes.md');
    await fix(wiki);
    expect(await read('deploy-notes.md')).toBe(topic('deploy-notes', 'How we deploy', { body: 'Ask the runbook first.' }));
  });

  it('offers remove-link where retarget-link is the suggested fix', async () => {
    const [dangling] = (await problems('dangling')).filter((d) => d.fix === 'retarget-link');
    await fix(dangling!, 'remove-link');
    expect((await read('MEMORY.md')).split('\n')[0]).toBe(indexLine('Gone', 'gone.md', 'deleted'));
  });
});

describe('dangling wikilinks without the type prefix', () => {
  it('retargets [[verify-before-asserting]] to feedback_verify-before-asserting.md by its file stem; a near typo too', async () => {
    await files(p.dir, {
      'MEMORY.md': `${indexLine('Testing', 'testing.md', 'how we test')}\n${indexLine('Verify', 'feedback_verify-before-asserting.md', 'check first')}\n`,
      'testing.md': topic('testing', 'How we test', { body: 'Always [[verify-before-asserting|verify]]; see [[Verify_Befor_Asserting]] and [[asserting]].' }),
      'feedback_verify-before-asserting.md': topic('Verify claims', 'Check before claiming', { type: 'feedback' }),
    });
    const dangling = await problems('dangling');
    expect(dangling.map((d) => [d.target, d.fix, d.related])).toEqual(expect.arrayContaining([
      ['verify-before-asserting', 'retarget-link', [{ sourceId: p.info.key, file: 'feedback_verify-before-asserting.md' }]],
      ['Verify_Befor_Asserting', 'retarget-link', [{ sourceId: p.info.key, file: 'feedback_verify-before-asserting.md' }]],
      ['asserting', 'remove-link', []],
    ]));
    expect(dangling).toHaveLength(3);
    const { preview } = await fix(dangling.find((d) => d.target === 'verify-before-asserting')!);
    expect(preview.files).toEqual(['testing.md']);
    await fix((await problems('dangling')).find((d) => d.target === 'Verify_Befor_Asserting')!);
    expect(await read('testing.md')).toBe(topic('testing', 'How we test', {
      body: 'Always [[feedback_verify-before-asserting|verify]]; see [[feedback_verify-before-asserting]] and [[asserting]].',
    }));
    expect((await problems('dangling')).map((d) => d.target)).toEqual(['asserting']);
  });

  it('does not guess past an edit distance of 2', async () => {
    await files(p.dir, {
      'MEMORY.md': `${indexLine('Testing', 'testing.md', 'how we test')}\n`,
      'testing.md': topic('testing', 'How we test', { body: 'See [[deply-rnbook-note]].' }),
      'deploy-runbook-notes.md': topic('Runbook', 'How we ship'),
    });
    expect((await problems('dangling')).map((d) => d.fix)).toEqual(['remove-link']);
  });
});

describe('orphans: one definition', () => {
  it('a topic MEMORY.md names in backticks is named but not linked; link-mention turns the mention into a link', async () => {
    const index = `${indexLine('Testing', 'testing.md', 'how we test')}\nSee \`user_role.md\` for who the user is.\n`;
    await files(p.dir, {
      'MEMORY.md': index,
      'testing.md': topic('testing', 'How we test', { body: 'Overflow in [[deploy-extra]].' }),
      'deploy-extra.md': topic('deploy-extra', 'Reached through testing.md'),
      'user_role.md': topic('user role', 'Senior engineer', { type: 'user' }),
      'always.md': topic('always', 'Always applies', { type: null, pinned: true }),
      'forgotten.md': topic('forgotten', 'Nobody links this'),
    });
    const listing = (await care.health()).sources.find((s) => s.sourceId === p.info.key)!;
    // The spec's literal list is untouched; the findings use the one definition (orphans.ts).
    const orphans = await problems('orphan');
    expect(orphans.map((o) => [o.file, o.fix, o.line, o.target])).toEqual([
      ['forgotten.md', 'add-to-index', null, null],
      ['user_role.md', 'link-mention', 2, 'user_role.md'],
    ]);
    expect(orphans[1]!.message).toContain('named but not linked');
    expect(listing.pinned).toEqual(['always.md']);
    const { preview } = await fix(orphans[1]!);
    expect(preview.files).toEqual(['MEMORY.md']);
    expect(await read('MEMORY.md')).toBe(index.replace('`user_role.md`', '[user_role.md](user_role.md)'));
    expect((await problems('orphan')).map((o) => o.file)).toEqual(['forgotten.md']);
  });

  it('the shared function gives the UI the same orphans as the health check, and the spec list stays literal', async () => {
    await files(p.dir, {
      'MEMORY.md': `${indexLine('Testing', 'testing.md', 'how we test')}\nSee \`user_role.md\`.\n`,
      'testing.md': topic('testing', 'How we test', { body: 'Overflow in [[deploy-extra]].' }),
      'deploy-extra.md': topic('deploy-extra', 'Reached through testing.md'),
      'user_role.md': topic('user role', 'Senior engineer', { type: 'user' }),
      'always.md': topic('always', 'Always applies', { type: null, pinned: true }),
    });
    const store = new MemoryStore({ claudeDir: t.claude, homeDir: t.home, projects: () => [p.info] });
    const listing = await store.list();
    const source = listing.sources.find((s) => s.id === p.info.key)!;
    expect(source.orphans).toEqual(['always.md', 'deploy-extra.md', 'user_role.md']);
    const entries = listing.entries.filter((e) => e.sourceId === source.id);
    const pinned = (await care.health()).sources.find((s) => s.sourceId === source.id)!.pinned;
    const ui = findOrphans(entries, pinned, new LinkResolver(entries), indexMentions(await read('MEMORY.md')));
    expect(ui).toEqual([{ file: 'user_role.md', named: { text: 'user_role.md', line: 2 } }]);
    expect((await problems('orphan')).map((o) => o.file)).toEqual(ui.map((o) => o.file));
  });
});

describe('quote-value', () => {
  it('quotes a value an unquoted " #" cuts, so YAML reads all of it; nothing else in the file moves', async () => {
    const text = topic('epic', '', { rawDescription: 'Epic #604 — converge "fast" builds\\now' });
    await files(p.dir, { 'MEMORY.md': `${indexLine('Epic', 'epic.md', 'h')}\n`, 'epic.md': text });
    const [cut] = await problems('truncated-value');
    await fix(cut!);
    expect(await read('epic.md')).toBe(text.replace('description: Epic #604 — converge "fast" builds\\now', 'description: "Epic #604 — converge \\"fast\\" builds\\\\now"'));
    expect(await problems()).toEqual([]);
  });

  it('makes unparseable frontmatter parse by quoting every value with ": " in it', async () => {
    const text = ['---', 'name: build: ci', 'description: Fix: the build is flaky', 'metadata:', '  type: project', '---', 'Body', ''].join('\n');
    await files(p.dir, { 'MEMORY.md': `${indexLine('Build', 'build.md', 'h')}\n`, 'build.md': text });
    const [bad] = await problems('bad-frontmatter');
    await fix(bad!);
    expect(await read('build.md')).toBe(text.replace('name: build: ci', 'name: "build: ci"').replace('description: Fix: the build is flaky', 'description: "Fix: the build is flaky"'));
    expect(await problems('bad-frontmatter')).toEqual([]);
  });
});

describe('move-past-cut', () => {
  it('moves the unloaded lines into a topic linked before the cut; the index then fits and every topic is reachable', async () => {
    const head = ['# Memory', ''];
    const entries = Array.from({ length: 205 }, (_, i) => indexLine(`Note ${i + 1}`, `note-${i + 1}.md`, `hook ${i + 1}`));
    const index = `${[...head, ...entries].join('\n')}\n`;
    await files(p.dir, { 'MEMORY.md': index });
    for (let i = 1; i <= 205; i++) await files(p.dir, { [`note-${i}.md`]: topic(`note-${i}`, `Note ${i}`) });
    const [over] = await problems('over-budget');
    const { preview } = await fix(over!);
    expect(preview.files).toEqual(['index-overflow.md', 'MEMORY.md']);
    // 199 lines kept and the new link: exactly 200.
    const kept = [...head, ...entries].slice(0, 199);
    expect(await read('MEMORY.md')).toBe(`${[...kept, indexLine('More memories', 'index-overflow.md', 'index entries moved out of MEMORY.md, past what Claude Code loads')].join('\n')}\n`);
    expect(await read('index-overflow.md')).toBe(
      ['---', 'name: index-overflow', 'description: "index entries moved out of MEMORY.md, past what Claude Code loads"', '---', ''].join('\n') +
      `${entries.slice(197).join('\n')}\n`,
    );
    const after = await problems();
    expect(after.filter((x) => ["over-budget", "unreachable", "orphan"].includes(x.kind)).map((x) => x.kind + x.file + x.message)).toEqual([]);
  });
});

describe('move-past-cut at a section boundary', () => {
  it('moves a section the cut falls into whole, heading and all', async () => {
    const notes = Array.from({ length: 150 }, (_, i) => indexLine(`Note ${i + 1}`, `note-${i + 1}.md`, `hook ${i + 1}`));
    const checklist = Array.from({ length: 80 }, (_, i) => `- check item ${i + 1}`);
    const index = `${['# Memory', '', '## Notes', ...notes, '', '## Review checklist', ...checklist].join('\n')}\n`;
    await files(p.dir, { 'MEMORY.md': index });
    for (let i = 1; i <= 150; i++) await files(p.dir, { [`note-${i}.md`]: topic(`note-${i}`, `Note ${i}`) });
    const [over] = await problems('over-budget');
    await fix(over!);
    const link = indexLine('More memories', 'index-overflow.md', 'index entries moved out of MEMORY.md, past what Claude Code loads');
    expect(await read('MEMORY.md')).toBe(`${['# Memory', '', '## Notes', ...notes, '', link].join('\n')}\n`);
    expect(await read('index-overflow.md')).toBe(
      ['---', 'name: index-overflow', 'description: "index entries moved out of MEMORY.md, past what Claude Code loads"', '---', ''].join('\n') +
      `${['## Review checklist', ...checklist].join('\n')}\n`,
    );
  });

  it('carries the heading along when the one section is the whole index', async () => {
    const checklist = Array.from({ length: 230 }, (_, i) => `- check item ${i + 1}`);
    await files(p.dir, { 'MEMORY.md': `${['# Memory', '## Review checklist', ...checklist].join('\n')}\n` });
    const [over] = await problems('over-budget');
    await fix(over!);
    const moved = (await read('index-overflow.md')).split('---\n')[2]!.split('\n');
    expect(moved[0]).toBe('## Review checklist');
    expect(moved[1]).toMatch(/^- check item \d+$/);
    expect((await read('MEMORY.md')).split('\n').slice(0, 3)).toEqual(['# Memory', '## Review checklist', '- check item 1']);
  });
});

describe('trash-topic', () => {
  it('removes a stale topic and its index line; the bytes go to the trash, and undo puts both back byte for byte', async () => {
    const index = `${indexLine('Keep', 'keep.md', 'h')}\n${indexLine('Old', 'old.md', 'forgotten')}\n`;
    const old = topic('old', 'Written long ago', { session: 'ffffffff-0000-4000-8000-000000000000' });
    await files(p.dir, { 'MEMORY.md': index, 'keep.md': topic('keep', 'Keep me') });
    await files(p.dir, { 'old.md': old }, new Date(Date.now() - 200 * 86_400_000));
    const [stale] = await problems('stale');
    const { applied, preview } = await fix(stale!);
    expect(preview.diff).toContain('--- a/old.md\n+++ /dev/null\n');
    expect(await snapshot()).toEqual({ 'MEMORY.md': `${indexLine('Keep', 'keep.md', 'h')}\n`, 'keep.md': topic('keep', 'Keep me') });
    const trash = care.trash().items;
    expect(trash).toEqual([expect.objectContaining({ undoId: applied.undoId, sourceId: p.info.key, file: 'old.md', dir: p.dir })]);
    const undone = await care.undoFix(applied.undoId!);
    expect(undone).toEqual({ ok: { undone: true, files: ['MEMORY.md', 'old.md'], addToIndex: null } });
    expect(await snapshot()).toEqual({ 'MEMORY.md': index, 'keep.md': topic('keep', 'Keep me'), 'old.md': old });
    expect(care.trash().items).toEqual([]);
    expect(changes).toBe(2);
  });

  it('writes a symlinked topic\'s index at its target inside the folder and leaves the link a link', async () => {
    await files(p.dir, { 'real/MEMORY-target.md': `${indexLine('A', 'a.md', 'h')}\n`, 'a.md': topic('a', 'A'), 'b.md': topic('b', 'B') });
    await symlink(path.join(p.dir, 'real', 'MEMORY-target.md'), path.join(p.dir, 'MEMORY.md'));
    const orphan = (await problems('orphan')).find((o) => o.file === 'b.md')!;
    await fix(orphan);
    expect(await read('real/MEMORY-target.md')).toBe(`${indexLine('A', 'a.md', 'h')}\n- [b](b.md) — B\n`);
    expect((await import('node:fs')).lstatSync(path.join(p.dir, 'MEMORY.md')).isSymbolicLink()).toBe(true);
  });
});

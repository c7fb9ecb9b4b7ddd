// Every finding of one kind in a source fixed in one previewed change: one diff over all the files, written
// only with the preview's hash (refused, nothing written, when any file changed since), and one undo
// record that takes all of it back.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProblemKind } from '../../../src/contract/memoryCare.js';
import { MemoryCare } from '../../../src/domain/memory/care/memoryCare.js';
import { MemoryStore } from '../../../src/domain/memory/memoryStore.js';
import { type TempHome, tempHome } from '../helpers.js';
import { DAY, type Project, files, gitProject, indexLine, topic } from './homes.js';

let t: TempHome;
let p: Project;
let store: MemoryStore;
const make = (now?: number) => new MemoryCare({
  store, careDir: path.join(t.root, 'care'), readOnly: false, sessionKnown: () => false, changed: () => store.invalidate(),
  now: now === undefined ? undefined : () => now,
});

beforeEach(async () => {
  t = await tempHome();
  p = await gitProject(t, 'webapp');
  store = new MemoryStore({ claudeDir: t.claude, homeDir: t.home, projects: () => [p.info] });
});
afterEach(async () => {
  await t.cleanup();
});

const read = (file: string) => readFile(path.join(p.dir, file), 'utf8');
const undoRecords = async () => (await readdir(path.join(t.root, 'care', 'undo')).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{24}\.json$/.test(n));

async function count(care: MemoryCare, kind: ProblemKind): Promise<number> {
  return (await care.health()).sources.find((s) => s.sourceId === p.info.key)!.problems.filter((x) => x.kind === kind).length;
}

async function previewAll(care: MemoryCare, kind: ProblemKind) {
  const preview = await care.fixAll({ sourceId: p.info.key, kind, apply: false });
  if (!('ok' in preview)) throw new Error(`${preview.status} ${preview.message}`);
  return preview.ok;
}

const INDEX = [
  '# Memory', '',
  indexLine('Keep', 'keep.md', 'kept'),
  indexLine('Deploy', 'deploy-notes.md', 'moved away'),
  '- See [[verify-before-asserting]] first.',
  indexLine('Gone', 'gone.md', 'deleted long ago'), '',
].join('\n');

describe('fix all dangling links', () => {
  beforeEach(async () => {
    await files(p.dir, {
      'MEMORY.md': INDEX,
      'keep.md': topic('keep', 'Kept', { body: '# Keep\n\nSee [old](old-notes.md).\n' }),
      'feedback_verify-before-asserting.md': topic('verify', 'Verify before asserting', { type: 'feedback' }),
    });
  });

  it('previews one change over every file, applies it, and one undo takes it all back', async () => {
    const care = make();
    const dangling = await count(care, 'dangling');
    expect(dangling).toBe(4);
    const keep = await read('keep.md');
    const preview = await previewAll(care, 'dangling');
    expect(preview).toMatchObject({ applied: false, undoId: null, count: 4, files: ['keep.md', 'MEMORY.md'] });
    // The near file first: the wikilink is pointed at it; the others go.
    expect(preview.diff).toContain('+- See [[feedback_verify-before-asserting]] first.');
    expect(preview.diff).toContain('-- [Gone](gone.md) — deleted long ago');
    expect(await read('MEMORY.md')).toBe(INDEX);

    const applied = await care.fixAll({ sourceId: p.info.key, kind: 'dangling', hash: preview.hash, apply: true });
    if (!('ok' in applied)) throw new Error(applied.message);
    expect(applied.ok).toMatchObject({ applied: true, count: 4, diff: preview.diff });
    expect(await count(care, 'dangling')).toBe(0);
    expect(await read('MEMORY.md')).not.toContain('gone.md');
    expect(await undoRecords()).toHaveLength(1);
    expect((await make().recentFixes()).items).toMatchObject([
      { undoId: applied.ok.undoId, all: { problem: 'dangling', count: 4 }, files: ['keep.md', 'MEMORY.md'], undoable: true },
    ]);

    expect(await care.undoFix(applied.ok.undoId!)).toEqual({ ok: { undone: true, files: ['keep.md', 'MEMORY.md'], addToIndex: null } });
    expect(await read('MEMORY.md')).toBe(INDEX);
    expect(await read('keep.md')).toBe(keep);
    expect(await count(care, 'dangling')).toBe(4);
  });

  it('refuses when any file changed since the preview, naming it, and writes nothing', async () => {
    const care = make();
    const preview = await previewAll(care, 'dangling');
    const theirs = '# Keep\n\nRewritten by Claude Code; see [old](old-notes.md).\n';
    await writeFile(path.join(p.dir, 'keep.md'), theirs);
    expect(await care.fixAll({ sourceId: p.info.key, kind: 'dangling', hash: preview.hash, apply: true })).toEqual({
      status: 409,
      message: 'Conflict: keep.md changed since the preview; applying it would overwrite that change. Nothing was written; look at the new preview',
    });
    expect(await read('MEMORY.md')).toBe(INDEX);
    expect(await read('keep.md')).toBe(theirs);
    expect(await undoRecords()).toEqual([]);
  });
});

describe('fix all of other kinds', () => {
  it('links every orphan into MEMORY.md in one change', async () => {
    await files(p.dir, {
      'MEMORY.md': `${indexLine('Keep', 'keep.md', 'kept')}\n`,
      'keep.md': topic('keep', 'Kept'),
      'alpha.md': topic('alpha', 'First orphan'),
      'beta.md': topic('beta', 'Second orphan'),
      'gamma.md': topic('gamma', 'Third orphan'),
    });
    const care = make();
    const preview = await previewAll(care, 'orphan');
    expect(preview).toMatchObject({ count: 3, files: ['MEMORY.md'] });
    const applied = await care.fixAll({ sourceId: p.info.key, kind: 'orphan', hash: preview.hash, apply: true });
    if (!('ok' in applied)) throw new Error(applied.message);
    expect(await read('MEMORY.md')).toBe([
      indexLine('Keep', 'keep.md', 'kept'), indexLine('alpha', 'alpha.md', 'First orphan'),
      indexLine('beta', 'beta.md', 'Second orphan'), indexLine('gamma', 'gamma.md', 'Third orphan'), '',
    ].join('\n'));
    expect(await count(care, 'orphan')).toBe(0);
  });

  it('moves every stale topic to the trash in one change that one undo restores (not listed as single trashed topics)', async () => {
    const long = new Date(Date.now() - 400 * DAY);
    await files(p.dir, { 'MEMORY.md': `${indexLine('Old', 'old.md', 'old')}\n${indexLine('Older', 'older.md', 'older')}\n${indexLine('Keep', 'keep.md', 'kept')}\n` });
    await files(p.dir, { 'old.md': topic('old', 'Old'), 'older.md': topic('older', 'Older') }, long);
    await files(p.dir, { 'keep.md': topic('keep', 'Kept') });
    const care = make();
    expect(await count(care, 'stale')).toBe(2);
    const preview = await previewAll(care, 'stale');
    expect(preview).toMatchObject({ count: 2, files: ['MEMORY.md', 'old.md', 'older.md'] });
    const applied = await care.fixAll({ sourceId: p.info.key, kind: 'stale', hash: preview.hash, apply: true });
    if (!('ok' in applied)) throw new Error(applied.message);
    expect(await read('MEMORY.md')).toBe(`${indexLine('Keep', 'keep.md', 'kept')}\n`);
    expect(care.trash().items).toEqual([]);
    expect(await care.undoFix(applied.ok.undoId!)).toMatchObject({ ok: { undone: true } });
    expect(await read('old.md')).toBe(topic('old', 'Old'));
    expect(await read('older.md')).toBe(topic('older', 'Older'));
    expect(await read('MEMORY.md')).toContain('older.md');
  });

  it('takes only the kinds whose fixes can be applied together', async () => {
    await files(p.dir, { 'MEMORY.md': `${indexLine('Keep', 'keep.md', 'kept')}\n`, 'keep.md': topic('keep', 'Kept') });
    expect(await make().fixAll({ sourceId: p.info.key, kind: 'duplicate', apply: false })).toMatchObject({ status: 400 });
    expect(await make().fixAll({ sourceId: p.info.key, kind: 'orphan', apply: false })).toMatchObject({ status: 409 });
    expect(await make().fixAll({ sourceId: 'nope', kind: 'orphan', apply: false })).toMatchObject({ status: 404 });
  });
});

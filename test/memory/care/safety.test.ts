// What keeps a fix from doing harm: 409 when a file changed since the preview (the race with Claude Code
// writing the same file), undo only over what the fix left, read-only runs, no write outside the folder.
import { readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryCare } from '../../../src/domain/memory/care/memoryCare.js';
import { MemoryStore } from '../../../src/domain/memory/memoryStore.js';
import { type TempHome, tempHome, write } from '../helpers.js';
import { type Project, files, gitProject, indexLine, topic } from './homes.js';

let t: TempHome;
let p: Project;
let store: MemoryStore;
const careDir = () => path.join(t.root, 'care');
const make = (o: { readOnly?: boolean; careDir?: string | null } = {}) => new MemoryCare({
  store, careDir: o.careDir === undefined ? careDir() : o.careDir, readOnly: o.readOnly ?? false, sessionKnown: () => false,
  changed: () => store.invalidate(),
});

const INDEX = `${indexLine('Keep', 'keep.md', 'h')}\n`;
beforeEach(async () => {
  t = await tempHome();
  p = await gitProject(t, 'webapp');
  store = new MemoryStore({ claudeDir: t.claude, homeDir: t.home, projects: () => [p.info] });
  await files(p.dir, { 'MEMORY.md': INDEX, 'keep.md': topic('keep', 'Keep'), 'orphan.md': topic('orphan', 'Not in the index') });
});
afterEach(async () => {
  await t.cleanup();
});

const request = () => ({ sourceId: p.info.key, kind: 'add-to-index' as const, file: 'orphan.md', target: null });
const read = (file: string) => readFile(path.join(p.dir, file), 'utf8');
const undoRecords = async () => (await readdir(path.join(careDir(), 'undo')).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{24}\.json$/.test(n));

async function preview(care: MemoryCare): Promise<string> {
  const answer = await care.fix({ ...request(), apply: false });
  if (!('ok' in answer)) throw new Error(answer.message);
  return answer.ok.hash;
}

describe('the race with Claude Code', () => {
  it('refuses with 409 when MEMORY.md changed since the preview, and leaves the new bytes alone', async () => {
    const care = make();
    const hash = await preview(care);
    // Claude Code saves a memory meanwhile.
    const theirs = `${INDEX}${indexLine('New', 'new.md', 'just saved')}\n`;
    await writeFile(path.join(p.dir, 'MEMORY.md'), theirs);
    const answer = await care.fix({ ...request(), hash, apply: true });
    expect(answer).toMatchObject({ status: 409 });
    expect(await read('MEMORY.md')).toBe(theirs);
    expect(await undoRecords()).toEqual([]);
    // A new preview shows the change against their bytes, and applies.
    const again = await preview(care);
    expect(again).not.toBe(hash);
    expect(await care.fix({ ...request(), hash: again, apply: true })).toMatchObject({ ok: { applied: true } });
    expect(await read('MEMORY.md')).toBe(`${theirs}- [orphan](orphan.md) — Not in the index\n`);
  });

  it('refuses with 409 when a file the fix only reads changed (the topic whose description it copies)', async () => {
    const care = make();
    const hash = await preview(care);
    await write(path.join(p.dir, 'orphan.md'), topic('orphan', 'Reworded since'));
    expect(await care.fix({ ...request(), hash, apply: true })).toMatchObject({ status: 409 });
    expect(await read('MEMORY.md')).toBe(INDEX);
  });

  it('needs the hash of a preview to apply', async () => {
    expect(await make().fix({ ...request(), apply: true })).toMatchObject({ status: 400 });
    expect(await read('MEMORY.md')).toBe(INDEX);
  });
});

describe('undo', () => {
  it('restores the previous bytes once; a second undo finds nothing', async () => {
    const care = make();
    const applied = await care.fix({ ...request(), hash: await preview(care), apply: true });
    if (!('ok' in applied)) throw new Error(applied.message);
    expect(await read('MEMORY.md')).not.toBe(INDEX);
    expect(await undoRecords()).toHaveLength(1);
    expect(await care.undoFix(applied.ok.undoId!)).toEqual({ ok: { undone: true, files: ['MEMORY.md'], addToIndex: null } });
    expect(await read('MEMORY.md')).toBe(INDEX);
    expect(await care.undoFix(applied.ok.undoId!)).toMatchObject({ status: 404 });
  });

  it('refuses with 409 when the file changed since the fix, and changes nothing', async () => {
    const care = make();
    const applied = await care.fix({ ...request(), hash: await preview(care), apply: true });
    if (!('ok' in applied)) throw new Error(applied.message);
    const later = `${await read('MEMORY.md')}${indexLine('Later', 'later.md', 'saved after the fix')}\n`;
    await writeFile(path.join(p.dir, 'MEMORY.md'), later);
    expect(await care.undoFix(applied.ok.undoId!)).toMatchObject({ status: 409 });
    expect(await read('MEMORY.md')).toBe(later);
  });

  it('takes only ids it made: anything else names no record', async () => {
    const care = make();
    for (const id of ['../../etc/passwd', '', 'x'.repeat(24), `${'a'.repeat(24)}/../b`]) {
      expect(await care.undoFix(id)).toMatchObject({ status: 404 });
    }
  });
});

describe('read-only', () => {
  it('--read-only previews but never writes or undoes', async () => {
    const care = make({ readOnly: true });
    const hash = await preview(care);
    expect(await care.fix({ ...request(), hash, apply: true })).toEqual({ status: 403, message: 'Forbidden: the viewer runs with --read-only' });
    expect(await care.undoFix('a'.repeat(24))).toMatchObject({ status: 403 });
    expect(await read('MEMORY.md')).toBe(INDEX);
    expect((await care.health()).readOnly).toBe(true);
  });

  it('without a folder for undo records nothing is written either', async () => {
    const care = make({ careDir: null });
    expect(await care.fix({ ...request(), hash: await preview(care), apply: true })).toMatchObject({ status: 403 });
    expect(await read('MEMORY.md')).toBe(INDEX);
  });
});

describe('nothing written outside the memory folder', () => {
  it('a file the listing does not hold is not found; a topic swapped for a link out of the folder is refused', async () => {
    const care = make();
    for (const file of ['../../../outside.md', '/etc/passwd', 'missing.md']) {
      expect(await care.fix({ sourceId: p.info.key, kind: 'quote-value', file, target: 'description', apply: false })).toMatchObject({ status: 404 });
    }
    const outside = path.join(t.root, 'outside.md');
    const victim = topic('victim', '', { rawDescription: 'Outside #1 file' });
    await writeFile(outside, victim);
    await files(p.dir, { 'MEMORY.md': `${INDEX}${indexLine('Cut', 'cut.md', 'h')}\n`, 'cut.md': topic('cut', '', { rawDescription: 'Epic #1 file' }) });
    const care2 = make();
    const previewed = await care2.fix({ sourceId: p.info.key, kind: 'quote-value', file: 'cut.md', target: 'description', apply: false });
    if (!('ok' in previewed)) throw new Error(previewed.message);
    await rm(path.join(p.dir, 'cut.md'));
    await symlink(outside, path.join(p.dir, 'cut.md'));
    const answer = await care2.fix({ sourceId: p.info.key, kind: 'quote-value', file: 'cut.md', target: 'description', hash: previewed.ok.hash, apply: true });
    expect(answer).toMatchObject({ status: 404 });
    expect(await readFile(outside, 'utf8')).toBe(victim);
  });
});

describe('resolveInside', () => {
  it('refuses names that climb out, dot-folders, non-markdown files, and symlinks whose target leaves the folder', async () => {
    const { UnsafePath, resolveInside } = await import('../../../src/domain/memory/care/writer.js');
    await writeFile(path.join(t.root, 'secret.md'), 'x');
    await symlink(path.join(t.root, 'secret.md'), path.join(p.dir, 'escape.md'));
    await symlink(path.join(p.dir, 'keep.md'), path.join(p.dir, 'alias.md'));
    for (const rel of ['../secret.md', 'a/../../secret.md', '.hidden/x.md', 'notes.txt', '', 'escape.md', 'a\\b.md', '/abs.md']) {
      expect(() => resolveInside(p.dir, rel), rel).toThrow(UnsafePath);
    }
    expect(resolveInside(p.dir, 'alias.md')).toEqual({
      real: path.join(p.dir, 'keep.md'), name: path.join(p.dir, 'alias.md'), root: p.dir, exists: true, link: path.join(p.dir, 'keep.md'), viaLinkedFolder: false,
    });
    expect(resolveInside(p.dir, 'new.md')).toEqual({
      real: path.join(p.dir, 'new.md'), name: path.join(p.dir, 'new.md'), root: p.dir, exists: false, link: null, viaLinkedFolder: false,
    });
    // A topic name used as a folder, names longer than a file system takes: refused as names, not read.
    for (const rel of ['keep.md/y.md', `${'n'.repeat(256)}.md`, `${'n'.repeat(4097)}.md`]) {
      expect(() => resolveInside(p.dir, rel), rel.slice(0, 20)).toThrow(UnsafePath);
    }
  });
});

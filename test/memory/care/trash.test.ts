// The trash of removed topics: restoring one brings its file back whatever happened to the other files
// since (Claude Code rewrites MEMORY.md all the time); its index line comes back with the undo only while
// MEMORY.md is as the fix left it, else through the add-to-index fix, previewed like any other. The undo
// records are bounded (newest kept), and the trash is listed from a small index of them, rebuilt from the
// records when it is missing, damaged or out of step.
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryCare } from '../../../src/domain/memory/care/memoryCare.js';
import { MAX_UNDO_RECORDS, UndoStore, type UndoRecord } from '../../../src/domain/memory/care/undoStore.js';
import { MemoryStore } from '../../../src/domain/memory/memoryStore.js';
import { type TempHome, tempHome } from '../helpers.js';
import { type Project, files, gitProject, indexLine, topic } from './homes.js';

let t: TempHome;
let p: Project;
let store: MemoryStore;
let care: MemoryCare;
const careDir = () => path.join(t.root, 'care');
const undoDir = () => path.join(careDir(), 'undo');
const read = (file: string) => readFile(path.join(p.dir, file), 'utf8');

const INDEX = `${indexLine('Keep', 'keep.md', 'kept')}\n${indexLine('Old', 'old.md', 'forgotten')}\n`;
const OLD = topic('old', 'Written long ago');

beforeEach(async () => {
  t = await tempHome();
  p = await gitProject(t, 'webapp');
  store = new MemoryStore({ claudeDir: t.claude, homeDir: t.home, projects: () => [p.info] });
  care = new MemoryCare({ store, careDir: careDir(), readOnly: false, sessionKnown: () => false, changed: () => store.invalidate() });
  await files(p.dir, { 'MEMORY.md': INDEX, 'keep.md': topic('keep', 'Keep me'), 'old.md': OLD });
});
afterEach(async () => {
  await t.cleanup();
});

async function trashOld(): Promise<string> {
  const request = { sourceId: p.info.key, kind: 'trash-topic' as const, file: 'old.md', target: null };
  const preview = await care.fix({ ...request, apply: false });
  if (!('ok' in preview)) throw new Error(preview.message);
  const applied = await care.fix({ ...request, hash: preview.ok.hash, apply: true });
  if (!('ok' in applied)) throw new Error(applied.message);
  return applied.ok.undoId!;
}

describe('restoring a trashed topic', () => {
  it('brings the topic back after Claude Code appended to MEMORY.md, and points at add-to-index for its line', async () => {
    const undoId = await trashOld();
    const kept = indexLine('Keep', 'keep.md', 'kept');
    expect(await read('MEMORY.md')).toBe(`${kept}\n`);
    // Claude Code saves a new memory meanwhile.
    const appended = `${kept}\n${indexLine('New', 'new.md', 'saved since')}\n`;
    await writeFile(path.join(p.dir, 'MEMORY.md'), appended);

    const restored = await care.undoFix(undoId);
    expect(restored).toEqual({ ok: { undone: true, files: ['old.md'], addToIndex: { sourceId: p.info.key, file: 'old.md' } } });
    expect(await read('old.md')).toBe(OLD);
    expect(await read('MEMORY.md')).toBe(appended);
    expect(care.trash().items).toEqual([]);

    // The line comes back as a fix of its own: previewed, then applied.
    const request = { sourceId: p.info.key, kind: 'add-to-index' as const, file: 'old.md', target: null };
    const preview = await care.fix({ ...request, apply: false });
    if (!('ok' in preview)) throw new Error(preview.message);
    expect(preview.ok.diff).toContain('+- [old](old.md) — Written long ago\n');
    expect(await care.fix({ ...request, hash: preview.ok.hash, apply: true })).toMatchObject({ ok: { applied: true } });
    expect(await read('MEMORY.md')).toBe(`${appended}- [old](old.md) — Written long ago\n`);
  });

  it('puts the index line back with the topic while MEMORY.md is as the fix left it', async () => {
    const undoId = await trashOld();
    expect(await care.undoFix(undoId)).toEqual({ ok: { undone: true, files: ['MEMORY.md', 'old.md'], addToIndex: null } });
    expect(await read('MEMORY.md')).toBe(INDEX);
    expect(await read('old.md')).toBe(OLD);
  });

  it('refuses with a plain 409 when a file of that name exists now, and changes nothing', async () => {
    const undoId = await trashOld();
    await writeFile(path.join(p.dir, 'old.md'), 'a new old.md\n');
    const answer = await care.undoFix(undoId);
    expect(answer).toEqual({
      status: 409, message: 'Conflict: a file named old.md exists in that memory folder now; move it away to restore the trashed one',
    });
    expect(await read('old.md')).toBe('a new old.md\n');
    expect(care.trash().items.map((i) => i.undoId)).toEqual([undoId]);
  });
});

describe('the undo records', () => {
  const record = (i: number): UndoRecord => ({
    id: i.toString(16).padStart(24, '0'), created: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), sourceId: 's', dir: p.dir,
    kind: 'trash-topic', file: `t${i}.md`, changes: [{ file: `t${i}.md`, before: Buffer.from(`topic ${i}\n`).toString('base64'), after: null }],
  });

  it(`keeps the newest ${MAX_UNDO_RECORDS}, dropping the oldest`, async () => {
    const undo = new UndoStore(careDir());
    for (let i = 1; i <= MAX_UNDO_RECORDS + 5; i++) undo.save(record(i));
    const names = (await readdir(undoDir())).filter((n) => /^[0-9a-f]{24}\.json$/.test(n));
    expect(names).toHaveLength(MAX_UNDO_RECORDS);
    expect(undo.load(record(5).id)).toBeNull();
    expect(undo.load(record(6).id)).not.toBeNull();
    expect(undo.list()).toHaveLength(MAX_UNDO_RECORDS);
    expect(undo.list()[0]!.id).toBe(record(MAX_UNDO_RECORDS + 5).id);
  });

  it('keeps an index of them (no record bytes in it), and rebuilds it when it is missing, damaged or out of step', async () => {
    const undo = new UndoStore(careDir());
    for (let i = 1; i <= 3; i++) undo.save(record(i));
    const expected = [3, 2, 1].map((i) => ({
      id: record(i).id, created: record(i).created, kind: 'trash-topic', sourceId: 's', dir: p.dir, file: `t${i}.md`,
    }));
    const index = JSON.parse(await readFile(path.join(undoDir(), 'index.json'), 'utf8')) as { entries: unknown[] };
    expect(index.entries).toHaveLength(3);
    expect(JSON.stringify(index)).not.toContain(record(1).changes[0]!.before!);
    expect(undo.list()).toEqual(expected);

    for (const damage of ['', 'not json', '{"entries":[{"id":"../../etc/passwd","created":"x"}]}', '{"__proto__":{"x":1},"entries":{}}']) {
      await writeFile(path.join(undoDir(), 'index.json'), damage);
      expect(new UndoStore(careDir()).list(), damage).toEqual(expected);
    }
    await rm(path.join(undoDir(), 'index.json'));
    expect(new UndoStore(careDir()).list()).toEqual(expected);
    // A record removed behind its back, and one added by another viewer: the listing follows the folder.
    await rm(path.join(undoDir(), `${record(2).id}.json`));
    new UndoStore(careDir()).save(record(4));
    expect(undo.list().map((e) => e.file)).toEqual(['t4.md', 't3.md', 't1.md']);
  });
});

// The list of recent fixes, read from the undo records on disk: it outlives the service (a new one on the
// same cache folder lists and undoes them), says whether each can still be undone and why not in words a
// person understands, and the refusals of undo and apply say the same, naming the file.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECENT_FIXES } from '../../../src/contract/memoryCare.js';
import { MemoryCare } from '../../../src/domain/memory/care/memoryCare.js';
import { MemoryStore } from '../../../src/domain/memory/memoryStore.js';
import { type TempHome, tempHome } from '../helpers.js';
import { type Project, files, gitProject, indexLine, topic } from './homes.js';

let t: TempHome;
let p: Project;
let store: MemoryStore;
const make = (o: { readOnly?: boolean } = {}) => new MemoryCare({
  store, careDir: path.join(t.root, 'care'), readOnly: o.readOnly ?? false, sessionKnown: () => false, changed: () => store.invalidate(),
});

const index = () => readFile(path.join(p.dir, 'MEMORY.md'), 'utf8');
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

async function applied(care: MemoryCare, kind: 'add-to-index' | 'trash-topic', file: string): Promise<string> {
  const request = { sourceId: p.info.key, kind, file, target: null };
  const preview = await care.fix({ ...request, apply: false });
  if (!('ok' in preview)) throw new Error(preview.message);
  const done = await care.fix({ ...request, hash: preview.ok.hash, apply: true });
  if (!('ok' in done)) throw new Error(done.message);
  return done.ok.undoId!;
}

describe('recent fixes', () => {
  it('are listed newest first after the service restarts, and undone from the list', async () => {
    let now = Date.parse('2026-11-01T10:00:00Z');
    const first = new MemoryCare({
      store, careDir: path.join(t.root, 'care'), readOnly: false, sessionKnown: () => false, changed: () => store.invalidate(), now: () => now,
    });
    const added = await applied(first, 'add-to-index', 'orphan.md');
    now += 60_000;
    const trashed = await applied(first, 'trash-topic', 'keep.md');

    // A new service on the same cache folder: the page reloaded, the viewer restarted.
    const second = make();
    const list = await second.recentFixes();
    expect(list.readOnly).toBe(false);
    expect(list.items).toEqual([
      {
        undoId: trashed, kind: 'trash-topic', all: null, sourceId: p.info.key, dir: p.dir, file: 'keep.md', files: ['MEMORY.md', 'keep.md'],
        applied: '2026-11-01T10:01:00.000Z', undoable: true, reason: null,
      },
      {
        undoId: added, kind: 'add-to-index', all: null, sourceId: p.info.key, dir: p.dir, file: 'orphan.md', files: ['MEMORY.md'],
        // The trash took keep.md's line out of MEMORY.md since.
        applied: '2026-11-01T10:00:00.000Z', undoable: false, reason: 'MEMORY.md changed since this fix; undo would overwrite that change',
      },
    ]);
    expect(await second.undoFix(trashed)).toMatchObject({ ok: { undone: true } });
    expect((await second.recentFixes()).items).toMatchObject([{ undoId: added, undoable: true, reason: null }]);
    expect(await second.undoFix(added)).toMatchObject({ ok: { undone: true } });
    expect(await index()).toBe(INDEX);
    expect((await make().recentFixes()).items).toEqual([]);
  });

  it('say in words why one cannot be undone, as the undo refuses it', async () => {
    const care = make();
    const id = await applied(care, 'add-to-index', 'orphan.md');
    await writeFile(path.join(p.dir, 'MEMORY.md'), `${await index()}${indexLine('Later', 'later.md', 'saved since')}\n`);
    const reason = 'MEMORY.md changed since this fix; undo would overwrite that change';
    expect((await make().recentFixes()).items).toMatchObject([{ undoId: id, undoable: false, reason }]);
    expect(await care.undoFix(id)).toEqual({ status: 409, message: `Conflict: ${reason}` });
  });

  it('say a trashed topic cannot come back while another file has its name', async () => {
    const care = make();
    const id = await applied(care, 'trash-topic', 'orphan.md');
    await writeFile(path.join(p.dir, 'orphan.md'), '# Another orphan\n');
    const [item] = (await care.recentFixes()).items;
    expect(item).toMatchObject({ undoId: id, undoable: false });
    expect(item!.reason).toBe('a file named orphan.md exists in that memory folder now; move it away to restore the trashed one');
    expect(await care.undoFix(id)).toEqual({ status: 409, message: `Conflict: ${item!.reason!}` });
  });

  it(`keep the newest ${RECENT_FIXES}, and only the project asked for`, async () => {
    const care = make();
    const names = Array.from({ length: RECENT_FIXES + 2 }, (_, i) => `orphan-${String(i).padStart(2, '0')}.md`);
    await files(p.dir, Object.fromEntries(names.map((n) => [n, topic(n.slice(0, -3), `Orphan ${n}`)])));
    const ids: string[] = [];
    for (const name of names) ids.push(await applied(care, 'add-to-index', name));
    const list = await care.recentFixes();
    expect(list.items).toHaveLength(RECENT_FIXES);
    // Newest first: the last fix first; only the last one leaves MEMORY.md as it was written.
    expect(list.items.map((i) => i.file)).toEqual(names.slice(-RECENT_FIXES).reverse());
    expect(list.items.map((i) => i.undoId)).toEqual(ids.slice(-RECENT_FIXES).reverse());
    expect(list.items[0]).toMatchObject({ undoable: true, reason: null });
    expect(list.items[1]).toMatchObject({ undoable: false, reason: 'MEMORY.md changed since this fix; undo would overwrite that change' });
    expect((await care.recentFixes('WEBAPP')).items).toHaveLength(RECENT_FIXES);
    expect((await care.recentFixes('elsewhere')).items).toEqual([]);
  });

  it('are listed in a read-only run, which says it cannot undo', async () => {
    const id = await applied(make(), 'add-to-index', 'orphan.md');
    const list = await make({ readOnly: true }).recentFixes();
    expect(list).toMatchObject({ readOnly: true, readOnlyReason: 'the viewer runs with --read-only', items: [{ undoId: id, undoable: true }] });
  });
});

describe('a refused apply', () => {
  it('names the file that changed since the preview', async () => {
    const care = make();
    const request = { sourceId: p.info.key, kind: 'add-to-index' as const, file: 'orphan.md', target: null };
    const preview = await care.fix({ ...request, apply: false });
    if (!('ok' in preview)) throw new Error(preview.message);
    const theirs = `${INDEX}${indexLine('New', 'new.md', 'just saved')}\n`;
    await writeFile(path.join(p.dir, 'MEMORY.md'), theirs);
    expect(await care.fix({ ...request, hash: preview.ok.hash, apply: true })).toEqual({
      status: 409,
      message: 'Conflict: MEMORY.md changed since the preview; applying it would overwrite that change. Nothing was written; look at the new preview',
    });
    // A service that did not make the preview names the files the fix reads.
    const other = await make().fix({ ...request, hash: preview.ok.hash, apply: true });
    expect(other).toMatchObject({ status: 409, message: expect.stringContaining('a file this fix reads (MEMORY.md or orphan.md) changed since the preview') as string });
    expect(await index()).toBe(theirs);
  });
});

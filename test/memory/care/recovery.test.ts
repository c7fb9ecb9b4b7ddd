// What a viewer killed in the middle of a fix leaves, and what the next start does with it: its own
// temporary file in the memory folder goes (never a running Claude Code's), the undo record of a fix that
// never landed goes, and a fix that landed in part is put back whole. And a cache folder that cannot be
// written: health says fixes are unavailable and why, and applying is refused with that reason.
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryCare } from '../../../src/domain/memory/care/memoryCare.js';
import { MemoryStore } from '../../../src/domain/memory/memoryStore.js';
import { type TempHome, tempHome } from '../helpers.js';
import { type Project, files, gitProject, indexLine, topic } from './homes.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CHILD = path.join(import.meta.dirname, 'children', 'killedFix.ts');

let t: TempHome;
let p: Project;
let store: MemoryStore;
const careDir = () => path.join(t.root, 'care');
const read = (file: string) => readFile(path.join(p.dir, file), 'utf8');
const make = (o: { careDir?: string; readOnly?: boolean } = {}) =>
  new MemoryCare({ store, careDir: o.careDir ?? careDir(), readOnly: o.readOnly ?? false, sessionKnown: () => false, changed: () => store.invalidate() });
const undoRecords = async () => (await readdir(path.join(careDir(), 'undo')).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{24}\.json$/.test(n));
const temps = async () => (await readdir(p.dir)).filter((n) => n.includes('.tmp.')).sort();

const INDEX = `${indexLine('Keep', 'keep.md', 'kept')}\n${indexLine('Old', 'old.md', 'forgotten')}\n`;
const ORPHAN = topic('orphan', 'Not in the index');

beforeEach(async () => {
  t = await tempHome();
  p = await gitProject(t, 'webapp');
  store = new MemoryStore({ claudeDir: t.claude, homeDir: t.home, projects: () => [p.info] });
  await files(p.dir, { 'MEMORY.md': INDEX, 'keep.md': topic('keep', 'Keep me'), 'old.md': topic('old', 'Old'), 'orphan.md': ORPHAN });
});
afterEach(async () => {
  await chmod(careDir(), 0o700).catch(() => undefined);
  await t.cleanup();
});

/** Runs a fix in a child viewer process that is SIGKILLed at `killAt`; resolves once it is dead. */
function killedFix(killAt: string, fix: { kind: 'add-to-index' | 'trash-topic'; file: string }): Promise<void> {
  const args = JSON.stringify({
    claudeDir: t.claude, homeDir: t.home, careDir: careDir(), project: p.info, fix: { sourceId: p.info.key, ...fix },
  });
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, args], {
    cwd: ROOT, env: { ...process.env, KILL_AT: killAt }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (output += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the child was not killed: ${output}`))));
  });
}

describe('the next start after a fix was killed', () => {
  it('removes the temporary file and the undo record of a fix that never landed, and leaves Claude Code\'s own', async () => {
    await killedFix('rename:MEMORY.md', { kind: 'add-to-index', file: 'orphan.md' });
    // What the kill left: the fix's temporary file beside MEMORY.md, and its undo record.
    expect(await temps()).toEqual([expect.stringMatching(/^MEMORY\.md\.tmp\.\d+\.[0-9a-f]{12}$/)]);
    expect(await undoRecords()).toHaveLength(1);
    // Claude Code (this live process) is writing a topic right now.
    const inFlight = `keep.md.tmp.${process.pid}.0123456789ab`;
    await writeFile(path.join(p.dir, inFlight), 'half a topic');

    const care = make();
    expect(await temps()).toEqual([inFlight]);
    expect(await undoRecords()).toEqual([]);
    expect(care.trash().items).toEqual([]);
    expect(await read('MEMORY.md')).toBe(INDEX);
    // And fixes work as before.
    const request = { sourceId: p.info.key, kind: 'add-to-index' as const, file: 'orphan.md', target: null };
    const preview = await care.fix({ ...request, apply: false });
    if (!('ok' in preview)) throw new Error(preview.message);
    expect(await care.fix({ ...request, hash: preview.ok.hash, apply: true })).toMatchObject({ ok: { applied: true } });
  });

  it('puts back a fix that landed in part (the index rewritten, the topic not yet removed)', async () => {
    await killedFix('unlink:old.md', { kind: 'trash-topic', file: 'old.md' });
    expect(await read('MEMORY.md')).toBe(`${indexLine('Keep', 'keep.md', 'kept')}\n`);
    expect(await read('old.md')).toBe(topic('old', 'Old'));

    const care = make();
    expect(await read('MEMORY.md')).toBe(INDEX);
    expect(await read('old.md')).toBe(topic('old', 'Old'));
    expect(await undoRecords()).toEqual([]);
    expect(care.trash().items).toEqual([]);
    expect(await temps()).toEqual([]);
  });

  it('keeps the undo record of a fix that landed whole before its process ended', async () => {
    // No call is named: the fix completes and the child ends by itself, before any start after it.
    await killedFix('unlink:never-named.md', { kind: 'trash-topic', file: 'old.md' }).catch(() => undefined);
    expect(await temps()).toEqual([]);
    const care = make();
    expect(care.trash().items.map((i) => i.file)).toEqual(['old.md']);
  });

  it('leaves everything as it is in a read-only run', async () => {
    await killedFix('rename:MEMORY.md', { kind: 'add-to-index', file: 'orphan.md' });
    make({ readOnly: true });
    expect(await temps()).toHaveLength(1);
    expect(await undoRecords()).toHaveLength(1);
  });
});

describe('a cache folder that cannot be written', () => {
  it('makes health say fixes are unavailable and why, and refuses to apply with that reason', async () => {
    // A file where the folder should be: mkdir fails for every user, root included.
    await writeFile(path.join(t.root, 'blocked'), 'not a folder');
    const care = make({ careDir: path.join(t.root, 'blocked', 'care') });
    const health = await care.health();
    expect(health.readOnly).toBe(true);
    expect(health.readOnlyReason).toMatch(/^the cache folder .*blocked\/care cannot be written \(ENOTDIR/);
    const request = { sourceId: p.info.key, kind: 'add-to-index' as const, file: 'orphan.md', target: null };
    const preview = await care.fix({ ...request, apply: false });
    if (!('ok' in preview)) throw new Error(preview.message);
    const applied = await care.fix({ ...request, hash: preview.ok.hash, apply: true });
    expect(applied).toEqual({ status: 403, message: `Forbidden: fixes are unavailable: ${health.readOnlyReason}` });
    expect(await read('MEMORY.md')).toBe(INDEX);
  });

  it('says so for --read-only and for no cache folder, and nothing when fixes can be applied', async () => {
    expect(await make({ readOnly: true }).health()).toMatchObject({ readOnly: true, readOnlyReason: 'the viewer runs with --read-only' });
    const care = new MemoryCare({ store, careDir: null, readOnly: false, sessionKnown: () => false, changed: () => undefined });
    expect(await care.health()).toMatchObject({ readOnly: true, readOnlyReason: 'no cache folder to keep undo records in' });
    await mkdir(careDir(), { recursive: true });
    expect(await make().health()).toMatchObject({ readOnly: false, readOnlyReason: null });
  });
});

// A restart lists only the directories that moved since the index was saved: an unmoved directory's
// entries come from what the index knows, a moved one (or one changed just before it was listed) is
// listed again, and a restored index finds what changed while the viewer was not running.
import { readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverLogs, type DirStamp, type KnownDirs } from '../../src/domain/sessions/logFiles.js';
import { restoredIsCurrent, type RestoredStamps } from '../../src/domain/sessions/restoredCheck.js';
import { ScanWorkers, spawnScanWorker } from '../../src/domain/sessions/scanWorkers.js';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { silentLogger } from '../../src/domain/types.js';
import { conversationLine, SID_A, SID_B, SID_C, tempHome, type TempHome } from './helpers.js';

const FOLDER = '-home-u-webapp';
const CWD = '/home/u/webapp';
let home: TempHome;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await home.cleanup();
});

/** Sets every directory under (and including) the projects dir an hour back, as if untouched for long. */
async function settleDirs(dir = home.projectsDir): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isDirectory()) await settleDirs(path.join(dir, entry.name));
  const past = new Date(Date.now() - 3_600_000);
  await utimes(dir, past, past);
}

async function walk(known?: KnownDirs): Promise<{ files: string[]; folders: string[]; record: Map<string, DirStamp> }> {
  const record = new Map<string, DirStamp>();
  const found = await discoverLogs(home.projectsDir, [], () => undefined, known ? { record, known } : { record });
  return { files: [...found.files].sort(), folders: [...found.folders].sort(), record };
}

describe('walking with the stamps of an earlier walk', () => {
  it('takes an unmoved directory from memory and lists a moved one again', async () => {
    const log = await home.write(`${FOLDER}/${SID_A}.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD }));
    const sub = await home.write(`${FOLDER}/${SID_A}/subagents/agent-a1.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD }));
    await home.folder('-home-u-empty');
    await settleDirs();
    const first = await walk();
    expect(first.files).toEqual([log, sub].sort());
    // The projects dir, both folders, the session dir and its subagents dir.
    expect(first.record.size).toBe(5);

    // What the index claims a directory holds is believed while the directory has not moved: a listing
    // from memory shows up as the log that is not on disk.
    const folderDir = path.join(home.projectsDir, FOLDER);
    const imagined = path.join(folderDir, `${SID_B}.jsonl`);
    const children = new Map([
      [home.projectsDir, { dirs: [FOLDER, '-home-u-empty'], files: [] }],
      [folderDir, { dirs: [SID_A], files: [log, imagined] }],
      [path.join(folderDir, SID_A), { dirs: ['subagents'], files: [] }],
      [path.join(folderDir, SID_A, 'subagents'), { dirs: [], files: [sub] }],
    ]);
    const fromMemory = await walk({ stamps: first.record, children });
    expect(fromMemory.files).toEqual([log, imagined, sub].sort());
    expect(fromMemory.folders).toEqual(['-home-u-empty', FOLDER]);
    expect(fromMemory.record).toEqual(first.record);

    // A log added since moves its directory: that directory is listed again (the imagined one goes).
    const added = await home.write(`${FOLDER}/${SID_C}.jsonl`, conversationLine({ sessionId: SID_C, cwd: CWD }));
    const moved = await walk({ stamps: first.record, children });
    expect(moved.files).toEqual([log, added, sub].sort());
    expect(moved.record.get(folderDir)?.mtimeMs).not.toBe(first.record.get(folderDir)?.mtimeMs);
  });

  it('lists again a directory replaced by another with the same mtime', async () => {
    const log = await home.write(`${FOLDER}/${SID_A}.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD }));
    await settleDirs();
    const first = await walk();
    const folderDir = path.join(home.projectsDir, FOLDER);
    await rename(folderDir, path.join(home.root, 'old-folder'));
    const replacement = await home.write(`${FOLDER}/${SID_B}.jsonl`, conversationLine({ sessionId: SID_B, cwd: CWD }));
    const stamp = first.record.get(folderDir)!;
    await utimes(folderDir, new Date(stamp.mtimeMs), new Date(stamp.mtimeMs));
    const children = new Map([
      [home.projectsDir, { dirs: [FOLDER], files: [] }],
      [folderDir, { dirs: [], files: [log] }],
    ]);
    expect((await walk({ stamps: first.record, children })).files).toEqual([replacement]);
  });

  it('lists again a directory that had changed just before its last listing', async () => {
    const log = await home.write(`${FOLDER}/${SID_A}.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD }));
    // Not settled: the directories were written a moment ago, so their listing may not be the last word.
    const first = await walk();
    const folderDir = path.join(home.projectsDir, FOLDER);
    const children = new Map([
      [home.projectsDir, { dirs: [FOLDER], files: [] }],
      [folderDir, { dirs: [], files: [log, path.join(folderDir, `${SID_B}.jsonl`)] }],
    ]);
    expect((await walk({ stamps: first.record, children })).files).toEqual([log]);
  });
});

describe('a restored index', () => {
  it('keeps the stamps across a restart and finds a log written while it was not running', async () => {
    await home.write(`${FOLDER}/${SID_A}.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'first-plan' }));
    await settleDirs();
    const index = new SessionIndex({ projectsDir: home.projectsDir });
    await index.refresh();
    const saved = JSON.parse(JSON.stringify(index.toJSON())) as { dirs: unknown[] };
    expect(saved.dirs.length).toBe(2 * 4);

    await home.write(`${FOLDER}/${SID_B}.jsonl`, conversationLine({ sessionId: SID_B, cwd: CWD, slug: 'later-plan' }));
    const restored = SessionIndex.fromJSON(saved, { projectsDir: home.projectsDir })!;
    expect(await restored.refresh()).toBe(true);
    expect(restored.linkForPlan('later-plan.md')).toEqual({ sessionId: SID_B, cwd: CWD });
    expect(restored.linkForPlan('first-plan.md')).toEqual({ sessionId: SID_A, cwd: CWD });
  });
});

describe('confirming a restored index without a walk', () => {
  const LOG_TIME = new Date('2026-01-01T00:00:00Z');
  async function savedIndex(): Promise<{ folders: string[]; files: unknown[]; dirs: unknown[] }> {
    const log = await home.write(`${FOLDER}/${SID_A}.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'first-plan' }));
    // A whole second, which a replacement can be given exactly.
    await utimes(log, LOG_TIME, LOG_TIME);
    await home.write(`${FOLDER}/${SID_A}/subagents/agent-a1.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD }));
    await home.folder('-home-u-empty');
    await settleDirs();
    const index = new SessionIndex({ projectsDir: home.projectsDir });
    await index.refresh();
    return JSON.parse(JSON.stringify(index.toJSON())) as { folders: string[]; files: unknown[]; dirs: unknown[] };
  }
  const confirm = (saved: unknown): Promise<boolean> => SessionIndex.fromJSON(saved, { projectsDir: home.projectsDir })!.confirmRestored();

  it('holds for an unmoved tree, once, and not for an index that was not restored', async () => {
    const saved = await savedIndex();
    const restored = SessionIndex.fromJSON(saved, { projectsDir: home.projectsDir })!;
    expect(await restored.confirmRestored()).toBe(true);
    // After it the index is current: a later refresh is a full one, as after a first refresh.
    expect(await restored.confirmRestored()).toBe(false);
    expect(await new SessionIndex({ projectsDir: home.projectsDir }).confirmRestored()).toBe(false);
  });

  it('fails for a log replaced by one of the same size and mtime, and for a vanished directory', async () => {
    const saved = await savedIndex();
    const log = path.join(home.projectsDir, FOLDER, `${SID_A}.jsonl`);
    const { size } = await stat(log);
    const mtime = LOG_TIME;
    // Its folder keeps its mtime, as if the replacement had left it unchanged: only the inode tells.
    const folderDir = path.dirname(log);
    const folder = await stat(folderDir);
    await rename(log, path.join(home.root, 'old.jsonl'));
    await writeFile(log, Buffer.alloc(size, 0x20));
    await utimes(log, mtime, mtime);
    await utimes(folderDir, folder.atime, folder.mtime);
    expect(await confirm(saved)).toBe(false);
    await rm(log);
    await rename(path.join(home.root, 'old.jsonl'), log);
    await utimes(log, mtime, mtime);
    await settleDirs();
    // Settling moved the directories' mtimes: a fresh save, then a directory goes.
    const again = await (async () => {
      const index = new SessionIndex({ projectsDir: home.projectsDir });
      await index.refresh();
      return JSON.parse(JSON.stringify(index.toJSON())) as unknown;
    })();
    expect(await confirm(again)).toBe(true);
    // The projects dir keeps its mtime, as if the removal had left it unchanged: only the gone one tells.
    const parent = await stat(home.projectsDir);
    await rm(path.join(home.projectsDir, '-home-u-empty'), { recursive: true });
    await utimes(home.projectsDir, parent.atime, parent.mtime);
    expect(await confirm(again)).toBe(false);
  });

  it('holds after a first scan by worker threads, which stamp what they walk as a main-thread walk does', async () => {
    await savedIndex();
    const mainThread = new SessionIndex({ projectsDir: home.projectsDir });
    await mainThread.refresh();
    const workers = new ScanWorkers(silentLogger, 1, spawnScanWorker, false);
    try {
      const inWorkers = new SessionIndex({ projectsDir: home.projectsDir, workers, workerThresholdBytes: 0 });
      await inWorkers.refresh();
      expect(workers.filesRead).toBe(2);
      const saved = JSON.parse(JSON.stringify(inWorkers.toJSON())) as { dirs: unknown[] };
      // The same directories with the same stamps (the time each was listed aside).
      const stamps = (dirs: unknown[]): unknown[] => dirs.filter((_, i) => i % 4 !== 3);
      expect(stamps(saved.dirs)).toEqual(stamps((mainThread.toJSON() as { dirs: unknown[] }).dirs));
      expect(await confirm(saved)).toBe(true);
    } finally {
      await workers.close();
    }
  });

  it('gives the same answer on a worker thread as on this one', async () => {
    const saved = await savedIndex() as { dirs: (string | number)[]; files: (string | number)[]; folders: string[] };
    const restored = SessionIndex.fromJSON(saved, { projectsDir: home.projectsDir })!;
    const stampsOf = (index: SessionIndex): RestoredStamps => {
      const state = index as unknown as { dirStamps: Map<string, DirStamp>; folders: Map<string, string>; files: Map<string, { log: { size: number; mtimeMs: number; ino: number } }> };
      return {
        projectsDir: home.projectsDir, dirs: [...state.dirStamps], folders: [...state.folders.values()],
        logs: [...state.files].map(([abs, { log }]) => [abs, { size: log.size, mtimeMs: log.mtimeMs, ino: log.ino }]),
      };
    };
    const stamps = stampsOf(restored);
    expect(stamps.logs).toHaveLength(2);
    const workers = new ScanWorkers(silentLogger, 1, spawnScanWorker, false);
    try {
      expect(await workers.confirm(stamps)).toBe(true);
      expect(restoredIsCurrent(stamps)).toBe(true);
      // A log that grew since: both say so.
      await writeFile(stamps.logs[0]![0], '\n', { flag: 'a' });
      expect(await workers.confirm(stamps)).toBe(false);
      expect(restoredIsCurrent(stamps)).toBe(false);
    } finally {
      await workers.close();
    }
  });

  it('fails when the saved folders are not the stamped project folders', async () => {
    const saved = await savedIndex();
    expect(await confirm({ ...saved, folders: [...saved.folders, '-home-u-elsewhere'] })).toBe(false);
    expect(await confirm({ ...saved, folders: saved.folders.filter((f) => f !== '-home-u-empty') })).toBe(false);
    expect(await confirm({ ...saved, folders: saved.folders.map((f) => (f === '-home-u-empty' ? '-home-u-other' : f)) })).toBe(false);
  });
});

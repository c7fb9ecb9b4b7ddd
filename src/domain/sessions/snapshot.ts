// The persisted form of the session index: per-file state with read offsets, so a restart reads only
// what was appended since. Input is untrusted (a stale, corrupt or foreign cache): anything off -> null.
//
// It is flat, because reading it back is on the path of every restart: every cwd, sessionId and slug once
// in `strings`, and each file as a run of values in `files` that point into it (one object per file and
// pair restored several times slower). It keeps the stamp of each directory the last walk listed, so a
// restart lists only those that moved (see WalkMemory in logFiles.ts), and each log's other facts as the
// extractors save them (savedFacts.ts): a change to what they save is a new VERSION.
import path from 'node:path';
import { TimeSlicer } from '../timeSlicer.js';
import { viewOrder, type TrackedFile } from './indexView.js';
import { isCwd, isSessionId, isSlug } from './values.js';
import { isFolderName, isLogSegments, mayContainLogs, relativeSegments, UUID, type DirStamp } from './logFiles.js';
import type { CwdRank, LinkFacts } from '../transcripts/logFacts.js';
import { restoredFacts, saveRest, textInParts, type SavedText } from '../transcripts/savedFacts.js';

const FORMAT = 'plan-memory-viewer/session-index';
const VERSION = 6;
/** A view stamp is a short id (SessionIndex.viewStamp()): anything longer is not one of ours. */
const MAX_STAMP_CHARS = 64;

/**
 * Per file, in this order: its path relative to the projects dir (`/`-separated on every platform),
 * size, mtimeMs, ino, offset, lines, the folder's cwd (an index into `strings`, or -1) and its rank, the
 * number of sessions, that many [sessionId, cwd, rank] (indexes into `strings` and a rank), the number of
 * slugs, that many [slug, sessionId] index pairs. The rest of each file's facts is one text of parts in `facts`
 * (transcripts/savedFacts.ts), in the same order, parsed only when something asks for them: the cache file
 * keeps each on a line of its own (indexCache.ts), so that a restart that serves its saved plan list does not
 * even decode them.
 */
export type SnapshotFiles = (string | number)[];

export interface IndexSnapshot {
  format: typeof FORMAT;
  version: typeof VERSION;
  projectsDir: string;
  folders: string[];
  strings: string[];
  files: SnapshotFiles;
  /** Per directory walked: its path relative to the projects dir ('' for itself), mtimeMs, ino, listedAt. */
  dirs: (string | number)[];
  /** The stamp of the index's answers as saved (SessionIndex.viewStamp()); absent in older snapshots. */
  viewStamp?: string;
  /** Each file's other facts, in the order of `files` (see SnapshotFiles). */
  facts: string[];
}

/** The other facts of the i-th file of a snapshot, as saved, decoded when called (null: none). */
export type SavedFactsAt = (i: number) => SavedText | null;

export interface RestoredState {
  folders: Map<string, string>;
  files: Map<string, TrackedFile>;
  dirs: Map<string, DirStamp>;
  viewStamp: string | null;
}

/** What a snapshot holds besides the files: their project folders, the walked directories, the stamp. */
export interface SnapshotState {
  folders: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, TrackedFile>;
  dirStamps: ReadonlyMap<string, DirStamp>;
  viewStamp: string;
}

/** Sorted, so the same index always writes the same file, whichever order it was built in. */
function sortedByKey<V>(map: ReadonlyMap<string, V>): [string, V][] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function writeSnapshot(projectsDir: string, state: SnapshotState): IndexSnapshot {
  const steps = snapshotSteps(projectsDir, state);
  for (let step = steps.next(); ; step = steps.next()) if (step.done === true) return step.value;
}

/**
 * writeSnapshot() in time slices. The first save after a start runs code that has not warmed up yet: ~40 ms
 * for the bench home's 4,033 logs in one piece. The maps must not change until it resolves.
 */
export async function writeSnapshotInSlices(projectsDir: string, state: SnapshotState): Promise<IndexSnapshot> {
  const slicer = new TimeSlicer();
  const steps = snapshotSteps(projectsDir, state);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return step.value;
    await slicer.maybeYield();
  }
}

/** Builds the snapshot, pausing after every file and directory (see writeSnapshotInSlices). */
function* snapshotSteps(projectsDir: string, { folders, files, dirStamps, viewStamp }: SnapshotState): Generator<void, IndexSnapshot> {
  const strings: string[] = [];
  const indexes = new Map<string, number>();
  const ref = (value: string): number => {
    let index = indexes.get(value);
    if (index === undefined) {
      index = strings.push(value) - 1;
      indexes.set(value, index);
    }
    return index;
  };
  // Relative to the projects dir, `/`-separated on every platform.
  const relative = (abs: string): string => relativeSegments(projectsDir, abs)!.join('/');
  const flat: SnapshotFiles = [];
  const facts: string[] = [];
  // In viewOrder (oldest first): a restart's check (restoredCheck.ts) goes through them newest first.
  for (const [abs, { log }] of [...files].sort(viewOrder)) {
    const { links } = log.facts;
    flat.push(relative(abs), log.size, log.mtimeMs, log.ino, log.offset, log.lines,
      links.folderCwd === null ? -1 : ref(links.folderCwd.cwd), links.folderCwd?.rank ?? 0, links.sessions.size);
    for (const [sessionId, { cwd, rank }] of links.sessions) flat.push(ref(sessionId), ref(cwd), rank);
    flat.push(links.slugs.size);
    for (const [slug, sessionId] of links.slugs) flat.push(ref(slug), ref(sessionId));
    facts.push(saveRest(log.facts));
    yield;
  }
  const dirs: (string | number)[] = [];
  for (const [dir, stamp] of sortedByKey(dirStamps)) {
    dirs.push(relative(dir), stamp.mtimeMs, stamp.ino, stamp.listedAt);
    yield;
  }
  return { format: FORMAT, version: VERSION, projectsDir, folders: [...folders.keys()].sort(), strings, files: flat, dirs, viewStamp, facts };
}

/** Segments of a path the snapshot names, or null unless it is a relative path with plain segments. */
function plainSegments(rel: string): string[] | null {
  const seg = rel.split('/');
  return seg.some((s) => s === '..' || s === '.' || s === '' || s.includes('\\')) ? null : seg;
}

/** The directory stamps, or null when any is malformed (an older snapshot without them has none). */
function readDirs(value: unknown, projectsDir: string): Map<string, DirStamp> | null {
  const dirs = new Map<string, DirStamp>();
  if (value === undefined) return dirs;
  if (!Array.isArray(value) || value.length % 4 !== 0) return null;
  for (let at = 0; at < value.length; at += 4) {
    const rel: unknown = value[at];
    const mtimeMs: unknown = value[at + 1];
    const ino: unknown = value[at + 2];
    const listedAt: unknown = value[at + 3];
    if (typeof rel !== 'string' || !isTime(mtimeMs) || !isInode(ino) || !isTime(listedAt)) return null;
    const abs = dirPath(projectsDir, rel);
    if (abs === null) return null;
    dirs.set(abs, { mtimeMs, ino, listedAt });
  }
  return dirs;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isInode(value: unknown): value is number {
  return isTime(value) && value >= 0;
}

function isRank(value: unknown): value is CwdRank {
  return value === 0 || value === 1 || value === 2;
}

/**
 * A relative path whose segments plainSegments() accepts (no `.`, `..`, separators or empty ones) under
 * the projects dir: the path.join() result without its per-call normalization.
 */
function underProjects(projectsDir: string, rel: string): string {
  return projectsDir + path.sep + (path.sep === '/' ? rel : rel.replaceAll('/', path.sep));
}

// A folder name (isFolderName) as a pattern: not empty, not starting with a dot, no separators.
const FOLDER = '[^/\\\\.][^/\\\\]*';

/** `<folder>/<uuid>.jsonl`, most logs: one match instead of a split and a check per segment. */
const TOP_LEVEL_LOG = new RegExp(`^(${FOLDER})/${UUID}\\.jsonl$`);

/** The absolute path and folder of a log the snapshot names, or null unless `rel` is a log's path. */
export function logPath(projectsDir: string, rel: string): { abs: string; folder: string } | null {
  const top = TOP_LEVEL_LOG.exec(rel);
  if (top !== null) {
    // What plainSegments() and isLogSegments() accept of two segments: a folder name and a session file.
    return { abs: underProjects(projectsDir, rel), folder: top[1]! };
  }
  const seg = plainSegments(rel);
  return seg === null || !isLogSegments(seg) ? null : { abs: underProjects(projectsDir, rel), folder: seg[0]! };
}

/** A folder, a session's directory or its subagents/ directory: most directories the walk records. */
const SHALLOW_DIR = new RegExp(`^${FOLDER}(?:/${UUID}(?:/subagents)?)?$`);

/** The absolute path of a directory the snapshot names, or null unless `rel` is one that may hold logs. */
export function dirPath(projectsDir: string, rel: string): string | null {
  if (rel === '') return projectsDir;
  // What plainSegments() and mayContainLogs() accept of up to three segments of these shapes.
  if (SHALLOW_DIR.test(rel)) return underProjects(projectsDir, rel);
  const seg = plainSegments(rel);
  return seg === null || !mayContainLogs(seg) ? null : underProjects(projectsDir, rel);
}

/** Whether the snapshot is one of ours, only written by an older version (no reason to warn about it). */
export function isOutdatedSnapshot(data: unknown): boolean {
  return isRecord(data) && data.format === FORMAT && typeof data.version === 'number' && data.version < VERSION;
}

/**
 * `strings[i]` when it is a string that `valid` accepts. Each string is checked once per kind of value:
 * `memo` holds 1 (valid) or 2 (not) per index.
 */
function stringAt(strings: readonly unknown[], i: unknown, valid: (s: string) => boolean, memo: Uint8Array): string | null {
  if (typeof i !== 'number' || !(i >= 0 && i < strings.length) || !Number.isInteger(i)) return null;
  const value = strings[i];
  if (typeof value !== 'string') return null;
  if (memo[i] === 0) memo[i] = valid(value) ? 1 : 2;
  return memo[i] === 1 ? value : null;
}

/**
 * The state a snapshot describes, or null when it is not a valid snapshot of this projects dir. Each file's
 * other facts come from the snapshot's `facts`, or from `savedFacts` when it has none (the cache file keeps
 * them apart).
 */
export function readSnapshot(data: unknown, projectsDir: string, savedFacts?: SavedFactsAt): RestoredState | null {
  if (!isRecord(data) || data.format !== FORMAT || data.version !== VERSION) return null;
  if (typeof data.projectsDir !== 'string' || path.resolve(data.projectsDir) !== projectsDir) return null;
  const { folders: folderList, strings, files: flat } = data;
  if (!Array.isArray(folderList) || !Array.isArray(strings) || !Array.isArray(flat)) return null;
  const inline = data.facts;
  if (inline !== undefined && !Array.isArray(inline)) return null;
  const factsAt: SavedFactsAt = inline === undefined ? savedFacts ?? (() => null) : (i) => {
    const text: unknown = inline[i];
    return typeof text === 'string' ? textInParts(text) : null;
  };
  const folders = new Map<string, string>();
  for (const key of folderList as unknown[]) {
    // A folder name has no separator and is not `.` or `..` (isFolderName), as underProjects() needs.
    if (typeof key !== 'string' || !isFolderName(key)) return null;
    if (folders.has(key)) return null;
    folders.set(key, underProjects(projectsDir, key));
  }
  const cwds = new Uint8Array(strings.length);
  const sessionIds = new Uint8Array(strings.length);
  const slugs = new Uint8Array(strings.length);
  const files = new Map<string, TrackedFile>();
  // One loop over the flat values, no object per file to check: this runs once, at start, before the
  // code has warmed up.
  for (let at = 0; at < flat.length; ) {
    const rel: unknown = flat[at];
    const size: unknown = flat[at + 1];
    const mtimeMs: unknown = flat[at + 2];
    const ino: unknown = flat[at + 3];
    const offset: unknown = flat[at + 4];
    const lineCount: unknown = flat[at + 5];
    const folderCwdAt: unknown = flat[at + 6];
    const folderRank: unknown = flat[at + 7];
    const sessionCount: unknown = flat[at + 8];
    at += 9;
    if (typeof rel !== 'string' || !isCount(size) || !isCount(offset) || offset > size || !isCount(sessionCount) || !isCount(lineCount)) return null;
    if (!isTime(mtimeMs) || !isInode(ino) || !isRank(folderRank)) return null;
    const log = logPath(projectsDir, rel);
    if (log === null) return null;
    const folder = log.folder;
    if (!folders.has(folder)) return null;
    const folderCwd = folderCwdAt === -1 ? null : stringAt(strings, folderCwdAt, isCwd, cwds);
    if (folderCwd === null && folderCwdAt !== -1) return null;
    const links: LinkFacts = { slugs: new Map(), sessions: new Map(), folderCwd: folderCwd === null ? null : { cwd: folderCwd, rank: folderRank } };
    for (let k = 0; k < sessionCount; k++, at += 3) {
      const sessionId = stringAt(strings, flat[at], isSessionId, sessionIds);
      const cwd = stringAt(strings, flat[at + 1], isCwd, cwds);
      const rank: unknown = flat[at + 2];
      if (sessionId === null || cwd === null || !isRank(rank) || links.sessions.has(sessionId)) return null;
      links.sessions.set(sessionId, { cwd, rank });
    }
    const slugCount: unknown = flat[at++];
    if (!isCount(slugCount)) return null;
    for (let k = 0; k < slugCount; k++, at += 2) {
      const slug = stringAt(strings, flat[at], isSlug, slugs);
      const sessionId = stringAt(strings, flat[at + 1], isSessionId, sessionIds);
      if (slug === null || sessionId === null || links.slugs.has(slug)) return null;
      links.slugs.set(slug, sessionId);
    }
    const rest = factsAt(files.size);
    if (rest === null) return null;
    const abs = log.abs;
    if (files.has(abs)) return null;
    files.set(abs, { folder, log: { size, mtimeMs, ino, offset, lines: lineCount, facts: restoredFacts(links, rest) } });
  }
  const dirs = readDirs(data.dirs, projectsDir);
  if (dirs === null) return null;
  const viewStamp = typeof data.viewStamp === 'string' && data.viewStamp.length <= MAX_STAMP_CHARS ? data.viewStamp : null;
  return { folders, files, dirs, viewStamp };
}

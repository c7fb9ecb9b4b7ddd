// Which paths under <claudeDir>/projects are session logs, and finding them. Rules are on path segments
// relative to the projects dir, so the watcher filter, discovery and the persisted cache agree.
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { TimeSlicer } from '../timeSlicer.js';

export const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SESSION_FILE_RE = new RegExp(`^${UUID}\\.jsonl$`);
/**
 * Subagent logs of Claude Code before 2.1.2, beside the sessions instead of below them. Their lines carry
 * the parent session's sessionId and slug, so a plan written in such a subagent is linked only through them.
 */
const LEGACY_AGENT_FILE_RE = /^agent-[A-Za-z0-9_-]{1,64}\.jsonl$/;
const SESSION_DIR_RE = new RegExp(`^${UUID}$`);
const SUBAGENTS = 'subagents';
/** Folders allowed below subagents/ (workflows/<run>/... uses two); deeper trees are not Claude's. */
const MAX_SUBAGENT_NESTING = 6;
/** Project-folder content that is never a transcript, even when it holds .jsonl files. */
const NOT_LOG_DIRS = new Set(['memory', 'tool-results']);

/** Segments of absPath below projectsDir; [] for projectsDir itself, null when outside it. */
export function relativeSegments(projectsDir: string, absPath: string): string[] | null {
  const plain = plainSegmentsBelow(projectsDir, absPath);
  if (plain !== null) return plain;
  const rel = path.relative(projectsDir, path.resolve(absPath));
  if (rel === '') return [];
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel.split(path.sep);
}

/**
 * relativeSegments() of the common case without path.relative(), which a first scan (applying thousands
 * of results) and every index save (thousands of paths) spent most of their time in: a path that is the
 * dir, a separator and plain segments (none empty, `.` or `..`, none holding a `/` on Windows) resolves
 * to the same segments, so it is just split. null: not such a path, path.relative() decides.
 */
function plainSegmentsBelow(dir: string, p: string): string[] | null {
  if (dir.length === 0) return null; // the current directory, which no path names by a prefix
  if (p === dir) return [];
  if (p.length <= dir.length + 1 || p[dir.length] !== path.sep || !p.startsWith(dir)) return null;
  const seg = p.slice(dir.length + 1).split(path.sep);
  for (const s of seg) if (s === '' || s === '.' || s === '..' || (path.sep === '\\' && s.includes('/'))) return null;
  return seg;
}

/** A project folder key (also the rule for names on the way to a subagent log). */
export function isFolderName(name: string): boolean {
  return name !== '' && !name.startsWith('.') && !name.includes('/') && !name.includes('\\');
}

function isNestedDirName(name: string): boolean {
  return isFolderName(name) && !NOT_LOG_DIRS.has(name);
}

/** `agent-<id>.jsonl` and friends; the in-flight and retired copies Claude Code leaves are not logs. */
function isSubagentLogName(name: string): boolean {
  return (
    name.endsWith('.jsonl') && isFolderName(name) && !name.includes('.tmp.') &&
    !name.includes('.orphaned-') && !name.includes('.superseded-')
  );
}

/** `<folder>/<uuid>.jsonl`, `<folder>/agent-<id>.jsonl` (before 2.1.2) or `<folder>/<uuid>/subagents/**\/<name>.jsonl`. */
export function isLogSegments(seg: readonly string[]): boolean {
  const [folder, second] = seg;
  if (folder === undefined || second === undefined || !isFolderName(folder)) return false;
  if (seg.length === 2) return SESSION_FILE_RE.test(second) || LEGACY_AGENT_FILE_RE.test(second);
  if (seg.length < 4 || seg.length > 4 + MAX_SUBAGENT_NESTING) return false;
  if (!SESSION_DIR_RE.test(second) || seg[2] !== SUBAGENTS) return false;
  for (let i = 3; i < seg.length - 1; i++) if (!isNestedDirName(seg[i]!)) return false;
  return isSubagentLogName(seg[seg.length - 1]!);
}

/** Whether a directory at these segments can hold logs (so discovery descends into it). */
export function mayContainLogs(seg: readonly string[]): boolean {
  const [folder, second] = seg;
  if (folder === undefined) return true;
  if (!isFolderName(folder)) return false;
  if (second === undefined) return true;
  if (!SESSION_DIR_RE.test(second)) return false;
  if (seg.length === 2) return true;
  if (seg[2] !== SUBAGENTS || seg.length > 3 + MAX_SUBAGENT_NESTING) return false;
  return seg.slice(3).every(isNestedDirName);
}

export interface Discovery {
  /** Absolute paths of the logs found. */
  files: string[];
  /** Project folder keys, when the walk started at the projects dir itself. */
  folders: string[];
}

/** A directory as a walk found it: while its mtime and inode stay the same, so do its entries. */
export interface DirStamp {
  mtimeMs: number;
  ino: number;
  /** When it was listed (Date.now()). */
  listedAt: number;
}

/** What an earlier walk saw, so a restart lists only the directories that moved since. */
export interface KnownDirs {
  stamps: ReadonlyMap<string, DirStamp>;
  /** Absolute paths of the known subdirectories and logs, by directory. */
  children: ReadonlyMap<string, { dirs: string[]; files: string[] }>;
}

/**
 * A walk's memory: `record` receives a stamp for every directory it visits; `known` lets it skip listings.
 * A directory listed although `previous` shows it unmoved keeps that stamp: the listing is the same, and
 * the index has nothing new to save.
 */
export interface WalkMemory {
  record: Map<string, DirStamp>;
  known?: KnownDirs;
  previous?: ReadonlyMap<string, DirStamp>;
}

/**
 * A listing is trusted only if its directory had not changed for this long before it was listed: file
 * systems keep times coarsely (to the kernel tick, some to the second), so a change just after a listing
 * can leave the mtime as it was.
 */
const SETTLED_MS = 2000;

export function unmoved(stamp: DirStamp | undefined, mtimeMs: number, ino: number): stamp is DirStamp {
  return stamp !== undefined && stamp.mtimeMs === mtimeMs && stamp.ino === ino && mtimeMs <= stamp.listedAt - SETTLED_MS;
}

function listFailed(error: unknown, dir: string, warn: (message: string) => void): void {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ENOENT' && code !== 'ENOTDIR') warn(`cannot list ${dir}: ${code ?? String(error)}`);
}

/**
 * Walks the directory at `start` (segments below projectsDir) for logs. Only real directories are
 * entered (a symlinked directory could loop) and only regular files are returned (a FIFO would block
 * its reader forever). Unreadable directories are skipped; `warn` hears about all but missing ones.
 * Each listing is synchronous (microseconds from the dentry cache, where a promise per directory cost
 * more); the generator pauses after each directory so callers can yield to the event loop. With
 * `memory`, each directory is lstat-ed first and its stamp recorded; one that `memory.known` shows
 * unmoved is not listed: its entries are the subdirectories and logs the index knows in it.
 */
function* walkLogs(
  projectsDir: string,
  start: readonly string[],
  warn: (message: string) => void,
  found: Discovery,
  memory?: WalkMemory,
): Generator<void> {
  // Paths are built by concatenation: every name comes from a directory listing (no separators, never
  // `.` or `..`), so this is path.join() without its normalization, which cost more than the lstat.
  const pending: [string[], string][] = [[[...start], path.join(projectsDir, ...start)]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const seg = next[0];
    const dir = next[1];
    if (memory !== undefined) {
      let stats;
      try {
        stats = lstatSync(dir);
      } catch (error) {
        listFailed(error, dir, warn);
        continue;
      }
      if (!stats.isDirectory()) continue;
      const known = memory.known?.stamps.get(dir);
      if (unmoved(known, stats.mtimeMs, stats.ino)) {
        // Its entries are the ones the last listing gave: an lstat instead of a listing (~4x cheaper).
        memory.record.set(dir, known);
        const children = memory.known?.children.get(dir);
        for (const name of children?.dirs ?? []) addDir(seg, dir, name, found, pending);
        for (const file of children?.files ?? []) found.files.push(file);
        yield;
        continue;
      }
      const previous = memory.previous?.get(dir);
      memory.record.set(dir, unmoved(previous, stats.mtimeMs, stats.ino) ? previous : { mtimeMs: stats.mtimeMs, ino: stats.ino, listedAt: Date.now() });
    }
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      listFailed(error, dir, warn);
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        addDir(seg, dir, entry.name, found, pending);
      } else if (entry.isFile() && isLogSegments([...seg, entry.name])) {
        found.files.push(dir + path.sep + entry.name);
      }
    }
    yield;
  }
}

/** A subdirectory `name` of `dir` (at `seg`): a project folder at the top, walked into if it can hold logs. */
function addDir(seg: readonly string[], dir: string, name: string, found: Discovery, pending: [string[], string][]): void {
  const child = [...seg, name];
  if (seg.length === 0 && isFolderName(name)) found.folders.push(name);
  if (mayContainLogs(child)) pending.push([child, dir + path.sep + name]);
}

/** walkLogs on the main thread, yielding to the event loop between slices. */
export async function discoverLogs(
  projectsDir: string,
  start: readonly string[],
  warn: (message: string) => void,
  memory?: WalkMemory,
): Promise<Discovery> {
  const found: Discovery = { files: [], folders: [] };
  const slicer = new TimeSlicer();
  for (const _ of walkLogs(projectsDir, start, warn, found, memory)) await slicer.maybeYield();
  return found;
}

/**
 * walkLogs in one go, for worker threads (which have no requests to answer meanwhile); with `record`, each
 * directory's stamp, taken before it is listed, as the main thread's walk records them.
 */
export function discoverLogsSync(projectsDir: string, start: readonly string[], warn: (message: string) => void, record?: Map<string, DirStamp>): Discovery {
  const found: Discovery = { files: [], folders: [] };
  for (const _ of walkLogs(projectsDir, start, warn, found, record && { record })) continue;
  return found;
}

// Which paths under <claudeDir>/projects are session logs, and finding them. Rules are on path segments
// relative to the projects dir, so the watcher filter, discovery and the persisted cache agree.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { TimeSlicer } from '../timeSlicer.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SESSION_FILE_RE = new RegExp(`^${UUID}\\.jsonl$`);
const SESSION_DIR_RE = new RegExp(`^${UUID}$`);
const SUBAGENTS = 'subagents';
/** Folders allowed below subagents/ (workflows/<run>/... uses two); deeper trees are not Claude's. */
const MAX_SUBAGENT_NESTING = 6;
/** Project-folder content that is never a transcript, even when it holds .jsonl files. */
const NOT_LOG_DIRS = new Set(['memory', 'tool-results']);

/** Segments of absPath below projectsDir; [] for projectsDir itself, null when outside it. */
export function relativeSegments(projectsDir: string, absPath: string): string[] | null {
  const rel = path.relative(projectsDir, path.resolve(absPath));
  if (rel === '') return [];
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel.split(path.sep);
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

/** `<folder>/<uuid>.jsonl` or `<folder>/<uuid>/subagents/**\/<name>.jsonl`. */
export function isLogSegments(seg: readonly string[]): boolean {
  const [folder, second] = seg;
  if (folder === undefined || second === undefined || !isFolderName(folder)) return false;
  if (seg.length === 2) return SESSION_FILE_RE.test(second);
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

/**
 * Walks the directory at `start` (segments below projectsDir) for logs. Only real directories are
 * entered (a symlinked directory could loop) and only regular files are returned (a FIFO would block
 * its reader forever). Unreadable directories are skipped; `warn` hears about all but missing ones.
 * Each listing is synchronous (microseconds from the dentry cache, where a promise per directory cost
 * more); the generator pauses after each directory so callers can yield to the event loop.
 */
function* walkLogs(projectsDir: string, start: readonly string[], warn: (message: string) => void, found: Discovery): Generator<void> {
  // Paths are built by concatenation: every name comes from a directory listing (no separators, never
  // `.` or `..`), so this is path.join() without its normalization, which cost more than the lstat.
  const pending: [string[], string][] = [[[...start], path.join(projectsDir, ...start)]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const seg = next[0];
    const dir = next[1];
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') warn(`cannot list ${dir}: ${code ?? String(error)}`);
      continue;
    }
    for (const entry of entries) {
      const child = [...seg, entry.name];
      if (entry.isDirectory()) {
        if (seg.length === 0 && isFolderName(entry.name)) found.folders.push(entry.name);
        if (mayContainLogs(child)) pending.push([child, dir + path.sep + entry.name]);
      } else if (entry.isFile() && isLogSegments(child)) {
        found.files.push(dir + path.sep + entry.name);
      }
    }
    yield;
  }
}

/** walkLogs on the main thread, yielding to the event loop between slices. */
export async function discoverLogs(projectsDir: string, start: readonly string[], warn: (message: string) => void): Promise<Discovery> {
  const found: Discovery = { files: [], folders: [] };
  const slicer = new TimeSlicer();
  for (const _ of walkLogs(projectsDir, start, warn, found)) await slicer.maybeYield();
  return found;
}

/** walkLogs in one go, for worker threads (which have no requests to answer meanwhile). */
export function discoverLogsSync(projectsDir: string, start: readonly string[], warn: (message: string) => void): Discovery {
  const found: Discovery = { files: [], folders: [] };
  for (const _ of walkLogs(projectsDir, start, warn, found)) continue;
  return found;
}

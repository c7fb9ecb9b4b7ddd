// The persisted form of the session index: per-file state with read offsets, so a restart reads only
// what was appended since. Input is untrusted (a stale, corrupt or foreign cache): anything off -> null.
import path from 'node:path';
import type { TrackedFile } from './indexView.js';
import { isCwd, isSessionId, isSlug } from './values.js';
import { isFolderName, isLogSegments } from './logFiles.js';
import type { LogFacts } from './logReader.js';

const FORMAT = 'plan-memory-viewer/session-index';
const VERSION = 1;

export interface SnapshotFile {
  /** Relative to the projects dir, `/`-separated on every platform. */
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
  offset: number;
  lastCwd: string | null;
  /** [sessionId, cwd] */
  sessions: [string, string][];
  /** [slug, sessionId] */
  slugs: [string, string][];
}

export interface IndexSnapshot {
  format: typeof FORMAT;
  version: typeof VERSION;
  projectsDir: string;
  folders: string[];
  files: SnapshotFile[];
}

export interface RestoredState {
  folders: Map<string, string>;
  files: Map<string, TrackedFile>;
}

export function writeSnapshot(
  projectsDir: string,
  folders: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, TrackedFile>,
): IndexSnapshot {
  return {
    format: FORMAT,
    version: VERSION,
    projectsDir,
    folders: [...folders.keys()].sort(),
    // Sorted, so the same index always writes the same file, whichever order its files were read in.
    files: [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([abs, { log }]) => ({
      path: path.relative(projectsDir, abs).split(path.sep).join('/'),
      size: log.size,
      mtimeMs: log.mtimeMs,
      ino: log.ino,
      offset: log.offset,
      lastCwd: log.facts.lastCwd,
      sessions: [...log.facts.sessions],
      slugs: [...log.facts.slugs],
    })),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Pairs whose elements pass the two checks, as a Map; null when anything does not. */
function readPairs(
  value: unknown,
  first: (s: string) => boolean,
  second: (s: string) => boolean,
): Map<string, string> | null {
  if (!Array.isArray(value)) return null;
  const map = new Map<string, string>();
  // Index access, not destructuring: this runs for every file at start, before the code has warmed up.
  for (let i = 0; i < value.length; i++) {
    const pair: unknown = value[i];
    if (!Array.isArray(pair) || pair.length !== 2) return null;
    const a: unknown = pair[0];
    const b: unknown = pair[1];
    if (typeof a !== 'string' || typeof b !== 'string' || !first(a) || !second(b) || map.has(a)) return null;
    map.set(a, b);
  }
  return map;
}

function readFile(value: unknown, projectsDir: string): [string, TrackedFile] | null {
  if (!isRecord(value) || typeof value.path !== 'string') return null;
  const seg = value.path.split('/');
  if (!isLogSegments(seg) || seg.some((s) => s === '..' || s === '.' || s.includes('\\'))) return null;
  const size = value.size;
  const mtimeMs = value.mtimeMs;
  const ino = value.ino;
  const offset = value.offset;
  const lastCwd = value.lastCwd;
  if (!isCount(size) || !isCount(offset) || offset > size) return null;
  if (typeof mtimeMs !== 'number' || !Number.isFinite(mtimeMs)) return null;
  if (typeof ino !== 'number' || !Number.isFinite(ino) || ino < 0) return null;
  if (lastCwd !== null && (typeof lastCwd !== 'string' || !isCwd(lastCwd))) return null;
  const sessions = readPairs(value.sessions, isSessionId, isCwd);
  const slugs = readPairs(value.slugs, isSlug, isSessionId);
  if (sessions === null || slugs === null) return null;
  const facts: LogFacts = { slugs, sessions, lastCwd };
  // The segments are checked above (no `.`, `..`, separators or empty ones), so joining them is the
  // path.join() result without its per-call normalization.
  return [projectsDir + path.sep + seg.join(path.sep), { folder: seg[0]!, log: { size, mtimeMs, ino, offset, facts } }];
}

/** The state a snapshot describes, or null when it is not a valid snapshot of this projects dir. */
export function readSnapshot(data: unknown, projectsDir: string): RestoredState | null {
  if (!isRecord(data) || data.format !== FORMAT || data.version !== VERSION) return null;
  if (typeof data.projectsDir !== 'string' || path.resolve(data.projectsDir) !== projectsDir) return null;
  if (!Array.isArray(data.folders) || !Array.isArray(data.files)) return null;
  const folders = new Map<string, string>();
  for (const key of data.folders as unknown[]) {
    if (typeof key !== 'string' || !isFolderName(key)) return null;
    if (folders.has(key)) return null;
    folders.set(key, path.join(projectsDir, key));
  }
  const files = new Map<string, TrackedFile>();
  for (const entry of data.files as unknown[]) {
    const file = readFile(entry, projectsDir);
    if (file === null || files.has(file[0]) || !folders.has(file[1].folder)) return null;
    files.set(file[0], file[1]);
  }
  return { folders, files };
}

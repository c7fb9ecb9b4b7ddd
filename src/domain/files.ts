// File access that survives hostile file systems: FIFOs, directories named *.md, files that vanish or
// shrink between listing and reading, symlinks aimed out of their folder. Every caller gets null instead
// of an exception or a hang.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * How a read treats a symlink as the last component of its path: the real path to read instead, or null
 * when that link may not be followed (see linkPolicy.ts). Without one, links are followed like any path.
 */
export type LinkResolver = (linkPath: string) => string | null;

// O_NONBLOCK keeps open() of a FIFO from waiting forever for a writer (it has no effect on regular
// files); O_NOFOLLOW makes a symlink fail with ELOOP, so a link costs its check and a plain file nothing.
const READ = constants.O_RDONLY | constants.O_NONBLOCK;
const READ_NO_FOLLOW = READ | constants.O_NOFOLLOW;

function isLinkRefusal(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  // Linux and macOS say ELOOP for O_NOFOLLOW on a link; some BSDs say EMLINK.
  return code === 'ELOOP' || code === 'EMLINK';
}

/** open() a path as a read of a regular file would: null when it cannot be opened or is a refused link. */
function openSyncOrNull(file: string, links: LinkResolver | undefined): number | null {
  try {
    return openSync(file, links ? READ_NO_FOLLOW : READ);
  } catch (error) {
    if (!links || !isLinkRefusal(error)) return null;
  }
  const real = links(file);
  if (real === null) return null;
  try {
    return openSync(real, READ_NO_FOLLOW);
  } catch {
    return null;
  }
}

/** The open handle of a regular file, or null (missing, unreadable, not a regular file, a refused link). */
export async function openRegularFile(file: string, links?: LinkResolver): Promise<{ handle: FileHandle; stats: Stats } | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, links ? READ_NO_FOLLOW : READ);
  } catch (error) {
    const real = links && isLinkRefusal(error) ? links(file) : null;
    if (real === null) return null;
    try {
      handle = await open(real, READ_NO_FOLLOW);
    } catch {
      return null;
    }
  }
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, stats };
  } catch {
    // Treated as unreadable below.
  }
  await handle.close().catch(() => undefined);
  return null;
}

/** The whole text of a file openRegularFile() opened (null if reading fails); closes it. */
export async function readOpenedText(opened: { handle: FileHandle }): Promise<string | null> {
  try {
    return (await opened.handle.readFile()).toString('utf8');
  } catch {
    return null;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

/**
 * Opens `file` the way openRegularFile() does and hands the descriptor of a regular file to `use`;
 * null when it is missing, not a regular file, or anything throws. Synchronous: for the thousands of
 * small files read at start (plans, memory topics, settings) each await cost more than the read itself.
 * Callers read in time slices.
 */
export function withRegularFileSync<T>(file: string, use: (fd: number, stats: Stats) => T, links?: LinkResolver): T | null {
  const fd = openSyncOrNull(file, links);
  if (fd === null) return null;
  try {
    const stats = fstatSync(fd);
    return stats.isFile() ? use(fd, stats) : null;
  } catch {
    return null;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Already closed or never valid: nothing else to release.
    }
  }
}

/** A whole regular file read without the thread-pool round trips (see withRegularFileSync). */
export function readRegularFileSync(file: string, links?: LinkResolver): { bytes: Buffer; stats: Stats } | null {
  return withRegularFileSync(file, (fd, stats) => ({ bytes: readFileSync(fd), stats }), links);
}

/** A link-refusing resolver: the file itself or nothing. */
const NO_LINKS: LinkResolver = () => null;

/**
 * One of the viewer's own cache files: its bytes, null when it is missing, not a regular file (a FIFO, a
 * device or a symlink put there: refused, never read or waited on) or unreadable, TOO_LARGE past `maxBytes`
 * (told by its size, before reading it).
 */
export function readCacheFileSync(file: string, maxBytes: number): Buffer | null | typeof TOO_LARGE {
  return withRegularFileSync(file, (fd, stats) => (stats.size > maxBytes ? TOO_LARGE : readFileSync(fd)), NO_LINKS);
}

export const TOO_LARGE = Symbol('too large');

/** readCacheFileSync() on the thread pool (a large cache file read while requests are answered): null also when too large. */
export async function readCacheFile(file: string, maxBytes: number): Promise<Buffer | null> {
  const opened = await openRegularFile(file, NO_LINKS);
  if (opened === null) return null;
  try {
    return opened.stats.size > maxBytes ? null : await opened.handle.readFile();
  } catch {
    return null;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

/**
 * A small file of the user's (a subagent's meta.json, a worktree's `.git` file) as text: null when it is
 * missing, no regular file, unreadable or larger than `maxBytes`, so a FIFO or a huge file put in its place
 * costs nothing.
 */
export function readSmallTextSync(file: string, maxBytes: number): string | null {
  return withRegularFileSync(file, (fd, stats) => (stats.size > maxBytes ? null : readFileSync(fd, 'utf8')));
}

/**
 * A file's first bytes as text, in pieces (joined, they are the text), and whether they are the whole
 * file. Each piece but the last ends with a newline.
 */
export interface Head {
  pieces: string[];
  whole: boolean;
}

/**
 * Bytes decoded per piece of a head. One string of a few hundred KB is allocated where large objects go,
 * which costs several times the decoding itself (docs/decisions.md, D41).
 */
const HEAD_PIECE_BYTES = 16 * 1024;

/** The first `maxBytes` of a regular file as text, read as readRegularFileSync() reads (null: see there). */
export function readHeadSync(file: string, maxBytes: number, links?: LinkResolver): Head | null {
  return withRegularFileSync(file, (fd, stats) => {
    const bytes = Buffer.allocUnsafe(Math.min(maxBytes, stats.size));
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { pieces: decodeInPieces(bytes.subarray(0, filled), HEAD_PIECE_BYTES), whole: stats.size <= maxBytes };
  }, links);
}

/**
 * `bytes` as UTF-8 text in pieces of about `pieceBytes`, each cut just after a newline (a line longer than
 * that stays whole in its piece): a newline is one byte no other character's bytes contain, so the pieces
 * joined are exactly the text decoded at once.
 */
export function decodeInPieces(bytes: Buffer, pieceBytes: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < bytes.length;) {
    let end = bytes.length;
    if (start + pieceBytes < bytes.length) {
      const before = bytes.lastIndexOf(0x0a, start + pieceBytes - 1);
      const after = before >= start ? before : bytes.indexOf(0x0a, start + pieceBytes);
      if (after !== -1) end = after + 1;
    }
    pieces.push(bytes.toString('utf8', start, end));
    start = end;
  }
  return pieces;
}

/** stat() that answers null instead of throwing. */
export function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** lstat() that answers null instead of throwing (the link itself, never its target). */
export function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** The birth time where the file system records one, else the change time. */
export function createdTime(stats: Stats): Date {
  return stats.birthtimeMs > 0 ? stats.birthtime : stats.ctime;
}

/**
 * The project a session's cwd belongs to: its last path segment, or the repository's for a worktree
 * (`<repo>/.claude/worktrees/<name>`, where the Desktop app and `/fork` put sessions).
 */
export function projectName(cwd: string): string {
  const worktree = WORKTREE.exec(cwd);
  return lastPathSegment(worktree === null ? cwd : worktree[1]!);
}

const WORKTREE = /^(.+?)[\\/]\.claude[\\/]worktrees[\\/][^\\/]+(?:[\\/].*)?$/;

/** Last segment of a POSIX or Windows path. */
export function lastPathSegment(p: string): string {
  // Called per plan for every list built: index arithmetic instead of a regex split.
  let end = p.length;
  while (end > 0 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
  if (end === 0) return p;
  return p.slice(Math.max(p.lastIndexOf('/', end - 1), p.lastIndexOf('\\', end - 1)) + 1, end);
}

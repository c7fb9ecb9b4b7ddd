// File access that survives hostile file systems: FIFOs, directories named *.md, files that vanish or
// shrink between listing and reading. Every caller gets null instead of an exception or a hang.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ScratchBuffer } from './scratchBuffer.js';

/**
 * Reads a regular file, or returns null when it is missing, not a regular file or unreadable.
 * O_NONBLOCK keeps open() of a FIFO from waiting forever for a writer (it has no effect on regular
 * files); fstat on the opened handle then rejects anything that is not a regular file.
 */
export async function readRegularFile(file: string): Promise<{ text: string; stats: Stats } | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return null;
    const buffer = await handle.readFile();
    return { text: buffer.toString('utf8'), stats };
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Opens `file` the way readRegularFile() does and hands the descriptor of a regular file to `use`;
 * null when it is missing, not a regular file, or anything throws. Synchronous: for the thousands of
 * small files read at start (plans, memory topics, settings) each await cost more than the read itself.
 * Callers read in time slices.
 */
export function withRegularFileSync<T>(file: string, use: (fd: number, stats: Stats) => T): T | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
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

/**
 * readRegularFile() without the thread-pool round trips (see withRegularFileSync). With a scratch
 * buffer, the bytes are the size fstat gave, read into it and valid until its next read; without one,
 * all of them, in a buffer of their own, as readFileSync.
 */
export function readRegularFileSync(file: string, scratch?: ScratchBuffer): { bytes: Buffer; stats: Stats } | null {
  return withRegularFileSync(file, (fd, stats) => ({ bytes: scratch ? scratch.read(fd, stats.size) : readFileSync(fd), stats }));
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

/** Last segment of a POSIX or Windows path: the project name of a session's cwd. */
export function lastPathSegment(p: string): string {
  // Called per plan for every list built: index arithmetic instead of a regex split.
  let end = p.length;
  while (end > 0 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
  if (end === 0) return p;
  return p.slice(Math.max(p.lastIndexOf('/', end - 1), p.lastIndexOf('\\', end - 1)) + 1, end);
}

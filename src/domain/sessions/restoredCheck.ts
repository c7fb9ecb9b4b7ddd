// Whether a restored session index still describes the disk, told without the refresh's walk.
import path from 'node:path';
import { lstatOrNull } from '../files.js';
import { unmoved, type DirStamp } from './logFiles.js';
import { sameStat, type StatLike } from '../transcripts/transcriptReader.js';

/** What the check needs of a restored index: plain data, so that a worker thread can run it. */
export interface RestoredStamps {
  projectsDir: string;
  dirs: [string, DirStamp][];
  /** The project folders' directories. */
  folders: string[];
  /** Each log with the stat it had when read, oldest first (see viewOrder). */
  logs: [string, StatLike][];
}

/**
 * True when a refresh of a restored index would change nothing: every directory the last walk listed is
 * unmoved (so a walk would find the same project folders and logs) and every log has the size, mtime and
 * inode it had when it was read. One lstat each and nothing else, where the refresh's walk and sync took
 * ~2x as long on a warm restart of a heavy home, most of it their own JavaScript and its garbage.
 *
 * `files` is in the order a restore leaves it (oldest first, see viewOrder): the logs are checked newest
 * first, because while a session runs its log is the one that moved, and the check stops at the first.
 */
export function restoredIsCurrent({ projectsDir, dirs, folders, logs }: RestoredStamps): boolean {
  const stamps = new Map(dirs);
  if (!stamps.has(projectsDir)) return false;
  for (let k = logs.length - 1; k >= 0; k--) {
    const [abs, log] = logs[k]!;
    const st = lstatOrNull(abs);
    if (st === null || !st.isFile() || !sameStat(st, log)) return false;
  }
  // A walk sets the folders to the project folders it lists: the stamped directories right below.
  let topLevel = 0;
  for (const [dir, stamp] of stamps) {
    const st = lstatOrNull(dir);
    if (st === null || !st.isDirectory() || !unmoved(stamp, st.mtimeMs, st.ino)) return false;
    if (dir !== projectsDir && path.dirname(dir) === projectsDir) topLevel++;
  }
  if (topLevel !== folders.length) return false;
  for (const dir of folders) if (!stamps.has(dir)) return false;
  return true;
}

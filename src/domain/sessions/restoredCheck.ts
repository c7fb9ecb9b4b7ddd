// Whether a restored session index still describes the disk, told without the refresh's walk.
import path from 'node:path';
import { lstatOrNull } from '../files.js';
import type { TrackedFile } from './indexView.js';
import { unmoved, type DirStamp } from './logFiles.js';
import { sameStat } from '../transcripts/transcriptReader.js';

/**
 * True when a refresh of a restored index would change nothing: every directory the last walk listed is
 * unmoved (so a walk would find the same project folders and logs) and every log has the size, mtime and
 * inode it had when it was read. One lstat each and nothing else, where the refresh's walk and sync took
 * ~2x as long on a warm restart of a heavy home, most of it their own JavaScript and its garbage.
 *
 * `files` is in the order a restore leaves it (oldest first, see viewOrder): the logs are checked newest
 * first, because while a session runs its log is the one that moved, and the check stops at the first.
 */
export function restoredIsCurrent(
  projectsDir: string,
  stamps: ReadonlyMap<string, DirStamp>,
  folders: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, TrackedFile>,
): boolean {
  if (!stamps.has(projectsDir)) return false;
  const logs = [...files];
  for (let k = logs.length - 1; k >= 0; k--) {
    const [abs, file] = logs[k]!;
    const st = lstatOrNull(abs);
    if (st === null || !st.isFile() || !sameStat(st, file.log)) return false;
  }
  // A walk sets the folders to the project folders it lists: the stamped directories right below.
  let topLevel = 0;
  for (const [dir, stamp] of stamps) {
    const st = lstatOrNull(dir);
    if (st === null || !st.isDirectory() || !unmoved(stamp, st.mtimeMs, st.ino)) return false;
    if (dir !== projectsDir && path.dirname(dir) === projectsDir) topLevel++;
  }
  if (topLevel !== folders.size) return false;
  for (const dir of folders.values()) if (!stamps.has(dir)) return false;
  return true;
}

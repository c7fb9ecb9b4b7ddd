// Project folders shared out between the scan workers and the main thread while they scan: each
// takes the next folder nobody has taken yet, so all finish together however the bytes are spread.
// A fixed split by expected bytes left one worker ~0.1 s behind the other in a traced start of the
// benchmark home.
//
// One flag per folder in shared memory, taken with a compare-and-swap. The workers go from the front
// (the heaviest folders first), the main thread from the back (the lightest): it joins in between
// its own work (loading the server, reading plans), and must not be left holding a big folder at the end.
import { discoverLogsSync, type DirStamp } from './logFiles.js';
import { readLogInSteps, type ReadSlot, type TrackedLog } from '../transcripts/transcriptReader.js';
import type { FolderScan } from './scanProtocol.js';

export interface FolderQueue {
  /** Folder keys, heaviest first. */
  folders: string[];
  /** One per folder: 0 while nobody has taken it. Backed by a SharedArrayBuffer. */
  taken: Int32Array;
}

export function createFolderQueue(folders: string[]): FolderQueue {
  return { folders, taken: new Int32Array(new SharedArrayBuffer(Math.max(4, folders.length * 4))) };
}

/** Takes folder `i` if nobody has. */
export function take(queue: FolderQueue, i: number): boolean {
  return Atomics.compareExchange(queue.taken, i, 0, 1) === 0;
}

/** The index of each folder this caller takes, front to back or back to front, until none are left. */
export function* takeAll(queue: FolderQueue, fromBack = false): Generator<number> {
  const n = queue.folders.length;
  for (let k = 0; k < n; k++) {
    const i = fromBack ? n - 1 - k : k;
    if (take(queue, i)) yield i;
  }
}

/** What scanTaken() has put into `scan` so far, taken out (it goes on filling the same arrays). */
export function takeScanned(scan: FolderScan): FolderScan {
  return { files: scan.files.splice(0), warnings: scan.warnings.splice(0), dirs: scan.dirs.splice(0) };
}

/**
 * Takes folders from the queue (front to back, or back to front) and brings each log in them up to date
 * into `scan`, pausing before each file and after each chunk read: a worker runs it through, the main
 * thread yields at the pauses.
 */
export function* scanTaken(
  projectsDir: string,
  queue: FolderQueue,
  previous: ReadonlyMap<string, TrackedLog>,
  slot: ReadSlot,
  scan: FolderScan,
  fromBack = false,
): Generator<void> {
  const warn = (message: string): void => void scan.warnings.push(message);
  for (const i of takeAll(queue, fromBack)) {
    const stamps = new Map<string, DirStamp>();
    const found = discoverLogsSync(projectsDir, [queue.folders[i]!], warn, stamps);
    scan.dirs.push(...stamps);
    for (const file of found.files) {
      yield;
      // Within a large log too: the main thread's share pauses there when its slice is used up.
      scan.files.push([file, yield* readLogInSteps(file, previous.get(file) ?? null, slot)]);
    }
  }
}

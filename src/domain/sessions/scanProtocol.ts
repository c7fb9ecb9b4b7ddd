// Messages between the session index and its scan workers (scanWorker.ts). Everything in them is
// structured-cloneable: plain objects, strings, numbers, Maps and the shared memory of a FolderQueue.
import type { FolderQueue } from './folderQueue.js';
import type { ReadResult, TrackedLog } from '../transcripts/transcriptReader.js';
import type { DirStamp } from './logFiles.js';
import type { RestoredStamps } from './restoredCheck.js';

export interface ScanJob {
  file: string;
  previous: TrackedLog | null;
}

/** Read these files. */
export interface FilesRequest {
  id: number;
  kind: 'files';
  chunkBytes: number;
  jobs: ScanJob[];
}

/**
 * Find the logs of the project folders this worker takes from the queue (shared with the other
 * threads) and bring each up to date from `previous` (what the index knows of files in them): the
 * whole walk, lstat and read off the main thread.
 */
export interface FoldersRequest {
  id: number;
  kind: 'folders';
  chunkBytes: number;
  projectsDir: string;
  queue: FolderQueue;
  previous: Map<string, TrackedLog>;
  /** Post what is read so far (a `part`) every this many files, so that the receiver takes it in while the scan goes on. */
  partFiles: number;
}

/** Whether a restored index still describes the disk (restoredCheck.ts), checked off the main thread. */
export interface ConfirmRequest {
  id: number;
  kind: 'confirm';
  stamps: RestoredStamps;
}

export type ScanRequest = FilesRequest | FoldersRequest | ConfirmRequest;

/**
 * Every log found in the folders with what reading it gave ('unchanged' when it had not moved), and every
 * directory walked with its stamp (so that a restart can tell the walk's listings still hold).
 */
export interface FolderScan {
  files: [string, ReadResult][];
  warnings: string[];
  dirs: [string, DirStamp][];
}

/** A `part` is some of the files of a FoldersRequest, posted before its final `scan` (the rest). */
export type ScanResponse =
  | { id: number; results: ReadResult[] }
  | { id: number; scan: FolderScan }
  | { id: number; part: FolderScan }
  | { id: number; current: boolean };

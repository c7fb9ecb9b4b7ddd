// Messages between the session index and its scan workers (scanWorker.ts). Everything in them is
// structured-cloneable: plain objects, strings, numbers and Maps.
import type { ReadResult, TrackedLog } from './logReader.js';

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
 * Find the logs of these project folders and bring each up to date from `previous` (what the index
 * knows of files in them): the whole walk, lstat and read off the main thread.
 */
export interface FoldersRequest {
  id: number;
  kind: 'folders';
  chunkBytes: number;
  projectsDir: string;
  folders: string[];
  previous: Map<string, TrackedLog>;
  /**
   * The persisted index to take `previous` from instead (a restart): parsed and validated here, off the
   * main thread. Files found unchanged then come back as reads of 0 bytes with their restored state.
   */
  snapshotFile: string | null;
}

export type ScanRequest = FilesRequest | FoldersRequest;

/** Every log found in the folders with what reading it gave ('unchanged' when it had not moved). */
export interface FolderScan {
  files: [string, ReadResult][];
  warnings: string[];
}

export type ScanResponse = { id: number; results: ReadResult[] } | { id: number; scan: FolderScan };

/**
 * What a folder scan sends back for one file. The main thread holds no state for files restored from a
 * snapshot, so an unchanged one comes back as a read of 0 bytes carrying its restored state.
 */
export function folderScanResult(result: ReadResult, known: TrackedLog | null, restored: boolean): ReadResult {
  return restored && known !== null && result.kind === 'unchanged' ? { kind: 'read', log: known, bytesRead: 0, maxRetainedBytes: 0 } : result;
}

/** The previous state of each file for a folder scan: the request's, or the snapshot's (with any warning). */
export function previousForScan(
  request: Pick<FoldersRequest, 'previous' | 'snapshotFile' | 'projectsDir'>,
  warnings: string[],
  load: (file: string, projectsDir: string) => { files: Map<string, TrackedLog> | null; warning: string | null },
): { previous: Map<string, TrackedLog>; restored: boolean } {
  if (request.snapshotFile === null) return { previous: request.previous, restored: false };
  const { files, warning } = load(request.snapshotFile, request.projectsDir);
  if (warning !== null) warnings.push(warning);
  return { previous: files ?? new Map(), restored: true };
}

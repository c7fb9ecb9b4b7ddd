// Messages between the session index and its scan workers (scanWorker.ts). Everything in them is
// structured-cloneable: plain objects, strings, numbers and Maps.
import type { ReadResult, TrackedLog } from './logReader.js';

export interface ScanJob {
  file: string;
  previous: TrackedLog | null;
}

export interface ScanRequest {
  id: number;
  chunkBytes: number;
  jobs: ScanJob[];
}

export interface ScanResponse {
  id: number;
  results: ReadResult[];
}

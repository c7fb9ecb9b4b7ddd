// Scan workers can be started before the application is even loaded: on a first run the launcher
// starts them while the application bundle compiles (~0.1 s), so they are ready when the first scan
// begins instead of booting then. They wait on the global below until a ScanWorkers pool adopts them.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';

const KEY = Symbol.for('plan-memory-viewer.prestartedScanWorkers');

/**
 * One worker per core but the main thread's, at most two: reading the page cache scales poorly beyond
 * that (memory bandwidth), and the main thread takes its share of a start-up scan (ScanWorkers.scanFolders).
 */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

/** Leaves `workers` for the first pool to adopt (unref'd: they never keep the process alive). */
export function leavePrestarted(workers: Worker[]): void {
  for (const worker of workers) worker.unref();
  (globalThis as Record<symbol, unknown>)[KEY] = workers;
}

/** The workers left by leavePrestarted(), once: the caller owns them. */
export function takePrestarted(): Worker[] {
  const global = globalThis as Record<symbol, unknown>;
  const workers = global[KEY];
  delete global[KEY];
  return Array.isArray(workers) ? (workers as Worker[]) : [];
}

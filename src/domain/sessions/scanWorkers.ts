// A small pool of worker threads that read session logs in parallel with each other and with the main
// thread, which meanwhile starts the server and answers requests. Reading 2 GB of logs is CPU work (the
// copy out of the page cache plus the scan); on the main thread it would stall every request.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../types.js';
import { createFolderQueue, scanTaken, takeScanned, type FolderQueue } from './folderQueue.js';
import type { DirStamp } from './logFiles.js';
import { createReadSlot, readLogInSteps, type ReadResult, type TrackedLog } from '../transcripts/transcriptReader.js';
import type { FolderScan, ScanJob, ScanRequest, ScanResponse } from './scanProtocol.js';
import { restoredIsCurrent, type RestoredStamps } from './restoredCheck.js';
import { TimeSlicer } from '../timeSlicer.js';

/** A job with the bytes it is expected to read, used to share work evenly between workers. */
export interface SizedJob extends ScanJob {
  bytes: number;
}

// Workers are started on demand and stopped once idle: a start costs ~30 ms and each keeps an isolate
// (~10 MB) alive, which a viewer that only sees small appends has no use for.
const IDLE_MS = 3000;

interface Pending {
  resolve: (response: ScanResponse) => void;
  reject: (error: Error) => void;
  onPart?: ((part: FolderScan) => void) | undefined;
}

/**
 * A worker posts what it has read every this many files of a start-up scan: taking results in (the
 * structured clone, applying them) then happens while the scan goes on, not in one ~40 ms block
 * after it, when nothing else is left to do.
 */
export const PART_FILES = 64;

/** What the index knows of the files in one project folder, and how much reading them took. */
export interface FolderState {
  folder: string;
  previous: Map<string, TrackedLog>;
  /** Expected work (bytes last read); folders never read count as average. */
  weight: number;
}

/**
 * One worker per core but the main thread's, at most two: reading the page cache scales poorly beyond
 * that (memory bandwidth), and the main thread takes its share of a start-up scan (ScanWorkers.scanFolders).
 */
function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

type RequestBody = ScanRequest extends infer R ? (R extends ScanRequest ? Omit<R, 'id'> : never) : never;

/**
 * Under tsx (tests, `npm run dev`-style runs from src/) the worker is a .ts file, which a worker thread
 * can only load after registering tsx itself; the bundled product ships dist/scanWorker.js.
 */
export function spawnScanWorker(): Worker {
  if (import.meta.url.endsWith('.ts')) {
    const entry = new URL('./scanWorker.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(boot, { eval: true });
  }
  return new Worker(new URL('./scanWorker.js', import.meta.url));
}

class ScanThread {
  readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  dead = false;

  constructor(worker: Worker, onDeath: (thread: ScanThread, error: Error) => void) {
    this.worker = worker;
    this.worker.unref();
    this.worker.on('message', (response: ScanResponse) => {
      const pending = this.pending.get(response.id);
      if ('part' in response) return void pending?.onPart?.(response.part);
      this.pending.delete(response.id);
      pending?.resolve(response);
    });
    const die = (error: Error): void => {
      if (this.dead) return;
      this.end(error);
      onDeath(this, error);
    };
    this.worker.on('error', die);
    this.worker.on('exit', (code) => die(new Error(`scan worker exited with code ${code}`)));
  }

  /** The final response to `body`; `onPart` hears the parts posted before it. */
  request(body: RequestBody, onPart?: (part: FolderScan) => void): Promise<ScanResponse> {
    if (this.dead) return Promise.reject(new Error('scan worker is gone'));
    const id = this.nextId++;
    const request = { ...body, id } as ScanRequest;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onPart });
      this.worker.postMessage(request);
    });
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Marks the thread dead and fails what it was asked and has not answered: a request to a thread that
   * is being stopped must not wait forever (its 'exit' finds it dead already and settles nothing).
   */
  end(error: Error): void {
    this.dead = true;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

export class ScanWorkers {
  /**
   * Files read so far by run() and scanFolders() (not those found unchanged, nor main-thread fallbacks),
   * including scanFolders()'s share on this thread.
   */
  filesRead = 0;
  private threads: ScanThread[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  private running = 0;
  private failed = false;
  /** What this thread finishes before it takes its share of a scanFolders() (see joinAfter()). */
  private ownShareAfter: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly logger: Logger,
    private readonly size = defaultPoolSize(),
    /** How a worker is started (tests start one that fails). */
    private readonly spawn: () => Worker = spawnScanWorker,
    /** Whether this thread takes its share of scanFolders() (tests turn it off to keep all reads in workers). */
    private readonly mainThreadShare = true,
    /** How long workers are kept once idle (tests shorten it). */
    private readonly idleMs = IDLE_MS,
  ) {}

  /**
   * restoredIsCurrent() on a worker, so that this thread goes on loading the server meanwhile (a warm
   * restart of a heavy home checks ~10,000 stats); here when workers cannot run.
   */
  async confirm(stamps: RestoredStamps): Promise<boolean> {
    return this.parallel(
      async (threads) => {
        const response = await threads[0]!.request({ kind: 'confirm', stamps });
        return 'current' in response && response.current;
      },
      async () => restoredIsCurrent(stamps),
    );
  }

  /**
   * Reads every job and returns results in job order. Jobs are shared between the workers by expected
   * bytes (largest first, each to the least loaded). If workers cannot run here, the main thread reads
   * in time slices instead, so the answer is the same either way.
   */
  async run(jobs: readonly SizedJob[], chunkBytes: number): Promise<ReadResult[]> {
    if (jobs.length === 0) return [];
    return this.parallel(
      async (threads) => {
        const shares = partition(jobs, threads.length, (job) => job.bytes);
        const parts = await Promise.all(shares.map(async (share, i) => {
          if (share.length === 0) return [];
          const response = await threads[i]!.request({ kind: 'files', chunkBytes, jobs: share.map(({ file, previous }) => ({ file, previous })) });
          return 'results' in response ? response.results : [];
        }));
        const results = new Map<SizedJob, ReadResult>();
        shares.forEach((share, i) => share.forEach((job, k) => results.set(job, parts[i]![k]!)));
        this.filesRead += [...results.values()].filter((result) => result.kind === 'read').length;
        return jobs.map((job) => results.get(job)!);
      },
      () => readInSlices(jobs, chunkBytes),
    );
  }

  /**
   * Finds and reads the logs of whole project folders, the walk included: the workers and this thread
   * take folders from one queue (see folderQueue.ts), this one in time slices between its other work.
   * This is the start-up scan: this thread meanwhile also loads the server and reads the plans. What is
   * read goes to `receive` in batches as it comes (a worker's parts, this thread's slices), each file
   * once, unless the workers fail: then this thread reads everything again and `receive` hears those
   * files a second time. Resolves with the warnings once everything has been received.
   */
  async scanFolders(
    projectsDir: string,
    folders: readonly FolderState[],
    chunkBytes: number,
    receive: (files: [string, ReadResult][], dirs: [string, DirStamp][]) => void,
  ): Promise<string[]> {
    if (folders.length === 0) return [];
    const queue = createFolderQueue([...folders].sort((a, b) => b.weight - a.weight).map((f) => f.folder));
    const previous = new Map(folders.flatMap((f) => [...f.previous]));
    const warnings: string[] = [];
    const hand = (scan: FolderScan): void => {
      warnings.push(...scan.warnings);
      receive(scan.files, scan.dirs);
    };
    const take = (scan: FolderScan): void => {
      this.filesRead += scan.files.filter(([, result]) => result.kind === 'read').length;
      hand(scan);
    };
    return this.parallel(
      async (threads) => {
        const request = { kind: 'folders', chunkBytes, projectsDir, queue, previous, partFiles: PART_FILES } as const;
        const fromWorkers = Promise.all(threads.map(async (thread) => {
          const response = await thread.request(request, take);
          if ('scan' in response) take(response.scan);
        }));
        // Handled below, after this thread's share; a worker failing meanwhile must not go unhandled.
        fromWorkers.catch(() => undefined);
        // Once the workers are done the queue is empty: nothing is left to wait for.
        await Promise.race([this.ownShareAfter, fromWorkers]);
        if (this.mainThreadShare) await scanTakenInSlices(projectsDir, queue, previous, chunkBytes, take);
        await fromWorkers;
        return warnings;
      },
      // A fresh queue: this thread may have taken folders of the first one before the workers failed.
      async () => {
        await scanTakenInSlices(projectsDir, createFolderQueue(queue.folders), previous, chunkBytes, hand);
        return warnings;
      },
    );
  }

  /**
   * This thread joins the scans started from now on only once `work` has settled (or the workers have
   * finished): at start it has the server to build and the plans to read, which no worker can take, and
   * the workers read logs meanwhile. Taking log folders in between, as it did, left the worker idle at
   * the end while this thread finished the plans (traced: ~0.2 s); the logs should be the last thing
   * both are busy with.
   */
  joinAfter(work: Promise<unknown>): void {
    this.ownShareAfter = work.catch(() => undefined);
  }

  /** Runs `work` on the threads, or `fallback` on the main thread when workers cannot run here. */
  private async parallel<T>(work: (threads: ScanThread[]) => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (this.failed) return fallback();
    this.running++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      return await work(this.ensureThreads());
    } catch (error) {
      if (!this.failed) this.logger.warn(`scan workers unavailable (${error instanceof Error ? error.message : String(error)}); reading logs on the main thread`);
      this.failed = true;
      await this.close();
      return fallback();
    } finally {
      this.running--;
      this.scheduleIdle();
    }
  }

  /** Starts the threads now, so they have booted (~50 ms each) by the time the first job comes. */
  prestart(): void {
    if (this.failed) return;
    try {
      this.ensureThreads();
    } catch {
      return; // The first job finds out again and falls back, with a warning.
    }
    this.scheduleIdle();
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => {
      t.end(new Error('scan workers closed'));
      return t.worker.terminate().catch(() => undefined);
    }));
  }

  private ensureThreads(): ScanThread[] {
    this.threads = this.threads.filter((t) => !t.dead);
    while (this.threads.length < this.size) this.adopt(this.spawn());
    return this.threads;
  }

  private adopt(worker: Worker): void {
    this.threads.push(new ScanThread(worker, (thread) => {
      this.threads = this.threads.filter((t) => t !== thread);
    }));
  }

  /**
   * (Re)starts the idle countdown, unless work is under way. Always replacing the timer: a second one
   * left running closed the workers 3 s after a start, in the middle of a first scan that took longer
   * (logs read from disk, not from the page cache).
   */
  private scheduleIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.running > 0 || this.threads.some((t) => t.busy)) return;
    this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
    this.idleTimer.unref();
  }
}

/**
 * This thread's share of scanFolders() (or all of it, when workers cannot run here): folders taken from
 * the back of the queue, in time slices, each slice's files handed to `take` before the pause.
 */
async function scanTakenInSlices(
  projectsDir: string,
  queue: FolderQueue,
  previous: ReadonlyMap<string, TrackedLog>,
  chunkBytes: number,
  take: (scan: FolderScan) => void,
): Promise<void> {
  const scan: FolderScan = { files: [], warnings: [], dirs: [] };
  const slicer = new TimeSlicer();
  const handOver = (): void => take(takeScanned(scan));
  for (const _ of scanTaken(projectsDir, queue, previous, createReadSlot(chunkBytes), scan, true)) {
    if (!slicer.due()) continue;
    handOver();
    await slicer.pause();
  }
  handOver();
}

/** Heaviest first, each to the share with the least weight so far. */
function partition<T>(items: readonly T[], count: number, weight: (item: T) => number): T[][] {
  const shares: T[][] = Array.from({ length: count }, () => []);
  const loads = new Array<number>(count).fill(0);
  for (const item of [...items].sort((a, b) => weight(b) - weight(a))) {
    let least = 0;
    for (let i = 1; i < count; i++) if (loads[i]! < loads[least]!) least = i;
    shares[least]!.push(item);
    loads[least] = loads[least]! + weight(item);
  }
  return shares;
}

/** The same reads on the main thread, yielding between files and chunks so requests keep being answered. */
export async function readInSlices(jobs: readonly ScanJob[], chunkBytes: number): Promise<ReadResult[]> {
  const slot = createReadSlot(chunkBytes);
  const slicer = new TimeSlicer();
  const results: ReadResult[] = [];
  for (const job of jobs) {
    const steps = readLogInSteps(job.file, job.previous, slot);
    for (;;) {
      await slicer.maybeYield();
      const step = steps.next();
      if (step.done === true) {
        results.push(step.value);
        break;
      }
    }
  }
  return results;
}

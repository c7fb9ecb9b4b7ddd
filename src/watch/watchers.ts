// Which folders are watched and what a change in each means for the viewer.
import path from 'node:path';
import type { Logger } from '../domain/types.js';
import { TreeWatcher } from './treeWatcher.js';
import { PendingNames } from '../domain/pendingNames.js';

/** What the watchers drive; implemented by Viewer. */
export interface WatchTarget {
  readonly options: { claudeDir: string };
  readonly sessions: { isSessionLog(absPath: string): boolean };
  readonly memory: { list(): Promise<{ sources: { kind: string; dir: string }[] }> };
  planPathChanged(filepath: string): Promise<void>;
  planFolderChanged(dir: string, onlyIfListingChanged?: boolean): Promise<void>;
  logChanged(filepath: string | null): Promise<void>;
  /** `files`: the memory paths that changed (absolute), or null when that is not known. */
  memoryChanged(files: readonly string[] | null): void;
  rescanAll(): Promise<void>;
}

const FALLBACK_RESCAN_MS = 5000;
// inotify loses events without telling anyone when its queue overflows (thousands of plans written at
// once, on a busy machine): every plan folder's file names are compared with the disk this often, and the
// folder is re-read when they differ.
const PLAN_RECONCILE_MS = 10_000;
const MEMORY_DEBOUNCE_MS = 100;
// Deep enough for projects/<key>/<session>/subagents/workflows/<run>/agent-x.jsonl and nested memory topics.
const PROJECTS_DEPTH = 6;
const CUSTOM_MEMORY_DEPTH = 8;

export class Watchers {
  private readonly planWatchers = new Map<string, TreeWatcher>();
  private readonly memoryWatchers = new Map<string, TreeWatcher>();
  private projectsWatcher: TreeWatcher | null = null;
  private fallbackTimer: NodeJS.Timeout | null = null;
  private memoryTimer: NodeJS.Timeout | null = null;
  private reconcileTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly target: WatchTarget,
    private readonly logger: Logger,
  ) {}

  async start(planFolders: readonly string[]): Promise<void> {
    if (this.closed) return;
    const projectsDir = path.join(this.target.options.claudeDir, 'projects');
    this.projectsWatcher = new TreeWatcher(projectsDir, {
      depth: PROJECTS_DEPTH,
      ignore: (p) => isIgnoredProjectPath(projectsDir, p),
      onEvent: (event) => {
        // After a burst, memory folders below projects/ may have lost events too.
        if (event.kind === 'rescan') this.memoryTouched(null);
        if (event.kind !== 'file') return void this.target.logChanged(null).catch(this.warn);
        if (isMemoryPath(projectsDir, event.path)) return this.memoryTouched(event.path);
        if (this.target.sessions.isSessionLog(event.path)) void this.target.logChanged(event.path).catch(this.warn);
      },
      onError: (error) => this.failed(error),
    });
    this.reconcileTimer = setInterval(() => {
      for (const dir of this.planWatchers.keys()) void this.target.planFolderChanged(dir, true).catch(this.warn);
    }, PLAN_RECONCILE_MS);
    this.reconcileTimer.unref();
    await Promise.all([this.projectsWatcher.ready(), this.setPlanFolders(planFolders), this.syncMemoryDirs()]);
  }

  /** Watches exactly these plan folders (new projects bring new plansDirectory folders). */
  async setPlanFolders(folders: readonly string[]): Promise<void> {
    if (this.closed) return;
    const wanted = new Set(folders);
    const started: Promise<void>[] = [];
    for (const dir of wanted) {
      if (this.planWatchers.has(dir)) continue;
      const watcher = new TreeWatcher(dir, {
        depth: 0,
        onEvent: (event) => {
          const task = event.kind === 'file' ? this.target.planPathChanged(event.path) : this.target.planFolderChanged(dir);
          void task.catch(this.warn);
        },
        onError: (error) => this.failed(error),
      });
      this.planWatchers.set(dir, watcher);
      // A plan written after the folder was listed but before the watcher's first crawl is in neither: once
      // the watcher is ready, the folder's names are compared with the disk again.
      started.push(watcher.ready().then(() => (this.closed ? undefined : this.target.planFolderChanged(dir, true))).catch(this.warn));
    }
    for (const [dir, watcher] of this.planWatchers) {
      if (!wanted.has(dir)) {
        this.planWatchers.delete(dir);
        started.push(watcher.close());
      }
    }
    await Promise.all(started);
  }

  /** Custom memory folders live outside the claude dir; watch each one the listing names. */
  async syncMemoryDirs(): Promise<void> {
    if (this.closed) return;
    let dirs: string[];
    try {
      const listing = await this.target.memory.list();
      dirs = listing.sources.filter((s) => s.kind === 'custom').map((s) => s.dir);
    } catch (error) {
      this.warn(error);
      return;
    }
    const started: Promise<void>[] = [];
    for (const dir of dirs) {
      if (this.memoryWatchers.has(dir)) continue;
      const watcher = new TreeWatcher(dir, {
        depth: CUSTOM_MEMORY_DEPTH,
        onEvent: (event) => this.memoryTouched(event.kind === 'file' ? event.path : null),
        onError: (error) => this.failed(error),
      });
      this.memoryWatchers.set(dir, watcher);
      started.push(watcher.ready());
    }
    await Promise.all(started);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.fallbackTimer) clearInterval(this.fallbackTimer);
    if (this.memoryTimer) clearTimeout(this.memoryTimer);
    if (this.reconcileTimer) clearInterval(this.reconcileTimer);
    const all = [...this.planWatchers.values(), ...this.memoryWatchers.values()];
    if (this.projectsWatcher) all.push(this.projectsWatcher);
    this.planWatchers.clear();
    this.memoryWatchers.clear();
    await Promise.all(all.map((w) => w.close().catch(() => undefined)));
  }

  /** The memory paths touched since the last notice; null: something was, nobody knows what. */
  private readonly memoryPaths = new PendingNames(false);

  /** A memory path changed (null: events were lost); one notice naming them all after a quiet moment. */
  private memoryTouched(file: string | null): void {
    this.memoryPaths.add(file === null ? null : [file]);
    if (this.memoryTimer) clearTimeout(this.memoryTimer);
    this.memoryTimer = setTimeout(() => {
      this.memoryTimer = null;
      const files = this.memoryPaths.take();
      if (!this.closed) this.target.memoryChanged(files === null ? null : [...files]);
    }, MEMORY_DEBOUNCE_MS);
  }

  /** A watch failed (inotify limits, permissions): keep serving, fall back to periodic full rescans. */
  private failed(error: Error): void {
    if (this.closed || this.fallbackTimer) return;
    this.logger.warn(`file watching failed (${error.message}); rescanning every ${FALLBACK_RESCAN_MS / 1000} s instead`);
    this.fallbackTimer = setInterval(() => void this.target.rescanAll().catch(this.warn), FALLBACK_RESCAN_MS);
    this.fallbackTimer.unref();
  }

  private readonly warn = (error: unknown): void => {
    this.logger.warn(`update failed: ${error instanceof Error ? error.message : String(error)}`);
  };
}

function segmentsUnder(root: string, p: string): string[] {
  return path.relative(root, p).split(path.sep);
}

/** projects/<key>/memory/** */
function isMemoryPath(projectsDir: string, p: string): boolean {
  return segmentsUnder(projectsDir, p)[1] === 'memory';
}

/** Tool output folders hold thousands of files nobody needs watched. */
function isIgnoredProjectPath(projectsDir: string, p: string): boolean {
  const segments = segmentsUnder(projectsDir, p);
  return segments.includes('tool-results') || p.endsWith('.meta.json');
}

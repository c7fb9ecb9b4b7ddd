// The running viewer: session index, plan store and memory store over one claude dir, kept fresh by
// watchers. This is the seam between the domain and its users (HTTP, CLI, benchmark); it knows no HTTP.
import path from 'node:path';
import { LARGE_FILE_BYTES } from './domain/largeFiles.js';
import { MemoryStore } from './domain/memory/memoryStore.js';
import { discoverPlanFolders } from './domain/plans/planFolders.js';
import { PlanCache } from './domain/plans/planCache.js';
import { PlanStore, type OpenedPlan, type PlanChange } from './domain/plans/planStore.js';
import { SessionIndexCache } from './domain/sessions/indexCache.js';
import { ScanWorkers } from './domain/sessions/scanWorkers.js';
import { refreshesInWorkers } from './domain/sessions/indexHelpers.js';
import { SessionIndex } from './domain/sessions/sessionIndex.js';
import type { Logger } from './domain/types.js';
import { Watchers } from './watch/watchers.js';

export interface ViewerOptions {
  claudeDir: string;
  homeDir: string;
  logger: Logger;
  /** Tests of pure listing behaviour turn watching off; the product always watches. */
  watch?: boolean;
  /**
   * Do not start the watchers in open(); the caller calls startWatching() once it is serving. Their
   * initial crawl is CPU-bound (seconds on a home of thousands of logs) and would otherwise compete with
   * building and starting the server.
   */
  deferWatch?: boolean;
  /** Folder for the persisted session index (null: none, every start reads every log byte). */
  cacheDir?: string | null;
  /** Hears each start-up phase as it ends (PMV_TRACE=1 prints them; the benchmark reads them). */
  trace?: (phase: string) => void;
}

// Saving a cache costs a full serialization (~50 ms for a heavy home): at most once a minute while a session
// keeps appending. A crash loses nothing: a restart re-reads the logs from the offsets last saved.
const CACHE_SAVE_DELAY_MS = 60_000;
// After start the caches are saved soon, but not while the first requests are being answered.
const FIRST_SAVE_DELAY_MS = 2000;

export type ViewerEvent = ({ type: 'plans' } & PlanChange) | { type: 'memory' };

/** Runs async tasks one after another, so two updates of the same store never interleave. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

export class Viewer {
  readonly sessions: SessionIndex;
  readonly plans: PlanStore;
  readonly memory: MemoryStore;
  private readonly watchers: Watchers | null;
  private readonly listeners = new Set<(event: ViewerEvent) => void>();
  private readonly planQueue = new SerialQueue();
  private readonly sessionQueue = new SerialQueue();
  private readonly indexCache: SessionIndexCache | null;
  private saveTimer: NodeJS.Timeout | null = null;

  private constructor(
    readonly options: ViewerOptions,
    sessions: SessionIndex,
    indexCache: SessionIndexCache | null,
    private readonly planCache: PlanCache | null,
    private readonly scanWorkers: ScanWorkers,
  ) {
    this.sessions = sessions;
    this.indexCache = indexCache;
    this.plans = new PlanStore(this.sessions, options.logger, { deferSearchPrep: options.deferWatch === true });
    this.memory = new MemoryStore({
      claudeDir: options.claudeDir,
      homeDir: options.homeDir,
      projects: () => this.sessions.projectFolders(),
      logger: options.logger,
    });
    this.plans.onChange((change) => {
      this.plansUnsaved = true;
      this.scheduleCacheSave();
      this.emit({ type: 'plans', ...change });
    });
    this.watchers = options.watch === false ? null : new Watchers(this, options.logger);
  }

  /** create() then load(): a viewer with everything scanned once (and watching, unless deferred). */
  static async open(options: ViewerOptions): Promise<Viewer> {
    const viewer = await Viewer.create(options);
    await viewer.load();
    return viewer;
  }

  /**
   * A viewer with its caches restored and nothing scanned yet. The server can be built on it while
   * load() runs: routes only read the stores when a request comes, and the CLI listens after `loaded`.
   */
  static async create(options: ViewerOptions): Promise<Viewer> {
    const projectsDir = path.join(options.claudeDir, 'projects');
    const workers = new ScanWorkers(options.logger);
    const indexOptions = { projectsDir, logger: options.logger, workers };
    const cache = options.cacheDir ? new SessionIndexCache(options.cacheDir, projectsDir, options.logger) : null;
    const planCache = options.cacheDir ? new PlanCache(options.cacheDir, options.claudeDir, options.logger) : null;
    const restored = (await cache?.load(indexOptions)) ?? null;
    options.trace?.('session index restored');
    // On a large home without a usable index the workers do the first scan: they boot while the plan
    // cache is read and the server is built. A restored index only needs lstats (see SessionIndex).
    if (restored === null && refreshesInWorkers(projectsDir)) workers.prestart();
    const sessions = restored ?? new SessionIndex(indexOptions);
    const viewer = new Viewer(options, sessions, cache, planCache, workers);
    const saved = planCache?.load();
    viewer.plans.restore(saved?.facts ?? [], saved?.list ?? null);
    options.trace?.('caches loaded');
    return viewer;
  }

  private markLoaded: () => void = () => undefined;
  /** Whether load() has scanned everything: until then the stores may hold only part of the home. */
  isLoaded = false;
  /** Resolves once load() has scanned everything (for routes that prepare answers ahead of requests). */
  readonly loaded = new Promise<void>((resolve) => {
    this.markLoaded = resolve;
  });

  /**
   * Scans everything once, then starts watching (unless deferred). The logs are read by worker threads
   * while this thread reads the plans: the shared plans folder needs no session data, and the folders
   * that project settings add are read once the sessions name their projects.
   */
  async load(): Promise<void> {
    const trace = this.options.trace ?? ((): void => undefined);
    // A restart that finds nothing moved since the caches were saved takes them as they are (a stat per
    // file); otherwise the scan below brings them up to date.
    const sessionsCurrent = this.sessions.confirmRestored();
    if (sessionsCurrent && this.plans.adoptRestored(await this.planFolders())) {
      trace('caches confirmed');
    } else {
      // With a cached index this reads only what was appended since the last run.
      const sharedPlans = this.planFolders([]).then(async (folders) => {
        await this.plans.rescan(folders);
        this.plans.prepareOrder();
      });
      this.scanWorkers.joinAfter(sharedPlans);
      const scanned = sessionsCurrent ? Promise.resolve(false) : this.sessions.refresh();
      scanned.catch(() => undefined);
      await sharedPlans;
      trace('shared plans read');
      await scanned;
      trace('sessions scanned');
      await this.plans.addFolders(await this.planFolders());
      trace('project plans read');
    }
    this.sessionsUnsaved = true;
    this.plansUnsaved = true;
    this.scheduleCacheSave(FIRST_SAVE_DELAY_MS);
    this.isLoaded = true;
    this.markLoaded();
    if (!this.options.deferWatch) void this.startWatching();
  }

  /**
   * Resolves once every watcher has crawled its folders and a catch-up pass has picked up what changed
   * during the crawl. The service answers before that: on a large home the crawl sets up ~1,700
   * directory watches (a few hundred ms), and nothing it finds is needed for the first answers.
   */
  watching: Promise<void> = Promise.resolve();

  private watchStarted = false;

  /** Starts the watchers and background work (once); `watching` resolves when they are ready and caught up. */
  startWatching(): Promise<void> {
    if (!this.watchStarted) {
      this.watchStarted = true;
      this.plans.startSearchPrep();
      this.watching = this.watchNow();
    }
    return this.watching;
  }

  private async watchNow(): Promise<void> {
    if (!this.watchers) return;
    try {
      await this.watchers.start(this.plans.folderList);
      if (this.closed) return void (await this.watchers.close());
      await this.rescanAll();
    } catch (error) {
      this.options.logger.warn(`file watching could not start: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  onEvent(listener: (event: ViewerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private refreshing: Promise<{ before: number; after: number }> | null = null;

  /**
   * POST /api/refresh: everything from disk now, both caches dropped. Calls that arrive while one runs
   * share its result instead of queueing full rescans behind each other.
   */
  refresh(): Promise<{ before: number; after: number }> {
    this.refreshing ??= this.refreshNow().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refreshNow(): Promise<{ before: number; after: number }> {
    const before = this.plans.count;
    await this.sessionQueue.run(() => this.sessions.refresh());
    this.sessionsUnsaved = true;
    this.scheduleCacheSave();
    const folders = await this.planFolders();
    await this.planQueue.run(() => this.plans.rescan(folders));
    await this.watchers?.setPlanFolders(folders);
    this.memoryChanged();
    return { before, after: this.plans.count };
  }

  /**
   * A listed plan's file, open for its content (the caller closes it), or null. When the file is not the
   * version the listing shows (saved since, and the watcher has not said so yet), the listing is brought
   * up to date first: once a client has the new bytes, no other answer shows the old title or counts.
   */
  async openPlan(filename: string): Promise<OpenedPlan | null> {
    // A few tries: a file rewritten again while its record was being updated is opened anew.
    for (let attempt = 0; ; attempt++) {
      const opened = await this.plans.open(filename);
      if (opened === null) {
        // Listed but gone or unreadable now: the listing drops it before anyone is told it is missing.
        const filepath = this.plans.pathOf(filename);
        if (filepath !== null) await this.updatePlanNow(filepath, 0);
        return null;
      }
      if (this.plans.describes(filename, opened.stats)) return opened;
      await this.updatePlanNow(opened.record.filepath, opened.stats.size);
      if (this.plans.describes(filename, opened.stats) || attempt === 2) return opened;
      await opened.handle.close().catch(() => undefined);
    }
  }

  /**
   * Re-reads one plan for a request that is waiting. A small plan is read and applied in one synchronous
   * step, so it need not wait in the queue behind a rescan; a large one is measured over several turns of
   * the event loop and takes its turn in the queue like any other update.
   */
  private async updatePlanNow(filepath: string, size: number): Promise<void> {
    if (size > LARGE_FILE_BYTES) await this.planPathChanged(filepath);
    else await this.plans.updatePath(filepath);
  }

  /** A plan folder reported one path. */
  planPathChanged(filepath: string): Promise<void> {
    return this.planQueue.run(async () => void (await this.plans.updatePath(filepath)));
  }

  /**
   * A plan folder appeared or vanished as a whole, or may have lost watcher events: re-list just that
   * folder (with onlyIfListingChanged, only when its file names differ from the known ones).
   */
  planFolderChanged(dir: string, onlyIfListingChanged = false): Promise<void> {
    return this.planQueue.run(async () => void (await this.plans.rescanFolder(dir, onlyIfListingChanged)));
  }

  /** A session log grew, appeared or vanished. */
  async logChanged(filepath: string | null): Promise<void> {
    const before = this.sessions.knownCwds();
    const foldersBefore = projectsSignature(this.sessions.projectFolders());
    const changed = await this.sessionQueue.run(() =>
      filepath === null ? this.sessions.refresh() : this.sessions.updateFile(filepath));
    this.sessionsUnsaved = true;
    this.scheduleCacheSave();
    if (!changed) return;
    const cwds = this.sessions.knownCwds();
    if (!sameList(before, cwds) || projectsSignature(this.sessions.projectFolders()) !== foldersBefore) {
      // New cwds can bring new plansDirectory folders and repo-level memory settings. Looking for them
      // reads settings files of every project, so only when the set of projects moved, not on every
      // new link (a plan being written in a known project is the common case).
      const folders = await this.planFolders(cwds);
      await this.planQueue.run(() => this.plans.addFolders(folders));
      await this.watchers?.setPlanFolders(folders);
      this.memoryChanged();
    }
    await this.planQueue.run(async () => this.plans.linksChanged());
  }

  /** Any memory file or memory setting changed: the next listing is read fresh. */
  memoryChanged(): void {
    this.memory.invalidate();
    this.emit({ type: 'memory' });
  }

  /** Periodic full pass used when a watcher failed (ENOSPC, EMFILE): slower, but nothing goes stale. */
  async rescanAll(): Promise<void> {
    await this.logChanged(null);
    const folders = await this.planFolders();
    await this.planQueue.run(() => this.plans.rescan(folders));
    this.memoryChanged();
  }

  private closed = false;

  /**
   * Stops watching and search preparation and saves what is unsaved. It does not wait for the watchers'
   * crawl still under way: that runs on unref'd timers, and once the server has closed nothing keeps the
   * process alive for it, so waiting could leave the caches unsaved.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.plans.close();
    await this.watchers?.close();
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
      await this.saveCaches();
    }
    this.listeners.clear();
    await this.scanWorkers.close();
  }

  private saveDue = Infinity;

  /** Saves the caches in `delayMs`, or sooner if a save is already due sooner. */
  private scheduleCacheSave(delayMs = CACHE_SAVE_DELAY_MS): void {
    if (!this.indexCache && !this.planCache) return;
    const due = performance.now() + delayMs;
    if (this.saveTimer) {
      if (due >= this.saveDue) return;
      clearTimeout(this.saveTimer);
    }
    this.saveDue = due;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.saveDue = Infinity;
      void this.saveCaches();
    }, delayMs);
    this.saveTimer.unref();
  }

  private sessionsUnsaved = false;
  private plansUnsaved = false;

  /** Saves whichever cache changed since it was last saved. */
  private async saveCaches(): Promise<void> {
    if (this.sessionsUnsaved) {
      this.sessionsUnsaved = false;
      await this.sessionQueue.run(async () => this.indexCache?.save(this.sessions));
    }
    if (this.plansUnsaved) {
      this.plansUnsaved = false;
      await this.planQueue.run(async () => this.planCache?.save(this.plans.saved()));
    }
  }

  /** The plan folders: the shared one and every known project's plansDirectory (or only those of `cwds`). */
  private async planFolders(cwds: string[] = this.sessions.knownCwds()): Promise<string[]> {
    const folders = await discoverPlanFolders(this.options.claudeDir, cwds, this.options.logger);
    return folders.map((f) => f.dir);
  }

  private emit(event: ViewerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.options.logger.warn(`event listener failed: ${String(error)}`);
      }
    }
  }
}

/** Project folders and their cwds, which memory sources are named after. */
function projectsSignature(folders: readonly { key: string; cwd: string | null }[]): string {
  return JSON.stringify(folders.map((f) => [f.key, f.cwd]));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

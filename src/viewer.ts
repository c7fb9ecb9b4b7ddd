// The running viewer: session index, plan store and memory store over one claude dir, kept fresh by
// watchers. This is the seam between the domain and its users (HTTP, CLI, benchmark); it knows no HTTP.
//
// Start-up, in order (the CLI builds the server between 1 and 2, and listens while 2 runs):
//   1. restore  (create)           the persisted state (persisted.ts): session index, plan facts, saved list
//   2. confirm  (confirmRestored)  nothing moved on disk since it was saved (a stat per file, on a worker
//                                  for a large home, while the CLI builds the server): take it as is
//   3. scan     (scan)             otherwise bring it up to date: the logs (on worker threads, only bytes
//                                  appended since the last run) while this thread reads the shared plans
//                                  folder, then the plans folders the sessions name
//   4. publish  (publish)          requests held until now are answered; the state is saved 2 s later;
//                                  the watchers start (at once, or when the CLI says it is serving)
import path from 'node:path';
import { Finder, SEARCH_PARTS } from './domain/find/finder.js';
import { TranscriptAnswers } from './transcriptAnswers.js';
import { savedIndexFile } from './domain/find/savedIndex.js';
import { HistoryKeeper } from './domain/history/historyKeeper.js';
import { LARGE_FILE_BYTES } from './domain/largeFiles.js';
import { MemoryCare } from './domain/memory/care/memoryCare.js';
import { MemoryStore } from './domain/memory/memoryStore.js';
import { MemoryHistory } from './domain/memory/history/memoryHistory.js';
import { DEFAULT_HISTORY_LIMIT_BYTES, ObservedVersions } from './domain/history/observedVersions.js';
import { createHash } from 'node:crypto';
import { PersistedState } from './domain/persisted.js';
import { discoverPlanFolders } from './domain/plans/planFolders.js';
import { PlanStore, type OpenedPlan, type PlanChange } from './domain/plans/planStore.js';
import { ScanWorkers } from './domain/sessions/scanWorkers.js';
import { refreshesInWorkers } from './domain/sessions/indexHelpers.js';
import { SessionIndex } from './domain/sessions/sessionIndex.js';
import type { Logger } from './domain/types.js';
import { restoreArchivedPlan, type RestoreOutcome } from './domain/history/restorePlan.js';
import { KeptLogs } from './domain/transcripts/keptLogs.js';
import { Watchers } from './watch/watchers.js';
import { PendingNames } from './domain/pendingNames.js';
import { PromptHistory } from './domain/promptHistory/promptHistory.js';

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
  /** Where memory fixes keep their undo records and the trash (null: fixes can be previewed, not applied). */
  careDir?: string | null;
  /** --read-only: nothing is ever written to the user's files. */
  readOnly?: boolean;
  /** Age in days after which a topic whose session is gone is stale (default 90). */
  staleDays?: number;
  /** Bound of the observed plan versions kept under the cache dir (default 200 MB). */
  historyLimitBytes?: number;
  /**
   * Whether the spec's literal plan search (GET /api/search) is served (default true): its filters are then
   * built first at start, before plan history and the find index. The MCP server and the export do not
   * serve it, and an agent waits for the find index: they pass false, and the filters are never built.
   */
  literalSearch?: boolean;
}

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
  /** Memory health and the fixes that write to memory files. */
  readonly care: MemoryCare;
  /** Plans' stories, the archive and session cards (domain/history/). */
  readonly history: HistoryKeeper;
  /** Memory files' versions, blame and archive (domain/memory/history/). */
  readonly memoryHistory: MemoryHistory;
  /** The ranked search over plans, memory and sessions (domain/find/), built in the background. */
  readonly finder: Finder;
  /** ~/.claude/history.jsonl, read when asked for (a stat tells whether it moved). */
  readonly prompts: PromptHistory;
  /** The viewer's copies of idle transcripts, which keep a session readable once Claude Code deletes its log. */
  readonly kept: KeptLogs;
  /** What the transcripts answer beyond plan history: outcomes, session cards and pages, costs, retention. */
  readonly answers: TranscriptAnswers;
  private readonly watchers: Watchers | null;
  private readonly listeners = new Set<(event: ViewerEvent) => void>();
  private readonly planQueue = new SerialQueue();
  private readonly sessionQueue = new SerialQueue();

  private constructor(
    readonly options: ViewerOptions,
    sessions: SessionIndex,
    private readonly persisted: PersistedState,
    private readonly scanWorkers: ScanWorkers,
    kept: KeptLogs,
  ) {
    this.sessions = sessions;
    this.kept = kept;
    this.prompts = new PromptHistory(path.join(options.claudeDir, 'history.jsonl'));
    const literalSearch = options.literalSearch !== false;
    this.plans = new PlanStore(this.sessions, options.logger, { deferSearchPrep: options.deferWatch === true || !literalSearch });
    const literalSearchFirst = (): Promise<void> => (literalSearch ? this.plans.searchPrepared() : Promise.resolve());
    this.history = new HistoryKeeper({
      claudeDir: options.claudeDir, cacheDir: options.cacheDir ?? null, historyLimitBytes: options.historyLimitBytes,
      plans: this.plans, sessions: this.sessions, changed: () => persisted.changed('history'),
      // An agent's first search goes before the first look at every plan (which the archive does not need).
      after: () => (literalSearch ? this.plans.searchPrepared() : this.finder.built),
    });
    persisted.connect(
      {
        sessions: () => this.sessions,
        plans: () => this.plans.saved(),
        history: () => ({ save: () => {
          this.history.save();
          this.memoryHistory.save();
        } }),
      },
      { sessions: (save) => this.sessionQueue.run(save), plans: (save) => this.planQueue.run(save), history: (save) => save() },
    );
    this.memory = new MemoryStore({
      claudeDir: options.claudeDir,
      homeDir: options.homeDir,
      projects: () => this.sessions.projectFolders(),
      logger: options.logger,
    });
    const homeKey = homeKeyOf(options.claudeDir);
    this.memoryHistory = new MemoryHistory({
      claudeDir: options.claudeDir, sessions: this.sessions, memory: this.memory,
      observed: new ObservedVersions(options.cacheDir ? path.join(options.cacheDir, `memory-history-${homeKey}`) : null, options.historyLimitBytes ?? DEFAULT_HISTORY_LIMIT_BYTES),
      changed: () => persisted.changed('history'),
    });
    this.answers = new TranscriptAnswers({
      claudeDir: options.claudeDir, sessions: this.sessions, plans: this.plans, memory: this.memory, history: this.history,
      memoryHistory: this.memoryHistory, prompts: this.prompts, kept: this.kept,
      transcriptsReady: () => this.transcriptsReady, keptSettled: () => this.keptSettled(),
    });
    this.care = new MemoryCare({
      store: this.memory,
      careDir: options.careDir ?? null,
      readOnly: options.readOnly ?? false,
      staleDays: options.staleDays,
      sessionKnown: (id) => this.sessions.cwdForSession(id) !== null,
      changed: () => this.memoryChanged(),
      wrote: (files) => this.memoryHistory.viewerWrote(files),
    });
    // The spec's plan search is exact without its filters but reads every plan: they are built before the
    // plan history and the find index, which take far longer on a heavy home.
    this.finder = new Finder({
      plans: this.plans, memory: this.memory, history: this.history, logger: options.logger,
      // A restored index's first pass only checks stamps: it need not give way to the plan search's build.
      after: async (restored) => {
        if (!restored) await literalSearchFirst();
      },
      sessionsReady: () => this.searchFactsReady,
      saved: options.cacheDir ? savedIndexFile(options.cacheDir, options.claudeDir) : null,
      trace: options.trace,
    });
    this.plans.onChange((change) => {
      this.persisted.changed('plans');
      this.finder.plansChanged(change);
      this.history.planChanged(change);
      this.emit({ type: 'plans', ...change });
    });
    this.watchers = options.watch === false ? null : new Watchers(this, options.logger);
    this.kept.onDropped((files) => {
      this.copiesDropping = this.copiesDropping.then(async () => {
        const changed = await this.sessionQueue.run(() => this.sessions.copiesDropped(files));
        this.persisted.changed('sessions');
        if (changed) await this.planQueue.run(async () => this.plans.linksChanged());
      }).catch(() => undefined);
    });
  }

  /** Reads the logs the index does not hold that are gone from disk but kept, from their copies. */
  private async adoptCopies(): Promise<void> {
    const copies = await this.kept.goneCopies((file) => this.sessions.logFacts(file) !== null);
    if (copies.length === 0 || !(await this.sessionQueue.run(() => this.sessions.adoptCopies(copies)))) return;
    this.persisted.changed('sessions');
    await this.planQueue.run(async () => this.plans.linksChanged());
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
    // Only the server keeps copies (the agent's process, which serves no literal search, reads them).
    const kept = new KeptLogs({
      dir: options.cacheDir ? path.join(options.cacheDir, `kept-logs-${homeKeyOf(options.claudeDir)}`) : null,
      limitBytes: options.historyLimitBytes ?? DEFAULT_HISTORY_LIMIT_BYTES,
      writable: options.literalSearch !== false,
      logger: options.logger,
    });
    const indexOptions = { projectsDir, logger: options.logger, workers, kept };
    const persisted = new PersistedState(options.cacheDir ?? null, options.claudeDir, projectsDir, options.logger);
    const restored = await persisted.restoreSessions(indexOptions);
    options.trace?.('session index restored');
    // On a large home without a usable index the workers do the first scan: they boot while the plan
    // cache is read and the server is built. A restored index only needs lstats (see SessionIndex).
    // A restored index of a large home is confirmed on a worker: it boots while the plan cache is read.
    if (restored === null ? refreshesInWorkers(projectsDir) : restored.confirmsInWorker) workers.prestart();
    const viewer = new Viewer(options, restored ?? new SessionIndex(indexOptions), persisted, workers, kept);
    const saved = persisted.restorePlans();
    viewer.plans.restore(saved.facts, saved.list);
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

  /** Steps 2 to 4 of the start-up (see the top of this file). */
  async load(): Promise<void> {
    const sessionsCurrent = await this.sessions.confirmRestored();
    if (sessionsCurrent && this.plans.adoptRestored(await this.planFolders())) this.trace('caches confirmed');
    else await this.scan(sessionsCurrent);
    this.publish();
  }

  /**
   * Step 3: the logs are read by worker threads while this thread reads the plans: the shared plans folder
   * needs no session data, and the folders that project settings add are read once the sessions name
   * their projects. With a restored index only what was appended since the last run is read.
   */
  private async scan(sessionsCurrent: boolean): Promise<void> {
    const sharedPlans = this.planFolders([]).then(async (folders) => {
      await this.plans.rescan(folders);
      this.plans.prepareOrder();
    });
    this.scanWorkers.joinAfter(sharedPlans);
    const scanned = sessionsCurrent ? Promise.resolve(false) : this.sessions.refresh();
    scanned.catch(() => undefined);
    await sharedPlans;
    this.trace('shared plans read');
    await scanned;
    this.trace('sessions scanned');
    await this.plans.addFolders(await this.planFolders());
    this.trace('project plans read');
  }

  /**
   * Resolves once every log's facts are at hand (after load(); a restore parses them in the background
   * after the first answers): what answers from the transcripts' facts (plan history, session cards, the
   * outcome) waits for it, so that none is built on part of them.
   */
  transcriptsReady: Promise<void> = this.loaded;

  /**
   * Resolves once the facts the ranked search's sessions and archive are made of (SEARCH_PARTS) are at hand
   * for every log: the rest, the work after plans above all, is parsed after them (docs/decisions.md, D66).
   */
  searchFactsReady: Promise<void> = this.loaded;

  /** Step 4. */
  private publish(): void {
    this.persisted.changed('sessions', true);
    this.persisted.changed('plans', true);
    this.isLoaded = true;
    this.markLoaded();
    this.searchFactsReady = this.sessionQueue.run(() => this.sessions.completeRestore(SEARCH_PARTS)).catch(() => undefined)
      // The copies of gone logs are opened before anything reads their lines; an unreadable one takes its facts along.
      .then(() => this.kept.openGone()).then(() => this.copiesDropping)
      // An index built anew (a cleared cache, new rules) never saw the kept logs go: their facts come from the copies.
      .then(() => this.adoptCopies()).catch(() => undefined);
    // An agent's process has one thing to do first, its search (see startWatching()).
    const searchFirst = this.options.literalSearch === false && !this.options.deferWatch ? () => this.finder.built : () => undefined;
    this.transcriptsReady = this.searchFactsReady.then(searchFirst)
      .then(() => this.sessionQueue.run(() => this.sessions.completeRestore())).catch(() => undefined)
      .then(() => this.trace('transcripts\' facts ready'));
    if (!this.options.deferWatch) void this.startWatching();
  }

  private trace(phase: string): void {
    this.options.trace?.(phase);
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
      if (this.options.literalSearch !== false) this.plans.startSearchPrep();
      void this.history.start();
      this.finder.start();
      // The copies wait for the heavy work of a start (the find index is the last): no pass competes with it.
      void Promise.all([this.transcriptsReady, this.finder.built]).then(() => this.startKeeping(), () => undefined);
      // An agent (MCP, which serves no literal search) waits for the find index first: the first look at
      // every memory file and the watchers' crawl and catch-up pass share its thread only after that.
      const first = this.options.literalSearch === false ? this.finder.built : Promise.resolve();
      this.watching = first.then(async () => {
        if (this.closed) return;
        this.observeMemory();
        await this.watchNow();
      });
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

  private keepTimer: NodeJS.Timeout | null = null;
  private copiesDropping: Promise<void> = Promise.resolve();

  /**
   * Copies idle logs in the background (KeptLogs): once now, a minute after logs changed, and every ten
   * minutes (a log becomes idle without any event). A copy dropped (the bound, or found unreadable) of a
   * log gone from disk takes that log's facts along.
   */
  private startKeeping(): void {
    if (!this.kept.keeping || this.closed) return;
    const pass = (): void => void this.keepNow();
    pass();
    this.keepTimer = setInterval(pass, KEEP_PASS_MS).unref();
    let soon: NodeJS.Timeout | null = null;
    this.sessions.onLogsChanged(() => {
      soon ??= setTimeout(() => {
        soon = null;
        pass();
      }, KEEP_AFTER_CHANGE_MS).unref();
    });
  }

  /** A pass over the logs now (tests call it rather than wait): copies what is idle and not kept yet. */
  async keepNow(): Promise<void> {
    if (this.closed) return;
    await this.kept.keepIdle(() => this.sessions.logTimes());
    await this.copiesDropping;
  }

  /** Resolves once no kept copy is being opened and no dropped copy's facts are being let go. */
  async keptSettled(): Promise<void> {
    await this.transcriptsReady;
    await this.kept.settled();
    await this.copiesDropping;
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
    this.persisted.changed('sessions');
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

  /** An archived plan's last version written back into its plans folder (restorePlan.ts). */
  restoreArchived(filename: string, versionId: string): Promise<RestoreOutcome> {
    return restoreArchivedPlan({
      stories: this.history.stories,
      readOnly: this.options.readOnly ?? false,
      written: (filepath) => this.planPathChanged(filepath),
    }, filename, versionId);
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
    this.persisted.changed('sessions');
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

  /**
   * A memory file or memory setting changed: the next listing is read fresh. `files` (absolute paths,
   * from the watchers) names what changed, so the ranked search and the observed versions look at those
   * files again and not at every one; null (a setting, a fix, a rescan) looks at all.
   */
  memoryChanged(files: readonly string[] | null = null): void {
    this.memory.invalidate();
    this.finder.memoryChanged(files);
    if (this.watchStarted) this.observeMemory(files);
    this.emit({ type: 'memory' });
  }

  private memoryObserving: Promise<void> | null = null;
  private memoryObserveAgain = false;
  /** The files the next observing pass looks at; null: all of them (the first pass, or a change nobody named). */
  private readonly memoryToObserve = new PendingNames();

  /**
   * Keeps what is on disk of every memory file as an observed version (a hand edit or Auto Dream leaves no
   * tool call): once after start, then after each change; changes during a pass make one pass more.
   */
  private observeMemory(files: readonly string[] | null = null): void {
    this.memoryToObserve.add(files);
    if (this.memoryObserving !== null) {
      this.memoryObserveAgain = true;
      return;
    }
    this.memoryObserving = (async () => {
      do {
        this.memoryObserveAgain = false;
        const only = this.memoryToObserve.take();
        await this.memoryHistory.observeAll(only).catch(() => undefined);
      } while (this.memoryObserveAgain && !this.closed);
      this.memoryObserving = null;
    })();
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
    this.history.stop();
    if (this.keepTimer !== null) clearInterval(this.keepTimer);
    await this.kept.close();
    await this.finder.stop();
    await this.watchers?.close();
    // A pass over the memory files writes observed contents under the cache dir: done before the last save.
    await this.memoryObserving;
    await this.persisted.flush();
    this.listeners.clear();
    await this.scanWorkers.close();
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

/** Between two passes that copy idle logs, and from a change of logs to the next pass. */
const KEEP_PASS_MS = 10 * 60 * 1000;
const KEEP_AFTER_CHANGE_MS = 60 * 1000;

/** Names a home's folders under the cache dir. */
function homeKeyOf(claudeDir: string): string {
  return createHash('sha256').update(path.resolve(claudeDir)).digest('hex').slice(0, 16);
}

/** Project folders and their cwds, which memory sources are named after. */
function projectsSignature(folders: readonly { key: string; cwd: string | null }[]): string {
  return JSON.stringify(folders.map((f) => [f.key, f.cwd]));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

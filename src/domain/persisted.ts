// Everything the viewer derives and keeps between runs, in one place: the session index (each log's read
// offset and facts), the plan facts with the list last served, and the transcripts' plan story facts (the
// observed versions of plans, which are not derived but seen, keep their own store: history/observedVersions.ts). Each lives in a cache file of the user's
// cache dir (cacheFile.ts: written atomically, marked with the derivation rules' version, see
// derivation.ts); a restart restores them, and changes are saved soon after start and then at most once a
// minute. New derived data joins here: a restore, a save, and its facts under the same version.
import { PlanCache, type SavedPlans } from './plans/planCache.js';
import { SessionIndexCache } from './sessions/indexCache.js';
import type { SessionIndex, SessionIndexOptions } from './sessions/sessionIndex.js';
import type { Logger } from './types.js';

// A save costs a full serialization (tens of ms for a heavy home): at most once a minute while a session
// keeps appending. A crash loses nothing: a restart re-reads the logs from the offsets last saved.
const SAVE_DELAY_MS = 60_000;
// After start the caches are saved soon, but not while the first requests are being answered.
const FIRST_SAVE_DELAY_MS = 2000;

export type PersistedKind = 'sessions' | 'plans' | 'history';

/** How to save one kind: its saver runs it inside the queue that serializes that store's updates. */
export type Savers = Record<PersistedKind, (save: () => Promise<void>) => Promise<void>>;

export class PersistedState {
  private readonly index: SessionIndexCache | null;
  private readonly plans: PlanCache | null;
  private readonly unsaved = new Set<PersistedKind>();
  private timer: NodeJS.Timeout | null = null;
  private due = Infinity;
  private saveNow: () => Promise<void> = async () => undefined;

  /** `cacheDir` null: nothing is kept (the demo home, tests): every start derives everything. */
  constructor(cacheDir: string | null, claudeDir: string, projectsDir: string, logger?: Logger) {
    this.index = cacheDir ? new SessionIndexCache(cacheDir, projectsDir, logger) : null;
    this.plans = cacheDir ? new PlanCache(cacheDir, claudeDir, logger) : null;
    this.logger = logger;
  }

  private readonly logger: Logger | undefined;

  /** The session index the last run saved, when its rules and its projects dir are this run's. */
  async restoreSessions(options: SessionIndexOptions): Promise<SessionIndex | null> {
    return (await this.index?.load(options)) ?? null;
  }

  /** The plan facts and list the last run saved (hints: each is used only while its file is unmoved). */
  restorePlans(): SavedPlans {
    return this.plans?.load() ?? { facts: [], list: null };
  }

  /** Where a save takes what it writes from: the stores, through their queues. */
  connect(what: { sessions: () => SessionIndex; plans: () => SavedPlans; history: () => { save(): void } }, savers: Savers): void {
    this.saveNow = async (): Promise<void> => {
      if (this.unsaved.delete('sessions')) await savers.sessions(async () => this.index?.save(what.sessions()));
      if (this.unsaved.delete('plans')) await savers.plans(async () => this.plans?.save(what.plans()));
      // The plans' observed versions (their own store); the transcripts' facts are saved with the session index.
      if (this.unsaved.delete('history')) await savers.history(async () => what.history().save());
    };
  }

  /** Something of this kind changed: saved within a minute (or `soon`, 2 s: after a start). */
  changed(kind: PersistedKind, soon = false): void {
    if (!this.index && !this.plans) return;
    this.unsaved.add(kind);
    const delay = soon ? FIRST_SAVE_DELAY_MS : SAVE_DELAY_MS;
    const due = performance.now() + delay;
    if (this.timer) {
      if (due >= this.due) return;
      clearTimeout(this.timer);
    }
    this.due = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.due = Infinity;
      void this.saveNow();
    }, delay);
    this.timer.unref();
  }

  /** Saves what is unsaved now (at close), if a save was pending. */
  async flush(): Promise<void> {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    await this.saveNow();
  }
}

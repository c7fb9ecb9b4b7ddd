// Keeps plans' history current: the transcripts' plan facts (the session index's one reader keeps them,
// see historyIndex.ts) and the versions the viewer observes of each plan file (every plan once after
// start, then each one a watcher reports). Answers come from `stories` (planHistory.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { withRegularFileSync } from '../files.js';
import { LARGE_FILE_BYTES } from '../largeFiles.js';
import { planLinks } from '../plans/planFile.js';
import type { PlanChange, PlanStore } from '../plans/planStore.js';
import type { SessionIndex } from '../sessions/sessionIndex.js';
import { TimeSlicer } from '../timeSlicer.js';
import { HistoryIndex } from './historyIndex.js';
import { DEFAULT_HISTORY_LIMIT_BYTES, ObservedVersions } from './observedVersions.js';
import { PlanHistory } from './planHistory.js';

export interface HistoryKeeperOptions {
  claudeDir: string;
  /** The viewer's cache dir; null keeps no observed versions (the demo home). */
  cacheDir: string | null;
  historyLimitBytes?: number;
  plans: PlanStore;
  sessions: SessionIndex;
  /** Something worth saving changed (see persisted.ts). */
  changed: () => void;
  /** Work that goes first: start() waits for it before it reads anything. */
  after?: () => Promise<void>;
}

export class HistoryKeeper {
  readonly index: HistoryIndex;
  readonly observed: ObservedVersions;
  readonly stories: PlanHistory;
  private started: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly o: HistoryKeeperOptions) {
    this.index = new HistoryIndex(o.sessions, path.join(o.claudeDir, 'plans'));
    const key = createHash('sha256').update(path.resolve(o.claudeDir)).digest('hex').slice(0, 16);
    this.observed = new ObservedVersions(o.cacheDir === null ? null : path.join(o.cacheDir, `history-${key}`), o.historyLimitBytes ?? DEFAULT_HISTORY_LIMIT_BYTES);
    this.stories = new PlanHistory({ claudeDir: o.claudeDir, plans: o.plans, sessions: o.sessions, history: this.index, observed: this.observed });
  }

  /** The first look at every plan (its content kept as an observed version), in the background (once). */
  start(): Promise<void> {
    this.started ??= (async () => {
      await new TimeSlicer().pause();
      await this.o.after?.();
      await this.observeAll();
    })();
    return this.started;
  }

  /** Whether the first look at every plan is done (the transcripts' facts are complete once the viewer has loaded). */
  get ready(): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  stop(): void {
    this.stopped = true;
  }

  /**
   * Plans changed on disk: their new contents are observed, and the removed ones marked gone, in time
   * slices (a folder of 10,000 plans written at once is one change of 10,000 names).
   */
  planChanged(change: PlanChange): void {
    if (this.started === null || !this.observed.keeping) return;
    for (const name of change.changed) this.pendingChanged.add(name);
    for (const name of change.removed) this.pendingRemoved.add(name);
    if (this.observing) return;
    this.observing = true;
    this.observePending().catch(() => {
      this.observing = false; // nothing is meant to throw there; if it does, the next change starts again
    });
  }

  private readonly pendingChanged = new Set<string>();
  private readonly pendingRemoved = new Set<string>();
  /** observePending() runs; it clears this in the same turn as it finds nothing left, so no name waits unseen. */
  private observing = false;

  private async observePending(): Promise<void> {
    const slicer = await TimeSlicer.inOwnTurn();
    for (;;) {
      if (this.stopped || (this.pendingChanged.size === 0 && this.pendingRemoved.size === 0)) {
        this.observing = false;
        return;
      }
      for (const filename of [...this.pendingChanged]) {
        this.pendingChanged.delete(filename);
        await slicer.maybeYield();
        const filepath = this.o.plans.pathOf(filename);
        if (filepath !== null) this.observe(filepath);
      }
      if (this.pendingRemoved.size === 0) continue;
      const removed = new Set(this.pendingRemoved);
      this.pendingRemoved.clear();
      for (const filepath of this.observed.paths()) {
        const name = path.basename(filepath);
        if (removed.has(name) && this.o.plans.pathOf(name) !== filepath) this.observed.gone(filepath);
      }
      this.o.changed();
    }
  }

  /** Writes the observed versions' index when it changed. */
  save(): void {
    this.observed.save();
  }

  private async observeAll(): Promise<void> {
    if (!this.observed.keeping) return;
    const slicer = new TimeSlicer();
    for (const plan of this.o.plans.list()) {
      if (this.stopped) return;
      await slicer.maybeYield();
      this.observe(plan.filepath);
    }
    // Plans the viewer saw before and that are gone now.
    const listed = new Set(this.o.plans.list().map((p) => p.filepath));
    for (const filepath of this.observed.paths()) if (!listed.has(filepath)) this.observed.gone(filepath);
    this.o.changed();
  }

  /** Reads a plan and keeps its content if it is new; a large plan is not kept (its writes still are). */
  private observe(filepath: string): void {
    const file = withRegularFileSync(filepath, (fd, stats) => (stats.size > LARGE_FILE_BYTES ? null : { bytes: readFileSync(fd), mtimeMs: stats.mtimeMs }), planLinks);
    if (file !== null && this.observed.observe(filepath, file.bytes, file.mtimeMs)) this.o.changed();
  }
}

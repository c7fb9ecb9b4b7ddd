// The in-memory plan catalogue: every plan file of every plans folder, kept current file by file.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { lstatOrNull, openRegularFile, readOpenedText } from '../files.js';
import { followLink } from '../linkPolicy.js';
import { foldCase } from '../fold.js';
import { piecesContain, textPieces } from '../largeFiles.js';
import { buildTrigramBloom, mayContain, queryTrigrams } from '../search/trigramBloom.js';
import { nextSliceTurn, SLICE_MS } from '../timeSlicer.js';
import type { Logger, PlanMetadata } from '../types.js';
import {
  foldedText, isLargePlan, isPlanFileName, planFacts, planLinks, readPlanFile, recordFromFacts, type PlanFacts, type PlanFileRecord,
} from './planFile.js';
import { listPlanPaths, readAll, restoredRecords, sameText } from './planReads.js';
import { listedFields, planListJson } from './planListJson.js';
import { linkedProjects, linksHold, planLink, saveList, type PlanLinker, type SavedList } from './savedList.js';

export type { PlanLinker } from './savedList.js';

export interface PlanChange {
  changed: string[];
  removed: string[];
}

/** A listed plan's file, opened for reading its content: the caller closes `handle`. */
export interface OpenedPlan {
  record: PlanFileRecord;
  handle: FileHandle;
  stats: Stats;
}

export class PlanStore {
  /** Keyed by absolute path: two folders may hold the same file name. */
  private readonly files = new Map<string, PlanFileRecord>();
  /** Restored records not yet confirmed against the disk (each is used at most once). */
  private readonly hints = new Map<string, PlanFileRecord>();
  private folders: string[] = [];
  private listCache: PlanMetadata[] | null = null;
  /** JSON of list() as of a version (see listJson()), and its saved form once made. */
  private listJsonCache: { version: number; json: Buffer; links: (string | null)[]; saved: SavedList | null } | null = null;
  /** The list a restored cache held, until adoptRestored() decides whether it still holds. */
  private restoredList: SavedList | null = null;
  private byName = new Map<string, PlanFileRecord>();
  /** The records of list(), in its order: what a search walks. */
  private listedRecords: PlanFileRecord[] = [];
  /** The version listedRecords was made at (-1: never). */
  private listedVersion = -1;
  private filterScheduled = false;
  /** Search preparation waits for startSearchPrep() when the owner asked for that (see the constructor). */
  private searchPrepStarted: boolean;
  private readonly clashesLogged = new Set<string>();
  private readonly linksLogged = new Set<string>();
  /** A symlink in a plans folder that is not listed (see listPlanPaths): said once per link. */
  private readonly refusedLink = (linkPath: string, reason: string): void => {
    if (this.linksLogged.has(linkPath)) return;
    if (this.linksLogged.size >= 10_000) this.linksLogged.clear();
    this.linksLogged.add(linkPath);
    this.logger?.warn(`not listing the plan ${linkPath}, a symlink: ${reason}`);
  };
  private readonly list_ = (folder: string): string[] => listPlanPaths(folder, this.refusedLink);
  private readonly listeners = new Set<(change: PlanChange) => void>();
  /** Bumped on every visible change; HTTP layers key their serialized bodies on it. */
  version = 0;

  /**
   * With `deferSearchPrep`, folding texts and building search filters waits for startSearchPrep(): at
   * start the server is still being built, and this background work (~0.3 s of CPU for 3,000 plans)
   * would only delay the first answer. Searches are exact either way.
   */
  constructor(
    private readonly linker: PlanLinker,
    private readonly logger?: Logger,
    options: { deferSearchPrep?: boolean } = {},
  ) {
    this.searchPrepStarted = !options.deferSearchPrep;
  }

  startSearchPrep(): void {
    this.searchPrepStarted = true;
    this.scheduleFilters();
  }

  get folderList(): readonly string[] {
    return this.folders;
  }

  onChange(listener: (change: PlanChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Plans known from an earlier run (planCache.ts). The next rescan() keeps each one whose file still has
   * the same size, mtime and inode, without reading it: a restart stats plans instead of reading them.
   */
  restore(known: readonly PlanFacts[], list: SavedList | null = null): void {
    for (const facts of known) this.hints.set(facts.filepath, recordFromFacts(facts));
    this.restoredList = list;
  }

  /** What restore() takes back next run: the listing facts of every plan, and the list when it is built. */
  saved(): { facts: PlanFacts[]; list: SavedList | null } {
    const facts = [...this.files.values()].map(planFacts);
    const cached = this.listJsonCache;
    if (cached?.version !== this.version) return { facts, list: null };
    // The links listJson() recorded for this version (a restored list carries its own).
    cached.saved ??= saveList(cached.links, cached.json);
    return { facts, list: cached.saved };
  }

  /** Replaces the set of folders and reads them all from disk (start-up and POST /api/refresh). */
  async rescan(folders: string[]): Promise<PlanChange> {
    this.restoredList = null;
    this.folders = [...folders];
    const before = new Map(this.files);
    const paths = this.folders.flatMap(this.list_);
    const fresh = await readAll(paths, (p) => before.get(p) ?? this.takeHint(p));
    this.files.clear();
    for (const [file, record] of fresh) if (record) this.files.set(file, record);
    const changed = [...this.files.values()].filter((r) => before.get(r.filepath) !== r).map((r) => r.filename);
    const removed = [...before.values()].filter((r) => !this.files.has(r.filepath)).map((r) => r.filename);
    return this.changed({ changed, removed }, changed.length > 0 || removed.length > 0);
  }

  /**
   * At start, after restore(): when every plan file in `folders` is a restored record whose file did not
   * move, takes them as they are, as rescan() would, and returns true; otherwise changes nothing.
   */
  adoptRestored(folders: string[]): boolean {
    if (this.files.size > 0) return false;
    const records = restoredRecords(folders.flatMap(this.list_), this.hints);
    if (records === null) return false;
    this.folders = [...folders];
    for (const record of records) {
      this.hints.delete(record.filepath);
      this.files.set(record.filepath, record);
    }
    this.changed({ changed: records.map((r) => r.filename), removed: [] }, records.length > 0);
    // Every restored plan is listed as it was: the saved list holds if the session links do.
    const list = this.restoredList;
    this.restoredList = null;
    if (list !== null && this.hints.size === 0 && linksHold(list, this.linker)) {
      this.listJsonCache = { version: this.version, json: list.json, links: list.links, saved: list };
    }
    return true;
  }

  /** Adds the folders not yet known and reads only those (a project's plansDirectory was discovered). */
  async addFolders(folders: string[]): Promise<PlanChange> {
    const added = folders.filter((f) => !this.folders.includes(f));
    if (added.length === 0) return { changed: [], removed: [] };
    this.folders.push(...added);
    const changed: string[] = [];
    for (const [filepath, record] of await readAll(added.flatMap(this.list_), (p) => this.takeHint(p))) {
      if (!record) continue;
      this.files.set(filepath, record);
      changed.push(record.filename);
    }
    return this.changed({ changed, removed: [] }, changed.length > 0);
  }

  /** A folder appeared, vanished, was recreated or lost watcher events: re-list it and reconcile its files. */
  async rescanFolder(folder: string, onlyIfListingChanged = false): Promise<PlanChange> {
    if (!this.folders.includes(folder)) return { changed: [], removed: [] };
    const present = this.list_(folder);
    const known = [...this.files.keys()].filter((f) => path.dirname(f) === folder);
    // The periodic check for lost watcher events compares names first: one readdir when nothing is amiss.
    if (onlyIfListingChanged && present.length === known.length) {
      const names = new Set(present);
      if (known.every((f) => names.has(f))) return { changed: [], removed: [] };
    }
    const paths = [...new Set([...present, ...known])];
    // Read in one pass and publish once: a folder of 10,000 plans is one change, not 10,000 in a row (each
    // of which made every client rebuild the whole list). Unmoved files (same size and mtime) are not read.
    const read = await readAll(paths, (p) => this.files.get(p));
    const changed: string[] = [];
    const removed: string[] = [];
    for (const [filepath, record] of read) {
      const previous = this.files.get(filepath);
      if (record) {
        this.files.set(filepath, record);
        if (record !== previous) changed.push(record.filename);
      } else if (previous) {
        this.files.delete(filepath);
        removed.push(previous.filename);
      }
    }
    // A removed name that another folder still holds is a change of that plan, not a removal.
    const names = new Set([...this.files.values()].map((r) => r.filename));
    changed.push(...removed.filter((name) => names.has(name)));
    const gone = removed.filter((name) => !names.has(name));
    return this.changed({ changed, removed: gone }, changed.length > 0 || gone.length > 0);
  }

  /** One path changed on disk (watcher): re-read just that file, or forget it when it is gone. */
  async updatePath(filepath: string): Promise<PlanChange> {
    if (!this.folders.includes(path.dirname(filepath)) || !isPlanFileName(path.basename(filepath))) {
      return { changed: [], removed: [] };
    }
    const previous = this.files.get(filepath);
    const read = readPlanFile(filepath);
    const record = read instanceof Promise ? await read : read;
    // A symlink is only read through planLinks; one that may not be followed is not a plan.
    if (record) {
      this.files.set(filepath, record);
      const same = previous !== undefined && previous.modifiedMs === record.modifiedMs && previous.size === record.size &&
        sameText(previous, record);
      return this.changed({ changed: [record.filename], removed: [] }, !same);
    }
    if (lstatOrNull(filepath)?.isSymbolicLink()) {
      const followed = followLink(filepath, path.dirname(filepath), 'file');
      if ('refused' in followed) this.refusedLink(filepath, followed.refused);
    }
    if (!previous) return { changed: [], removed: [] };
    this.files.delete(filepath);
    // Another folder may hold a plan of the same name. A scan, not pick(): rebuilding and sorting the whole
    // list on every removal made deleting 10,000 plans quadratic (tens of seconds of saturated CPU).
    // (With a single folder no other plan can have the name: the usual case skips the scan.)
    let stillListed = false;
    if (this.folders.length > 1) {
      for (const record of this.files.values()) {
        if (record.filename !== previous.filename) continue;
        stillListed = true;
        break;
      }
    }
    return this.changed(stillListed ? { changed: [previous.filename], removed: [] } : { changed: [], removed: [previous.filename] }, true);
  }

  /** Session links changed: the list must be rebuilt, no file needs reading. */
  linksChanged(): void {
    this.changed({ changed: [], removed: [] }, true);
  }

  /** true once every plan has its search filter (searches are exact either way; this is about speed). */
  get filtersReady(): boolean {
    for (const record of this.files.values()) if (needsFilter(record)) return false;
    return true;
  }

  /** How many plans list() has, without making its objects (the banner asks right after a start). */
  get count(): number {
    return this.listed().length;
  }

  /** Newest first, ties by file name; one entry per file name (the most recently modified wins). */
  list(): PlanMetadata[] {
    this.listCache ??= this.listed().map((r) => this.toMetadata(r));
    return this.listCache;
  }

  /**
   * Puts the plans in list order now (kept until the next change). At start the shared plans folder is
   * read while the logs are still being scanned: sorted then, the list's order is not part of the work
   * left between the end of the scan and the first answer.
   */
  prepareOrder(): void {
    this.listed();
  }

  /** The records list() describes, in its order (kept until the next change). */
  private listed(): PlanFileRecord[] {
    if (this.listedVersion === this.version) return this.listedRecords;
    const byName = new Map<string, PlanFileRecord>();
    for (const record of this.files.values()) {
      const other = byName.get(record.filename);
      if (other) {
        this.logClash(record, other);
        if (other.modifiedMs > record.modifiedMs || (other.modifiedMs === record.modifiedMs && other.filepath < record.filepath)) continue;
      }
      byName.set(record.filename, record);
    }
    this.byName = byName;
    const records = [...byName.values()].sort((a, b) =>
      b.modifiedMs - a.modifiedMs || (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
    this.listedRecords = records;
    this.listedVersion = this.version;
    return records;
  }

  /** list() as JSON, serialized once per version (without making list()'s objects). */
  listJson(): Buffer {
    if (this.listJsonCache?.version !== this.version) {
      // The links as listed are kept for the plan cache (see saved()), which would otherwise look them up again.
      const links: (string | null)[] = [];
      const json = planListJson(this.listed(), this.linker, links);
      this.listJsonCache = { version: this.version, json: Buffer.from(json), links, saved: null };
    }
    return this.listJsonCache.json;
  }

  /** The distinct projects of the listed plans, sorted: from the links listJson() recorded, no list() objects. */
  projects(): string[] {
    this.listJson();
    return linkedProjects(this.listJsonCache!.links);
  }

  /** The listed plan of that file name, if any: the only way a request can name a file. */
  find(filename: string): PlanMetadata | undefined {
    const record = this.pick(filename);
    return record ? this.toMetadata(record) : undefined;
  }

  /**
   * The file of a listed plan, open for reading (null when it is not listed or cannot be opened any more).
   * `stats` is the opened file's: describes() tells whether the listing still shows that version.
   */
  async open(filename: string): Promise<OpenedPlan | null> {
    const record = this.pick(filename);
    if (!record) return null;
    const opened = await openRegularFile(record.filepath, planLinks);
    return opened && { record, ...opened };
  }

  /** The whole content of a listed plan, or null (see open()). */
  async content(filename: string): Promise<string | null> {
    const opened = await this.open(filename);
    return opened && readOpenedText(opened);
  }

  /** Whether the listing's record of a plan is the version `stats` (an fstat of its file) shows. */
  describes(filename: string, stats: Stats): boolean {
    const record = this.pick(filename);
    return record !== undefined && record.size === stats.size && record.modifiedMs === stats.mtimeMs && record.ino === stats.ino;
  }

  /** The path a listed plan is read from, if it is listed. */
  pathOf(filename: string): string | null {
    return this.pick(filename)?.filepath ?? null;
  }

  /**
   * File names of plans whose content contains q, case-insensitively, in list order. Large plans are
   * read a chunk at a time for each search (their text is not kept, see largeFiles.ts).
   */
  async search(q: string): Promise<string[]> {
    if (q.length === 0) return [];
    const needle = foldCase(q);
    const trigrams = queryTrigrams(needle);
    const hits: string[] = [];
    // The records themselves, in listing order: no lookup per plan, and a rare word is ruled out by
    // the filters of nearly all of them.
    for (const record of this.listed()) {
      if (isLargePlan(record)) {
        if (await largePlanContains(record, needle)) hits.push(record.filename);
        continue;
      }
      if (record.bloom && !mayContain(record.bloom, trigrams)) continue;
      if (foldedText(record).includes(needle)) hits.push(record.filename);
    }
    return hits;
  }

  private takeHint(filepath: string): PlanFileRecord | undefined {
    const hint = this.hints.get(filepath);
    this.hints.delete(filepath);
    return hint;
  }

  private pick(filename: string): PlanFileRecord | undefined {
    this.listed();
    return this.byName.get(filename);
  }

  private toMetadata(r: PlanFileRecord): PlanMetadata {
    const link = planLink(this.linker, r.filename);
    return { ...listedFields(r), project: link.project, sessionId: link.sessionId };
  }

  private logClash(a: PlanFileRecord, b: PlanFileRecord): void {
    if (this.clashesLogged.has(a.filename)) return;
    this.clashesLogged.add(a.filename);
    this.logger?.warn(`two plans are named ${a.filename} (${a.filepath}, ${b.filepath}); listing the newer one`);
  }

  /**
   * Prepares search for every plan that is not ready: folds its text (reading it first when it was
   * restored from the cache) and builds its trigram filter. Runs in slices of ~10 ms, yielding between
   * them so requests keep being answered; started after every change, a no-op when all are ready. The
   * slices keep the process alive until close() (an unref'd immediate only ran when something else woke
   * the event loop, so on an idle server the filters took minutes instead of ~0.5 s).
   */
  private scheduleFilters(): void {
    if (this.filterScheduled || !this.searchPrepStarted || this.closed) return;
    this.filterScheduled = true;
    // A slice in its turn among the other background work's (see timeSlicer.ts).
    void nextSliceTurn().then(() => {
      this.filterScheduled = false;
      if (this.closed) return;
      const deadline = performance.now() + SLICE_MS;
      for (const record of this.files.values()) {
        if (!needsFilter(record)) continue;
        record.bloom = buildTrigramBloom(foldedText(record));
        if (performance.now() > deadline) return this.scheduleFilters();
      }
      for (const resolve of this.searchReadyWaiters.splice(0)) resolve();
    });
  }

  private closed = false;
  private readonly searchReadyWaiters: (() => void)[] = [];

  /** Resolves once every plan has its search filter (at once when none lacks one). */
  whenSearchReady(): Promise<void> {
    if (this.filtersReady) return Promise.resolve();
    return new Promise((resolve) => {
      this.searchReadyWaiters.push(resolve);
      this.scheduleFilters();
    });
  }

  /** Stops background search preparation. */
  close(): void {
    this.closed = true;
  }

  private changed(change: PlanChange, visible: boolean): PlanChange {
    this.scheduleFilters();
    if (!visible) return change;
    this.listCache = null;
    this.version++;
    for (const listener of this.listeners) listener(change);
    return change;
  }
}

/** Large plans get no filter: their text is read a chunk at a time by each search instead of kept. */
function needsFilter(record: PlanFileRecord): boolean {
  return record.bloom === null && !isLargePlan(record);
}

async function largePlanContains(record: PlanFileRecord, needle: string): Promise<boolean> {
  const opened = await openRegularFile(record.filepath, planLinks);
  if (opened === null) return false;
  try {
    return await piecesContain(textPieces(opened.handle), needle, foldCase);
  } catch {
    return false;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

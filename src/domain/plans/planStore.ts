// The plan catalogue: every plan file of every plans folder (path -> facts), kept current file by file,
// with a version bumped on every visible change and change events. The list and the search are functions
// of it (planListing.ts, planSearch.ts); what a restart takes back is restore()/saved() (planCache.ts).
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { lstatOrNull, openRegularFile, readHeadSync, readOpenedText, type Head } from '../files.js';
import { followLink } from '../linkPolicy.js';
import type { Logger, PlanMetadata } from '../types.js';
import { isPlanFileName, planFacts, planLinks, readPlanFile, recordFromFacts, type PlanFacts, type PlanFileRecord } from './planFile.js';
import { PlanListing } from './planListing.js';
import { listPlanPaths, readAll, restoredRecords, sameText } from './planReads.js';
import { searchPlans, SearchPreparation } from './planSearch.js';
import { listHolds, type PlanLinker, type SavedList } from './savedList.js';

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
  private folders: string[] = [];
  /** Bumped on every visible change; the list, and HTTP layers' serialized bodies, key on it. */
  version = 0;
  private readonly listeners = new Set<(change: PlanChange) => void>();
  private readonly listing: PlanListing;
  private readonly preparation: SearchPreparation;
  /** Restored records not yet confirmed against the disk (each is used at most once). */
  private readonly hints = new Map<string, PlanFileRecord>();
  /** The list a restored cache held, until adoptRestored() decides whether it still holds. */
  private restoredList: SavedList | null = null;
  private readonly linksLogged = new Set<string>();
  /** A symlink in a plans folder that is not listed (see listPlanPaths): said once per link. */
  private readonly refusedLink = (linkPath: string, reason: string): void => {
    if (this.linksLogged.has(linkPath)) return;
    if (this.linksLogged.size >= 10_000) this.linksLogged.clear();
    this.linksLogged.add(linkPath);
    this.logger?.warn(`not listing the plan ${linkPath}, a symlink: ${reason}`);
  };
  private readonly list_ = (folder: string): string[] => listPlanPaths(folder, this.refusedLink);

  /**
   * With `deferSearchPrep`, folding texts and building search filters waits for startSearchPrep(): at
   * start the server is still being built, and this background work would only delay the first answer.
   * Searches are exact either way.
   */
  constructor(
    private readonly linker: PlanLinker,
    private readonly logger?: Logger,
    options: { deferSearchPrep?: boolean } = {},
  ) {
    this.listing = new PlanListing(() => this.files.values(), () => this.version, linker, logger);
    this.preparation = new SearchPreparation(() => this.files.values(), { deferred: options.deferSearchPrep === true });
  }

  startSearchPrep(): void {
    this.preparation.start();
  }

  /** Resolves once the search filters of every plan are built (after startSearchPrep()). */
  searchPrepared(): Promise<void> {
    return this.preparation.whenReady();
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

  /** What restore() takes back next run: the facts of every plan, and the list (its bytes and links). */
  saved(): { facts: PlanFacts[]; list: SavedList } {
    return { facts: [...this.files.values()].map(planFacts), list: this.listing.saved() };
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
    if (list !== null && this.hints.size === 0 && listHolds(list, this.linker)) this.listing.adopt(list);
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
    return this.preparation.ready;
  }

  /** Resolves once every plan has its search filter. */
  whenSearchReady(): Promise<void> {
    return this.preparation.whenReady();
  }

  /** How many plans list() has. */
  get count(): number {
    return this.listing.ordered().length;
  }

  /** Newest first, ties by file name; one entry per file name (the most recently modified wins). */
  list(): PlanMetadata[] {
    return this.listing.list();
  }

  /**
   * Puts the plans in list order now (kept until the next change). At start the shared plans folder is
   * read while the logs are still being scanned: sorted then, the order is not part of the work left
   * between the end of the scan and the first answer.
   */
  prepareOrder(): void {
    this.listing.ordered();
  }

  /** list() as JSON, serialized once per version. */
  listJson(): Buffer {
    return this.listing.json();
  }

  /** The distinct projects of the listed plans, sorted. */
  projects(): string[] {
    return this.listing.projects();
  }

  /** The listed plan of that file name, if any: the only way a request can name a file. */
  find(filename: string): PlanMetadata | undefined {
    const record = this.listing.pick(filename);
    return record ? this.listing.toMetadata(record) : undefined;
  }

  /**
   * The file of a listed plan, open for reading (null when it is not listed or cannot be opened any more).
   * `stats` is the opened file's: describes() tells whether the listing still shows that version.
   */
  async open(filename: string): Promise<OpenedPlan | null> {
    const record = this.listing.pick(filename);
    if (!record) return null;
    const opened = await openRegularFile(record.filepath, planLinks);
    return opened && { record, ...opened };
  }

  /** The first `maxBytes` of a listed plan as text, or null (see open()); synchronous, for short reads. */
  headSync(filename: string, maxBytes: number): Head | null {
    const record = this.listing.pick(filename);
    return record ? readHeadSync(record.filepath, maxBytes, planLinks) : null;
  }

  /** The whole content of a listed plan, or null (see open()). */
  async content(filename: string): Promise<string | null> {
    const opened = await this.open(filename);
    return opened && readOpenedText(opened);
  }

  /** Whether the listing's record of a plan is the version `stats` (an fstat of its file) shows. */
  describes(filename: string, stats: Stats): boolean {
    const record = this.listing.pick(filename);
    return record !== undefined && record.size === stats.size && record.modifiedMs === stats.mtimeMs && record.ino === stats.ino;
  }

  /** The path a listed plan is read from, if it is listed. */
  pathOf(filename: string): string | null {
    return this.listing.pick(filename)?.filepath ?? null;
  }

  /** File names of listed plans whose content contains q, case-insensitively, in list order. */
  search(q: string): Promise<string[]> {
    return searchPlans(this.listing.ordered(), q);
  }

  /** Stops background search preparation. */
  close(): void {
    this.preparation.stop();
  }

  private takeHint(filepath: string): PlanFileRecord | undefined {
    const hint = this.hints.get(filepath);
    this.hints.delete(filepath);
    return hint;
  }

  private changed(change: PlanChange, visible: boolean): PlanChange {
    this.preparation.schedule();
    if (!visible) return change;
    this.version++;
    for (const listener of this.listeners) listener(change);
    return change;
  }
}

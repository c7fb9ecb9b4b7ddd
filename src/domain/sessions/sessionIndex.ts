// The slug -> session -> cwd index over Claude Code's session logs: which session wrote a plan, and which
// project (cwd) each session and each projects/<folder> belongs to. Logs are read incrementally.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TimeSlicer } from '../timeSlicer.js';
import { lstatOrNull } from '../files.js';
import { silentLogger, type Logger } from '../types.js';
import { KeyedLock } from './concurrency.js';
import { GoneLogs, type KeptCopies } from './goneLogs.js';
import { buildView, extendsFacts, patchView, sameView, type IndexView, type TrackedFile } from './indexView.js';
import { candidateSlugs, isDirectory, jobFor, listProjectFolders, WORKER_MIN_FOLDERS } from './indexHelpers.js';
import { discoverLogs, isLogSegments, mayContainLogs, relativeSegments, type DirStamp, type KnownDirs } from './logFiles.js';
import { hasLinks, type LogFacts } from '../transcripts/logFacts.js';
import { restOk, restPending, type PartName } from '../transcripts/savedFacts.js';
import {
  createReadSlot, DEFAULT_CHUNK_BYTES, readLog, readLogInSteps, type ReadResult, type ReadSlot, type TrackedLog,
} from '../transcripts/transcriptReader.js';
import { restoredIsCurrent, type RestoredStamps } from './restoredCheck.js';
import { readInSlices, type FolderState, type ScanWorkers, type SizedJob } from './scanWorkers.js';
import { readSnapshot, writeSnapshot, writeSnapshotInSlices, type IndexSnapshot, type SavedFactsAt, type SnapshotState } from './snapshot.js';

export interface SessionLink {
  sessionId: string;
  cwd: string | null;
}

/** One per folder under <claudeDir>/projects. */
export interface ProjectFolder {
  key: string;
  dir: string;
  cwd: string | null;
}

export interface SessionIndexOptions {
  projectsDir: string;
  logger?: Logger;
  /** Read size per chunk; tests shrink it to cross many chunk boundaries. */
  chunkBytes?: number;
  /** Worker threads for big reads; without them everything is read on the main thread, in slices. */
  workers?: ScanWorkers | null;
  /** Reads of at least this many bytes in one update go to the workers (tests lower it to 0). */
  workerThresholdBytes?: number;
  /** The viewer's copies of logs: a gone log with one keeps its facts (goneLogs.ts). */
  kept?: KeptCopies | null;
}

export interface SessionScanStats {
  /** Bytes read from logs since the index was created. */
  bytesRead: number;
  /** The largest read buffer any log needed (a chunk, or a long line up to the reader's limit). */
  maxHeldBytes: number;
  /** Logs currently tracked. */
  trackedFiles: number;
}

/**
 * Below this, reading on the main thread is cheaper than a round trip to a worker: 8 MB take ~3 ms to
 * copy and scan, and they are read in slices between which requests are answered.
 */
const WORKER_THRESHOLD_BYTES = 8 * 1024 * 1024;
/** A restored index of this many logs is confirmed on a worker (below, the lstats cost less than its start). */
const WORKER_CONFIRM_LOGS = 1000;

/**
 * View stamps made by this process: its own random part and a count, so no two processes (two viewers on
 * one cache, say) ever name different answers alike.
 */
const STAMP_PREFIX = randomBytes(9).toString('base64url');
let stampCount = 0;
const newStamp = (): string => `${STAMP_PREFIX}-${++stampCount}`;

export class SessionIndex {
  private readonly projectsDir: string;
  private readonly logger: Logger;
  private files = new Map<string, TrackedFile>();
  private readonly folders = new Map<string, string>();
  /** The answers (see answers()); null until first asked for after a restore. */
  private view: IndexView | null = null;
  /** Names the answers: changed whenever they change, saved and restored with the index (viewStamp()). */
  private stamp = newStamp();
  /** Files or folders changed since the view was last built. */
  private dirty = false;
  /** Files whose grown facts can be laid over the view (see patchView) instead of a rebuild. */
  private patches: TrackedFile[] = [];
  private readonly fileLocks = new KeyedLock();
  private readonly chunkBytes: number;
  private readonly slot: ReadSlot;
  private readonly workers: ScanWorkers | null;
  private readonly workerThreshold: number;
  private refreshTail: Promise<unknown> = Promise.resolve();
  private readonly warned = new Set<string>();
  private bytesRead = 0;
  private maxHeld = 0;
  /** Every directory the last main-thread walk visited, as it found it (persisted with the index). */
  private dirStamps = new Map<string, DirStamp>();
  /** Set on a restored index: its first refresh lists only the directories that moved since. */
  private stampsUsable = false;
  /** A restore's facts file read ahead (savedFactsFile.ts), awaited before completeRestore() parses them. */
  private prefetchFacts: (() => Promise<void>) | null = null;
  /**
   * Bumped by every change to what toJSON() writes (files, folders, directory stamps): a cache holding
   * the index as of some count need not be written again while the count stays the same.
   */
  private edits = 0;
  /** Bumped whenever any log's facts change (read, gone): what is derived from them keys on it. */
  private factsEdits = 0;
  /** Logs whose facts changed since the last notice (see onLogsChanged). */
  private changedLogs = new Set<string>();
  private readonly logListeners = new Set<(files: readonly string[]) => void>();
  /** Logs gone from disk whose facts stay, served from the viewer's copies. */
  private readonly gone: GoneLogs;

  constructor(options: SessionIndexOptions) {
    this.projectsDir = path.resolve(options.projectsDir);
    this.logger = options.logger ?? silentLogger;
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.slot = createReadSlot(this.chunkBytes);
    this.workers = options.workers ?? null;
    this.workerThreshold = options.workerThresholdBytes ?? WORKER_THRESHOLD_BYTES;
    this.gone = new GoneLogs(options.kept ?? null);
  }

  /**
   * The answers of the files as of the last update. A restored index builds them when first asked for: a
   * restart that serves its saved plan list needs none of them for its first answer (viewStamp()).
   */
  private answers(): IndexView {
    return (this.view ??= buildView(this.files, this.folders));
  }

  /**
   * A name for the answers as they are now: equal stamps, equal answers (linkForPlan() and the rest). It
   * changes with every update that changes an answer, and is saved and restored with the index, so what
   * was derived from the answers of a saved index (the saved plan list, savedList.ts) can tell that a
   * restored index gives the same ones without building them (docs/decisions.md, D49).
   */
  viewStamp(): string {
    return this.stamp;
  }

  /** Discovers every log, reads only unread bytes, forgets vanished files. True when any answer changed. */
  refresh(): Promise<boolean> {
    const run = this.refreshTail.then(() => this.refreshNow());
    this.refreshTail = run.catch(() => undefined);
    return run;
  }

  /**
   * For an index just restored: true when nothing it knows moved on disk since it was saved (see
   * restoredIsCurrent), so it is current as it is and needs no first refresh.
   */
  /** Whether confirmRestored() will ask a worker (so the caller can start one early). */
  get confirmsInWorker(): boolean {
    return this.workers !== null && this.stampsUsable && this.files.size >= WORKER_CONFIRM_LOGS;
  }

  async confirmRestored(): Promise<boolean> {
    if (!this.stampsUsable) return false;
    const stamps: RestoredStamps = {
      projectsDir: this.projectsDir,
      dirs: [...this.dirStamps],
      folders: [...this.folders.values()],
      // A log gone from disk whose facts stay (its copy kept) is not looked for.
      logs: [...this.files].filter(([abs]) => !this.gone.has(abs)).map(([abs, { log }]) => [abs, { size: log.size, mtimeMs: log.mtimeMs, ino: log.ino }]),
    };
    const current = this.confirmsInWorker ? await this.workers!.confirm(stamps) : restoredIsCurrent(stamps);
    if (!current || !this.stampsUsable) return false;
    // As after the first refresh: later full refreshes list every directory.
    this.stampsUsable = false;
    return true;
  }

  /**
   * Reads the facts a restore left for later off this thread, parses these parts of them (all when none
   * are named; see savedFacts.ts) in time slices, and reads again the logs whose saved facts were not what
   * this build saves. Until it resolves an answer built on those parts may miss some (run it before those
   * answers, after the first plan list).
   */
  async completeRestore(parts?: readonly PartName[]): Promise<void> {
    await this.prefetchFacts?.();
    this.prefetchFacts = null;
    const slicer = new TimeSlicer();
    const refused: string[] = [];
    for (const [file, tracked] of [...this.files]) {
      if (!restPending(tracked.log.facts, parts)) continue;
      await slicer.maybeYield();
      if (!restOk(tracked.log.facts, parts)) refused.push(file);
    }
    if (refused.length === 0) return;
    // syncFiles() reads them from their start, and says so.
    await this.syncFiles(refused);
    this.publish();
  }

  /** A watcher saw this path change, appear or vanish. True when any answer changed. */
  async updateFile(absPath: string): Promise<boolean> {
    // An update starts from the answers as they are: publish() patches them or compares with them.
    this.answers();
    const abs = path.resolve(absPath);
    const seg = relativeSegments(this.projectsDir, abs);
    if (seg === null) return false;
    const [folder] = seg;
    if (folder === undefined) return this.refresh();
    if (isLogSegments(seg)) {
      await this.syncFile(abs);
      // A vanished log may be the first sign that its whole folder went.
      const folderGone = !this.files.has(abs) && this.folders.has(folder) &&
        !isDirectory(path.join(this.projectsDir, folder));
      if (folderGone) await this.syncTree([folder]);
    } else if (mayContainLogs(seg)) {
      await this.syncTree(seg);
    }
    return this.publish();
  }

  /** Whether the index reads this path (the watcher's filter). A pure path check. */
  isSessionLog(absPath: string): boolean {
    const seg = relativeSegments(this.projectsDir, absPath);
    return seg !== null && isLogSegments(seg);
  }

  /** `<slug>.md` -> the session whose lines carry that slug; `<slug>-agent-<id>.md` -> <slug>'s session. */
  linkForPlan(planFilename: string): SessionLink | null {
    const view = this.answers();
    for (const slug of candidateSlugs(planFilename)) {
      const sessionId = view.slugs.get(slug);
      if (sessionId !== undefined) return { sessionId, cwd: view.sessions.get(sessionId)?.cwd ?? null };
    }
    return null;
  }

  /** Every session whose lines carry `slug` (resumed, continued and forked sessions share one), sorted. */
  sessionsForSlug(slug: string): string[] {
    const sessions = new Set<string>();
    for (const tracked of this.files.values()) {
      const sessionId = tracked.log.facts.links.slugs.get(slug);
      if (sessionId !== undefined) sessions.add(sessionId);
    }
    return [...sessions].sort();
  }

  /** The slugs on a session's lines. */
  slugsOfSession(sessionId: string): string[] {
    const slugs = new Set<string>();
    for (const tracked of this.files.values()) {
      for (const [slug, id] of tracked.log.facts.links.slugs) if (id === sessionId) slugs.add(slug);
    }
    return [...slugs].sort();
  }

  /** Every log the index reads. */
  logFiles(): string[] {
    return [...this.files.keys()];
  }

  /** Whether the log is gone from disk and its facts kept: its lines are read from the viewer's copy. */
  isKept(file: string): boolean {
    return this.gone.has(file);
  }

  /**
   * Logs gone from disk that this index never read (it was built anew since), read from the viewer's copies
   * (`copies`: each log and where its copy is): their facts stay as those of a log seen going (goneLogs.ts).
   */
  async adoptCopies(copies: readonly [file: string, copy: string][]): Promise<boolean> {
    const slicer = new TimeSlicer();
    for (const [file, copy] of copies) {
      if (this.files.has(file) || relativeSegments(this.projectsDir, file) === null) continue;
      const steps = readLogInSteps(file, null, this.slot, copy);
      let step = steps.next();
      for (; step.done !== true; step = steps.next()) await slicer.maybeYield();
      if (step.value.kind !== 'read') continue;
      this.apply(file, step.value);
      this.gone.goneFromDisk(file);
    }
    return this.publish();
  }

  /** The viewer dropped its copies of these logs: a gone one's facts go now. */
  async copiesDropped(files: readonly string[]): Promise<boolean> {
    for (const file of files) if (this.gone.dropped(file)) this.forget(file);
    return this.publish();
  }

  /** Every log with its mtime as last read (the watchers keep it current): no stat of its own. */
  logTimes(): [file: string, mtimeMs: number][] {
    return [...this.files].map(([file, tracked]) => [file, tracked.log.mtimeMs]);
  }

  /**
   * Every log with its facts (transcripts/logFacts.ts): the one source of what is derived from the
   * transcripts. Restored facts are parsed as they are first read (see savedFacts.ts).
   */
  logs(): IterableIterator<[string, LogFacts]> {
    return (function* (files: Map<string, TrackedFile>): IterableIterator<[string, LogFacts]> {
      for (const [file, tracked] of files) yield [file, tracked.log.facts];
    })(this.files);
  }

  /** One log's facts, or null when the index does not read it. */
  logFacts(file: string): LogFacts | null {
    return this.files.get(file)?.log.facts ?? null;
  }

  /** Changes whenever the facts of any log change. */
  get factsVersion(): number {
    return this.factsEdits;
  }

  /** Hears, after each update, which logs' facts changed (read further, appeared, gone). */
  onLogsChanged(listener: (files: readonly string[]) => void): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  cwdForSession(sessionId: string): string | null {
    return this.answers().sessions.get(sessionId)?.cwd ?? null;
  }

  /** Every directory under projects/, with the last cwd seen in its logs. Sorted by key. */
  projectFolders(): ProjectFolder[] {
    const view = this.answers();
    return [...view.folders]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, dir]) => ({ key, dir, cwd: view.folderCwds.get(key)?.cwd ?? null }));
  }

  /** Distinct cwds: each session's last cwd and each folder's last cwd. Sorted. */
  knownCwds(): string[] {
    return [...this.answers().cwds];
  }

  scanStats(): SessionScanStats {
    return { bytesRead: this.bytesRead, maxHeldBytes: this.maxHeld, trackedFiles: this.files.size };
  }

  /** See `edits`: equal counts, equal toJSON(). */
  get editCount(): number {
    return this.edits;
  }

  toJSON(): unknown {
    return writeSnapshot(this.projectsDir, this.snapshotState());
  }

  /** toJSON() in time slices; nothing may change the index until it resolves (see Viewer's session queue). */
  snapshot(): Promise<IndexSnapshot> {
    return writeSnapshotInSlices(this.projectsDir, this.snapshotState());
  }

  private snapshotState(): SnapshotState {
    return { folders: this.folders, files: this.files, dirStamps: this.dirStamps, viewStamp: this.stamp };
  }

  /**
   * An index restored from toJSON() output, or null when `data` is not one for this projects dir; its logs'
   * other facts from `savedFacts` when `data` holds none (see readSnapshot()).
   */
  static fromJSON(data: unknown, options: SessionIndexOptions, savedFacts?: SavedFactsAt, prefetch?: () => Promise<void>): SessionIndex | null {
    const index = new SessionIndex(options);
    const restored = readSnapshot(data, index.projectsDir, savedFacts);
    if (restored === null) return null;
    index.prefetchFacts = prefetch ?? null;
    for (const [key, dir] of restored.folders) index.folders.set(key, dir);
    // Taken as it is: readSnapshot() built it in viewOrder, which restoredIsCurrent() relies on.
    index.files = restored.files;
    index.gone.restored(index.files.keys());
    index.dirStamps = restored.dirs;
    index.stampsUsable = restored.dirs.size > 0;
    // The answers are the saved index's: its stamp names them (an older snapshot has none: a new one).
    if (restored.viewStamp !== null) index.stamp = restored.viewStamp;
    return index;
  }

  private async refreshNow(): Promise<boolean> {
    // See updateFile().
    this.answers();
    // Only a first scan (nothing known yet: no cache, or a cache thrown away) reads enough to be worth
    // the workers' start-up (~0.1 s of CPU each). With a restored index the walk is a few thousand
    // lstats, cheaper on this thread; syncFiles() still sends a big backlog of appends to the workers.
    if (this.workers !== null && this.files.size === 0) {
      // Its stamp before its listing, as a walk takes them (see walkLogs).
      const top = lstatOrNull(this.projectsDir);
      const listedAt = Date.now();
      const folders = listProjectFolders(this.projectsDir);
      if (folders !== null && (folders.length >= WORKER_MIN_FOLDERS || this.workerThreshold === 0)) {
        const stamp = top?.isDirectory() ? { mtimeMs: top.mtimeMs, ino: top.ino, listedAt } : null;
        await this.refreshInWorkers(this.workers, folders, stamp);
        return this.publish();
      }
    }
    // A restored index lists only the directories that moved since it was saved (see WalkMemory); later
    // full refreshes list them all: they exist to catch what watching may have missed.
    const known = this.stampsUsable ? this.knownDirs() : undefined;
    this.stampsUsable = false;
    const record = new Map<string, DirStamp>();
    const previous = this.dirStamps;
    const found = await discoverLogs(this.projectsDir, [], (message) => this.warnOnce(message), { record, known, previous });
    if (!sameStamps(previous, record)) this.edits++;
    this.dirStamps = record;
    this.setFolders(found.folders);
    // Known files missing from the listing are synced too: their own lstat decides that they are gone,
    // so a file a concurrent updateFile just added is not dropped on the strength of an older listing.
    const targets = new Set(found.files);
    for (const file of this.files.keys()) targets.add(file);
    await this.syncFiles([...targets]);
    return this.publish();
  }

  /**
   * The full refresh with the walk, the lstat of every log and the reads all in the workers: at start
   * this thread is busy loading the server and reading plans. Results computed from a state that an
   * updateFile() replaced meanwhile are dropped (the newer state stays).
   */
  private async refreshInWorkers(workers: ScanWorkers, folders: string[], top: DirStamp | null): Promise<void> {
    this.setFolders(folders);
    // The stamps of the directories the threads' walks list, so that a restart can skip their listings
    // as after a main-thread walk.
    const record = new Map<string, DirStamp>();
    if (top !== null) record.set(this.projectsDir, top);
    this.stampsUsable = false;
    const states = new Map<string, FolderState>(folders.map((folder) => [folder, { folder, previous: new Map(), weight: 1 }]));
    const sent = new Map<string, TrackedLog>();
    for (const [file, tracked] of this.files) {
      const state = states.get(tracked.folder);
      if (state === undefined) {
        this.forget(file);
        continue;
      }
      const from = this.readFrom(tracked.log);
      if (from !== null) state.previous.set(file, from);
      state.weight++;
      sent.set(file, tracked.log);
    }
    const seen = new Set<string>();
    // Applied as the results come in, while the scan goes on (see ScanWorkers.scanFolders).
    const warnings = await workers.scanFolders(this.projectsDir, [...states.values()], this.chunkBytes, (files, dirs) => {
      for (const [dir, stamp] of dirs) record.set(dir, stamp);
      for (const [file, result] of files) {
        seen.add(file);
        if (result.kind !== 'unchanged' && (this.files.get(file)?.log ?? null) === (sent.get(file) ?? null)) this.apply(file, result);
      }
    });
    for (const warning of warnings) this.warnOnce(warning);
    if (!sameStamps(this.dirStamps, record)) this.edits++;
    this.dirStamps = record;
    for (const [file, log] of sent) if (!seen.has(file) && this.files.get(file)?.log === log) this.forget(file);
  }

  /** The stamps with the subdirectories and logs the index knows in each directory (see KnownDirs). */
  private knownDirs(): KnownDirs {
    const children = new Map<string, { dirs: string[]; files: string[] }>();
    const of = (dir: string): { dirs: string[]; files: string[] } => {
      let entry = children.get(dir);
      if (entry === undefined) children.set(dir, (entry = { dirs: [], files: [] }));
      return entry;
    };
    for (const dir of this.dirStamps.keys()) {
      const at = dir.lastIndexOf(path.sep);
      if (dir !== this.projectsDir) of(dir.slice(0, at)).dirs.push(dir.slice(at + 1));
    }
    for (const file of this.files.keys()) of(file.slice(0, file.lastIndexOf(path.sep))).files.push(file);
    return { stamps: this.dirStamps, children };
  }

  /** Re-lists the directory at `seg` (a folder or a session's subagent tree) and syncs what is in it. */
  private async syncTree(seg: string[]): Promise<void> {
    const dir = path.join(this.projectsDir, ...seg);
    const exists = isDirectory(dir);
    const [folder] = seg;
    if (seg.length === 1 && folder !== undefined) {
      if (exists && !this.folders.has(folder)) {
        this.folders.set(folder, dir);
        this.dirty = true;
      } else if (!exists && this.folders.delete(folder)) {
        this.dirty = true;
      }
    }
    const record = new Map<string, DirStamp>();
    const walk = { record, previous: this.dirStamps };
    const targets = new Set(exists ? (await discoverLogs(this.projectsDir, seg, (m) => this.warnOnce(m), walk)).files : []);
    const prefix = dir + path.sep;
    // Whatever it found: the folder and the stamps below it are replaced.
    this.edits++;
    for (const known of [...this.dirStamps.keys()]) if (known === dir || known.startsWith(prefix)) this.dirStamps.delete(known);
    for (const [walked, stamp] of record) this.dirStamps.set(walked, stamp);
    for (const file of this.files.keys()) if (file.startsWith(prefix)) targets.add(file);
    await this.syncFiles([...targets]);
  }

  /**
   * Brings many logs up to date: one lstat each to find what moved, then one read job per moved file,
   * on the workers when that is a lot of bytes. A file that an updateFile() changed meanwhile keeps
   * that newer state (its result here was computed from an older one).
   */
  private async syncFiles(files: string[]): Promise<void> {
    const slicer = new TimeSlicer();
    const jobs: SizedJob[] = [];
    const known: (TrackedLog | null)[] = [];
    let bytes = 0;
    for (const file of files) {
      await slicer.maybeYield();
      const previous = this.files.get(file)?.log ?? null;
      const job = jobFor(file, previous, (log) => this.readFrom(log));
      if (job === 'gone') this.forget(file);
      else this.gone.back(file);
      if (job !== 'gone' && job !== null) {
        jobs.push(job);
        known.push(previous);
        bytes += job.bytes;
      }
    }
    const results = this.workers !== null && bytes >= this.workerThreshold
      ? await this.workers.run(jobs, this.chunkBytes)
      : await readInSlices(jobs, this.chunkBytes);
    jobs.forEach((job, i) => {
      if ((this.files.get(job.file)?.log ?? null) === known[i]) this.apply(job.file, results[i]!);
    });
  }

  /** Folder keys come from a listing of the projects dir (isFolderName): no separators, never `.` or `..`. */
  private setFolders(keys: string[]): void {
    if (keys.length === this.folders.size && keys.every((key) => this.folders.has(key))) return;
    this.folders.clear();
    for (const key of keys) this.folders.set(key, this.projectsDir + path.sep + key);
    this.dirty = true;
    this.edits++;
  }

  /** Brings one log up to date. Calls for the same file run one at a time, so no bytes count twice. */
  private syncFile(file: string): Promise<void> {
    return this.fileLocks.run(file, async () => {
      const previous = this.files.get(file)?.log ?? null;
      const job = jobFor(file, previous, (log) => this.readFrom(log));
      if (job === 'gone') return this.forget(file);
      this.gone.back(file);
      if (job === null) return;
      // A log that appeared whole (a copied or restored session) is a big read: off the main thread.
      const result = this.workers !== null && job.bytes >= this.workerThreshold
        ? (await this.workers.run([job], this.chunkBytes))[0]!
        : readLog(file, job.previous, this.slot);
      if ((this.files.get(file)?.log ?? null) === previous) this.apply(file, result);
    });
  }

  /**
   * What a read of a log goes on from: what was read of it, unless its facts came from a cache that held
   * something else than what this build saves (then it is read from its start).
   */
  private readFrom(log: TrackedLog): TrackedLog | null {
    if (restOk(log.facts)) return log;
    this.warnOnce('the saved facts of some session logs were not readable; reading them again');
    return null;
  }

  private forget(file: string): void {
    const previous = this.files.get(file);
    if (previous === undefined) return;
    // Kept (the viewer has a copy): the facts stay as they are, and so does what was derived from them.
    if (this.gone.goneFromDisk(file) !== 'forget' || !this.files.delete(file)) return;
    this.edits++;
    this.factsChanged(file);
    if (hasLinks(previous.log.facts)) this.dirty = true;
  }

  private apply(file: string, result: ReadResult): void {
    const previous = this.files.get(file);
    if (result.kind === 'gone') {
      this.forget(file);
    } else if (result.kind === 'failed') {
      this.warnOnce(`cannot read session log ${file}: ${result.message}`);
    } else if (result.kind === 'read') {
      const folder = previous?.folder ?? relativeSegments(this.projectsDir, file)?.[0];
      if (folder === undefined) return;
      this.bytesRead += result.bytesRead;
      this.maxHeld = Math.max(this.maxHeld, result.maxHeldBytes);
      const tracked: TrackedFile = { folder, log: result.log };
      this.files.set(file, tracked);
      this.edits++;
      this.factsChanged(file);
      if (!this.folders.has(folder)) {
        this.folders.set(folder, path.join(this.projectsDir, folder));
        this.dirty = true;
      }
      // The mtime moved, which can reorder files sharing a slug or session: rebuild when it matters,
      // or lay the file over the view when it only grew and is now the newest (the usual append).
      if (!this.dirty && previous !== undefined && extendsFacts(result.log.facts.links, previous.log.facts.links) && this.isNewest(file)) {
        this.patches.push(tracked);
      } else if (hasLinks(result.log.facts) || (previous !== undefined && hasLinks(previous.log.facts))) {
        this.dirty = true;
      }
    }
  }

  /** Whether `file` comes last in buildView()'s order: the greatest mtime, ties by the greater path. */
  private isNewest(file: string): boolean {
    const mtime = this.files.get(file)?.log.mtimeMs;
    if (mtime === undefined) return false;
    for (const [other, tracked] of this.files) {
      const m = tracked.log.mtimeMs;
      if (other !== file && (m > mtime || (m === mtime && other > file))) return false;
    }
    return true;
  }

  private factsChanged(file: string): void {
    this.factsEdits++;
    this.changedLogs.add(file);
  }

  /** Rebuilds the view after changes, and tells who listens which logs changed; true when any answer differs from before. */
  private publish(): boolean {
    const changed = this.applyChanges();
    if (changed) this.stamp = newStamp();
    if (this.changedLogs.size > 0) {
      const files = [...this.changedLogs];
      this.changedLogs.clear();
      for (const listener of this.logListeners) listener(files);
    }
    return changed;
  }

  private applyChanges(): boolean {
    const view = this.answers();
    const patches = this.patches;
    this.patches = [];
    if (!this.dirty) {
      let changed = false;
      for (const file of patches) if (patchView(view, file)) changed = true;
      return changed;
    }
    this.dirty = false;
    const next = buildView(this.files, this.folders);
    this.view = next;
    return !sameView(view, next);
  }

  /** Each distinct problem is reported once: a refresh loop must not flood the log. */
  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    if (this.warned.size < 1000) this.warned.add(message);
    this.logger.warn(message);
  }
}

/** Whether two walks recorded the same stamps (the same objects: see WalkMemory.previous). */
function sameStamps(a: ReadonlyMap<string, DirStamp>, b: ReadonlyMap<string, DirStamp>): boolean {
  if (a.size !== b.size) return false;
  for (const [dir, stamp] of b) if (a.get(dir) !== stamp) return false;
  return true;
}

// The viewer's own copies of session logs, so that a session stays readable after Claude Code's cleanup
// deletes its transcript. Under `<cacheDir>/kept-logs-<homeKey>/`, never elsewhere: per log a gzip file in
// objects/ named by the SHA-256 of the log's bytes (identical logs share one), an index.json (log path ->
// stamp, object, compressed size), and for a log gone from disk its copy decompressed once into
// open/<sha>.jsonl, which the line reads (lineReads.ts) open in its place. A log that only grew gets a gzip
// member holding just its new bytes appended (gzip members concatenate). Bounded: past the limit the copies
// of the logs with the oldest mtimes are dropped first. Only the server keeps copies; another process (the
// agent's) reads the index and the opened copies, and writes nothing.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Gzip } from 'node:zlib';
import { lstatOrNull } from '../files.js';
import { silentLogger, type Logger } from '../types.js';
import { readKeptIndex, SHA, sweepUnreferenced, writeKeptIndex, type KeptLog } from './keptIndex.js';
import { copyLogBytes, registerKeptPaths } from './lineReads.js';

export type { KeptLog } from './keptIndex.js';

/** A log is copied once it has been idle this long: a running session's log grows with every turn. */
export const KEEP_IDLE_MS = 60 * 60 * 1000;
/** Between two logs copied in the background: the copies never crowd out requests. */
const PAUSE_MS = 200;
const SAVE_DELAY_MS = 1000;
/** Transcripts hold what the user typed and what tools printed: readable by the user alone, like the logs. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

export interface KeptLogsOptions {
  /** This home's folder under the cache dir; null keeps nothing (the demo home, tests without a cache). */
  dir: string | null;
  /** `--history-limit`: the bound of the copies' compressed bytes; 0 keeps nothing. */
  limitBytes: number;
  /** Whether this process makes copies (the server) or only reads them (the agent's process). */
  writable: boolean;
  logger?: Logger;
  /** How long a log must be idle before it is copied (tests lower it). */
  idleMs?: number;
}

/** zlib and stream pipelines, loaded on the first copy: a start that copies nothing does not pay for them. */
async function streams(): Promise<{ zlib: typeof import('node:zlib'); pipeline: typeof import('node:stream/promises').pipeline }> {
  const [zlib, { pipeline }] = await Promise.all([import('node:zlib'), import('node:stream/promises')]);
  return { zlib, pipeline };
}

export class KeptLogs {
  private entries = new Map<string, KeptLog>();
  private readonly objects: string;
  private readonly opened: string;
  private readonly logger: Logger;
  private readonly droppedListeners = new Set<(files: readonly string[]) => void>();
  private readonly unregister: () => void;
  private readonly idleMs: number;
  /** Copies being decompressed for reading (see open()). */
  private readonly opening = new Map<string, Promise<boolean>>();
  private passing: Promise<void> | null = null;
  private passAgain = false;
  private closed = false;
  /** Bumped on every change of what is kept (the retention report keys on it). */
  version = 0;

  constructor(private readonly o: KeptLogsOptions) {
    this.objects = o.dir === null ? '' : path.join(o.dir, 'objects');
    this.opened = o.dir === null ? '' : path.join(o.dir, 'open');
    this.logger = o.logger ?? silentLogger;
    this.idleMs = o.idleMs ?? KEEP_IDLE_MS;
    if (o.dir !== null && o.limitBytes > 0) this.entries = readKeptIndex(o.dir, this.logger);
    this.unregister = registerKeptPaths(this);
  }

  /** Whether this process makes copies: a cache dir, a limit above 0, and the server's process. */
  get keeping(): boolean {
    return this.o.dir !== null && this.o.limitBytes > 0 && this.o.writable;
  }

  get limitBytes(): number {
    return this.o.limitBytes;
  }

  /**
   * What the copies take under the cache dir, each object counted once: its compressed bytes, and for a gone
   * log's copy opened for reading the decompressed file's too (the bound holds them all).
   */
  get keptBytes(): number {
    const sizes = new Map<string, number>();
    for (const entry of this.entries.values()) sizes.set(entry.sha, entry.keptBytes + (this.openedShas.has(entry.sha) ? entry.size : 0));
    let total = 0;
    for (const size of sizes.values()) total += size;
    return total;
  }

  /** Objects whose decompressed copy is in open/ (see open()). */
  private readonly openedShas = new Set<string>();

  has(file: string): boolean {
    return this.entries.has(file);
  }

  of(file: string): KeptLog | undefined {
    return this.entries.get(file);
  }

  isGone(file: string): boolean {
    return this.entries.get(file)?.gone === true;
  }

  /** The session index found the log gone from disk (or back): a gone one's copy is opened for reading. */
  setGone(file: string, gone: boolean): void {
    const entry = this.entries.get(file);
    if (entry === undefined || entry.gone === gone) return;
    entry.gone = gone;
    this.version++;
    if (!this.keeping) return;
    this.save();
    if (gone) void this.open(file);
  }

  /** Hears which logs' copies were dropped (the bound, or a copy found unreadable). */
  onDropped(listener: (files: readonly string[]) => void): () => void {
    this.droppedListeners.add(listener);
    return () => this.droppedListeners.delete(listener);
  }

  /** For lineReads.ts: a gone log's decompressed copy, when it is there. */
  keptPathOf(file: string): string | null {
    const entry = this.entries.get(file);
    if (entry === undefined || !entry.gone || this.o.dir === null) return null;
    return path.join(this.opened, `${entry.sha}.jsonl`);
  }

  /** Opens (decompresses) the copy of every gone log not opened yet; an unreadable one is dropped with a warning. */
  async openGone(): Promise<void> {
    if (!this.keeping) return;
    for (const [file, entry] of [...this.entries]) if (entry.gone) await this.open(file);
  }

  /**
   * The logs with a copy that are gone from disk and that `known` (the session index) does not hold: gone
   * while no viewer ran, and the index built anew since (a cleared cache, new derivation rules). Each is
   * marked gone and its copy opened: its facts can be read again from the copy (SessionIndex.adoptCopies).
   */
  async goneCopies(known: (file: string) => boolean): Promise<[file: string, copy: string][]> {
    const found: [string, string][] = [];
    for (const [file, entry] of [...this.entries]) {
      if (known(file) || (!entry.gone && lstatOrNull(file) !== null)) continue;
      this.setGone(file, true);
      const opened = this.keeping ? await this.open(file) : existsSync(path.join(this.opened, `${entry.sha}.jsonl`));
      const copy = opened ? this.keptPathOf(file) : null;
      if (copy !== null) found.push([file, copy]);
    }
    return found;
  }

  /** Resolves once no copy is being decompressed (answers that read gone logs wait for it). */
  async settled(): Promise<void> {
    while (this.opening.size > 0) await Promise.all([...this.opening.values()]);
  }

  /**
   * Copies every log idle for an hour whose copy is missing or older than it (one at a time, pausing
   * between them); `logs` are the session index's logs with their mtimes. Passes asked for during one
   * make one more.
   */
  keepIdle(logs: () => [file: string, mtimeMs: number][]): Promise<void> {
    if (!this.keeping) return Promise.resolve();
    if (this.passing !== null) {
      this.passAgain = true;
      return this.passing;
    }
    this.passing = (async () => {
      do {
        this.passAgain = false;
        await this.pass(logs());
      } while (this.passAgain && !this.closed);
      this.passing = null;
    })();
    return this.passing;
  }

  /** Stops copying (waits for the copy under way) and lets the line reads go. */
  async close(): Promise<void> {
    this.closed = true;
    await this.passing;
    await this.settled();
    if (this.saveTimer !== null) this.saveNow();
    this.unregister();
  }

  private swept = false;

  private async pass(logs: [string, number][]): Promise<void> {
    if (!this.swept) {
      // What a run killed before it saved its index left behind.
      this.swept = true;
      sweepUnreferenced(this.objects, '.gz', this.entries);
      sweepUnreferenced(this.opened, '.jsonl', this.entries);
    }
    const now = Date.now();
    // Newest first: the bound drops the oldest, so those are the last worth copying.
    const due = logs.filter(([file, mtimeMs]) => now - mtimeMs >= this.idleMs && this.entries.get(file)?.mtimeMs !== mtimeMs && !this.isGone(file))
      .sort((a, b) => b[1] - a[1]);
    for (const [file, mtimeMs] of due) {
      if (this.closed) return;
      // Full, and every copy kept is of a newer log: this one would be dropped at once (oldest first).
      if (this.keptBytes >= this.o.limitBytes && [...this.entries.values()].every((e) => e.mtimeMs >= mtimeMs)) return;
      try {
        await this.keep(file);
      } catch (error) {
        // An unwritable or full cache dir fails every copy alike: said once a pass, the next pass tries again.
        this.logger.warn(`could not keep a copy of ${file}: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      if (due.length > 1) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }

  /** Copies one log now (appending to its copy when it only grew); false when it was not copied. */
  async keep(file: string): Promise<boolean> {
    if (!this.keeping) return false;
    const previous = this.entries.get(file);
    mkdirSync(this.objects, { recursive: true, mode: PRIVATE_DIR });
    const tmp = path.join(this.objects, `.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
    const hash = createHash('sha256');
    let appendFrom = 0;
    const out: { gzip: Gzip | null; written: Promise<void> | null } = { gzip: null, written: null };
    // The copy so far (when the log only grew), then a new gzip member: gzip members concatenate.
    const begin = async (): Promise<Gzip> => {
      if (appendFrom > 0) await copyFile(this.objectPath(previous!.sha), tmp);
      const { zlib, pipeline } = await streams();
      const gzip = zlib.createGzip();
      out.gzip = gzip;
      out.written = pipeline(gzip, createWriteStream(tmp, { flags: 'a', mode: PRIVATE_FILE }));
      return gzip;
    };
    try {
      const stamp = await copyLogBytes(file, 0, async (piece, at) => {
        hash.update(piece);
        if (at + piece.length <= appendFrom) return;
        const gzip = out.gzip ?? (await begin());
        // Compressed on the thread pool; waits when zlib is behind, so the log is never held whole.
        if (!gzip.write(at < appendFrom ? piece.subarray(appendFrom - at) : piece)) await new Promise((resolve) => gzip.once('drain', resolve));
      }, (st) => {
        if (previous !== undefined && previous.ino === st.ino && st.size > previous.size && this.objectExists(previous.sha)) appendFrom = previous.size;
        return previous === undefined || previous.size !== st.size || previous.mtimeMs !== st.mtimeMs || previous.ino !== st.ino;
      });
      if (stamp === null) return false;
      // An empty log: a member of nothing keeps the copy a valid gzip file.
      (out.gzip ?? (await begin())).end();
      await out.written;
      const sha = hash.digest('hex');
      const object = this.objectPath(sha);
      if (this.objectExists(sha)) await rm(tmp, { force: true });
      else await rename(tmp, object);
      const keptBytes = (await stat(object)).size;
      // Found gone while it was being copied again (the copy read it whole all the same): it stays gone.
      const gone = this.entries.get(file)?.gone ?? false;
      this.entries.set(file, { ...stamp, sha, keptBytes, keptAt: new Date().toISOString(), gone });
      if (previous !== undefined && previous.sha !== sha) this.release(previous.sha);
      if (gone) void this.open(file);
      this.version++;
      this.prune();
      this.save();
      return true;
    } finally {
      out.gzip?.destroy();
      await out.written?.catch(() => undefined);
      await rm(tmp, { force: true });
    }
  }

  /** Decompresses a gone log's copy into open/ once; an unreadable one is dropped (and said so). */
  private open(file: string): Promise<boolean> {
    const entry = this.entries.get(file);
    if (entry === undefined || !this.keeping) return Promise.resolve(false);
    const running = this.opening.get(entry.sha);
    if (running !== undefined) return running;
    const target = path.join(this.opened, `${entry.sha}.jsonl`);
    const run = (async () => {
      try {
        if (statSync(target, { throwIfNoEntry: false })?.size === entry.size) return this.opens(entry.sha);
        mkdirSync(this.opened, { recursive: true, mode: PRIVATE_DIR });
        const tmp = `${target}.${process.pid}.tmp`;
        const { zlib, pipeline } = await streams();
        await pipeline(createReadStream(this.objectPath(entry.sha)), zlib.createGunzip(), createWriteStream(tmp, { mode: PRIVATE_FILE }));
        if ((await stat(tmp)).size !== entry.size) {
          await rm(tmp, { force: true });
          throw new Error('it is shorter than the log was');
        }
        await rename(tmp, target);
        return this.opens(entry.sha);
      } catch (error) {
        this.logger.warn(`the kept copy of ${file} is unreadable (${error instanceof Error ? error.message : String(error)}); it is dropped`);
        this.drop([...this.entries].filter(([, e]) => e.sha === entry.sha).map(([f]) => f));
        return false;
      }
    })();
    this.opening.set(entry.sha, run);
    // After the set: a copy already open resolves before the first await.
    void run.finally(() => this.opening.delete(entry.sha));
    return run;
  }

  /** An object's copy is open for reading: it counts in the bound, which may drop older copies now. */
  private opens(sha: string): boolean {
    if (!this.openedShas.has(sha)) {
      this.openedShas.add(sha);
      this.prune();
    }
    // The bound may have dropped this very copy (it was the oldest): then it is not there to read.
    return this.openedShas.has(sha);
  }

  private drop(files: string[]): void {
    if (files.length === 0) return;
    for (const file of files) {
      const entry = this.entries.get(file);
      if (entry === undefined) continue;
      this.entries.delete(file);
      this.release(entry.sha);
    }
    this.version++;
    this.save();
    for (const listener of this.droppedListeners) listener(files);
  }

  /** Drops the copies of the logs with the oldest mtimes until what is kept fits the limit. */
  private prune(): void {
    let total = this.keptBytes;
    if (total <= this.o.limitBytes) return;
    const refs = new Map<string, number>();
    for (const entry of this.entries.values()) refs.set(entry.sha, (refs.get(entry.sha) ?? 0) + 1);
    const oldestFirst = [...this.entries].sort((a, b) => a[1].mtimeMs - b[1].mtimeMs);
    const dropped: string[] = [];
    for (const [file, entry] of oldestFirst) {
      if (total <= this.o.limitBytes) break;
      dropped.push(file);
      const left = refs.get(entry.sha)! - 1;
      refs.set(entry.sha, left);
      if (left === 0) total -= entry.keptBytes + (this.openedShas.has(entry.sha) ? entry.size : 0);
    }
    this.drop(dropped);
  }

  private referenced(sha: string): boolean {
    for (const entry of this.entries.values()) if (entry.sha === sha) return true;
    return false;
  }

  /** Removes an object (and its opened copy) once no log refers to it. Names are checked hashes: inside dir. */
  private release(sha: string): void {
    if (this.referenced(sha) || !SHA.test(sha)) return;
    rmSync(this.objectPath(sha), { force: true });
    rmSync(path.join(this.opened, `${sha}.jsonl`), { force: true });
    this.openedShas.delete(sha);
  }

  private objectPath(sha: string): string {
    return path.join(this.objects, `${sha}.gz`);
  }

  private objectExists(sha: string): boolean {
    return statSync(this.objectPath(sha), { throwIfNoEntry: false })?.isFile() === true;
  }

  private saveTimer: NodeJS.Timeout | null = null;

  /** The index is written a second after changes (a pass copies many logs), and at close. */
  private save(): void {
    if (!this.keeping || this.saveTimer !== null) return;
    this.saveTimer = setTimeout(() => this.saveNow(), SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  private saveNow(): void {
    if (this.saveTimer !== null) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.keeping) return;
    try {
      writeKeptIndex(this.o.dir!, this.entries);
    } catch (error) {
      this.logger.warn(`could not save the kept transcripts' index: ${String(error)}`);
    }
  }
}

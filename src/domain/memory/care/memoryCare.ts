// Memory care as the service offers it: the health check, and the fixes, the first thing the viewer
// writes to a user's files. A fix is previewed (a diff, nothing written), then applied with the
// preview's content hash: 409 when any file it reads changed since, in its bytes or in its identity
// (another file, or a link, in its place: docs/security.md, rule 23). Before anything is written the
// previous bytes go to an undo record under the viewer's cache dir; --read-only, no cache dir, or one
// that cannot be written turns every write off, and health says why. Fixes and undos run one at a time.
// A start finishes what a viewer killed in the middle of a fix left (recover()).
import path from 'node:path';
import { LARGE_FILE_BYTES } from '../../largeFiles.js';
import {
  type FixKind, type MemoryFixAllResult, type MemoryFixResult, type MemoryFixes, type MemoryHealth, type MemoryTrash, type MemoryUndoResult,
  type ProblemKind, RECENT_FIXES, type RecordKind,
} from '../../../contract/memoryCare.js';
import type { BulkRestoreResult } from '../../../contract/memoryChanges.js';
import type { LoadedMemory } from '../loader.js';
import type { MemoryStore } from '../memoryStore.js';
import { type SourceContext, sourceContext } from './context.js';
import { DEFAULT_STALE_DAYS } from './detectors/stale.js';
import {
  type FileState, contentHash, diffOf, identities, pidAlive, removeTemps, restoreChange, sameFile, step, undoTarget,
} from './fixFiles.js';
import { planFix } from './fixes/plan.js';
import { planAll } from './fixes/planAll.js';
import { planRestore, type RestoreFile } from './fixes/restoreBulk.js';
import type { FileChange } from './fixes/types.js';
import { memoryHealth } from './health.js';
import { FIX_ALL_KINDS, isFixAllKind } from './kinds.js';
import { type BulkFix, type PendingMarker, type RecordedChange, type UndoRecord, UndoStore, sha256 } from './undoStore.js';
import { changesNow, indexChanged, joinNames, restoresTopic, undoBlocker } from './undoState.js';
import {
  UnsafePath, Unreadable, newToken, readFile, removeName, resolveInside, restoreLink, tempPath, writeAtomically,
} from './writer.js';

export interface MemoryCareOptions {
  store: MemoryStore;
  /** Where undo records and the trash live; null: no fix can be applied. */
  careDir: string | null;
  readOnly: boolean;
  staleDays?: number;
  sessionKnown(sessionId: string): boolean;
  /** Called after files were written (the listing is stale). */
  changed(): void;
  /** What the viewer itself just wrote: each file's path and its content hash now (null: removed), so that no bulk change outside Claude Code is made of it. */
  wrote?(files: { path: string; after: string | null }[]): void;
  now?: () => number;
}

/** An answer or the HTTP-agnostic reason there is none (the route turns it into a status). */
export type Outcome<T> = { ok: T } | { status: 400 | 403 | 404 | 409 | 500; message: string };

export interface FixRequest {
  sourceId: string;
  kind: FixKind;
  file: string;
  target?: string | null;
  hash?: string;
  apply: boolean;
}

export interface FixAllRequest {
  sourceId: string;
  /** The kind of finding: every finding of it in the source with a fix is fixed. */
  kind: ProblemKind;
  hash?: string;
  apply: boolean;
}

type MemorySnapshot = Pick<LoadedMemory, 'listing' | 'files'>;

/** A bulk change to put back: each file's text before it (null: it did not exist), or pruned (skipped). */
export interface BulkRestoreRequest {
  sourceId: string;
  changeId: string;
  files: RestoreFile[];
  hash?: string | undefined;
  apply: boolean;
}

/** What an undo record says of the fix besides its changes. */
interface RecordMeta {
  kind: RecordKind;
  file: string;
  all?: BulkFix;
}

type JobPlan<E> = { changes: FileChange[]; record: RecordMeta; extra: E } | { conflict: string } | { invalid: string } | { notFound: string };

/** A fix to preview or apply (see MemoryCare.run). */
interface FixJob<E> {
  sourceId: string;
  apply: boolean;
  hash: string | undefined;
  /** What the hash covers besides the files: the request. */
  key: unknown[];
  plan(ctx: SourceContext, read: (file: string) => string | null, memory: MemorySnapshot): JobPlan<E>;
}

/** Previews whose files a refused apply can name. */
const REMEMBERED_PREVIEWS = 64;

/** A pending marker older than this belongs to no fix still running, whatever its pid says now. */
const STALE_MARKER_MS = 10 * 60_000;

class NotText extends Error {}
class Changed extends Error {}

export class MemoryCare {
  private readonly undo: UndoStore | null;
  /** Why the cache folder cannot be written, or null. */
  private unwritable: string | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  /** What the latest previews read (their hash: each file's identity), oldest first. */
  private readonly previews = new Map<string, Map<string, string>>();
  readonly staleDays: number;

  constructor(private readonly o: MemoryCareOptions) {
    this.undo = o.careDir ? new UndoStore(o.careDir) : null;
    this.staleDays = o.staleDays ?? DEFAULT_STALE_DAYS;
    if (this.undo !== null && !o.readOnly) {
      this.checkWritable();
      if (this.unwritable === null) this.recover();
    }
  }

  /** Why no fix can be applied, or null when fixes can be applied. */
  get readOnlyReason(): string | null {
    if (this.o.readOnly) return 'the viewer runs with --read-only';
    if (this.undo === null) return 'no cache folder to keep undo records in';
    return this.unwritable;
  }

  get readOnly(): boolean {
    return this.readOnlyReason !== null;
  }

  async health(): Promise<MemoryHealth> {
    // A folder that could not be written may have been fixed since.
    if (this.unwritable !== null) this.checkWritable();
    const memory = await this.o.store.snapshot();
    const sources = memoryHealth({
      listing: memory.listing,
      files: memory.files,
      now: (this.o.now ?? Date.now)(),
      staleDays: this.staleDays,
      sessionKnown: this.o.sessionKnown,
    });
    return { readOnly: this.readOnly, readOnlyReason: this.readOnlyReason, staleDays: this.staleDays, sources };
  }

  fix(request: FixRequest): Promise<Outcome<MemoryFixResult>> {
    return this.serial(() => this.fixNow(request));
  }

  /** Every finding of one kind in a source fixed in one change, previewed, applied and undone as one fix. */
  fixAll(request: FixAllRequest): Promise<Outcome<MemoryFixAllResult>> {
    return this.serial(() => this.fixAllNow(request));
  }

  /** A bulk change put back, previewed, applied and undone as a fix is (bulkChanges.ts). */
  restoreBulk(request: BulkRestoreRequest): Promise<Outcome<BulkRestoreResult>> {
    return this.serial(() => this.run<{ skipped: string[] }>({
      sourceId: request.sourceId, apply: request.apply, hash: request.hash, key: ['restore-bulk', request.changeId],
      plan: (_ctx, read) => {
        const plan = planRestore(request.files, read);
        if ('conflict' in plan) return plan;
        return { changes: plan.changes, record: { kind: 'restore-bulk', file: plan.changes[0]!.file }, extra: { skipped: plan.skipped } };
      },
    }));
  }

  undoFix(undoId: string): Promise<Outcome<MemoryUndoResult>> {
    return this.serial(() => this.undoNow(undoId));
  }

  trash(): MemoryTrash {
    const items = (this.undo?.list() ?? []).filter(restoresTopic)
      .map((r) => ({ undoId: r.id, sourceId: r.sourceId, dir: r.dir, file: r.file, removed: r.created }));
    return { items };
  }

  /**
   * The fixes applied and not undone, newest first (at most RECENT_FIXES), from the undo records on disk:
   * each with whether an undo would go through now and, when not, why. `project`: only that project's.
   */
  async recentFixes(project?: string): Promise<MemoryFixes> {
    const memory = await this.o.store.snapshot();
    const sources = new Map(memory.listing.sources.map((s) => [s.id, s]));
    const dirs = new Set(memory.listing.sources.map((s) => s.dir));
    const wanted = project?.toLowerCase();
    const entries = (this.undo?.list() ?? [])
      .filter((e) => wanted === undefined || sources.get(e.sourceId)?.project.toLowerCase() === wanted);
    const items: MemoryFixes['items'] = [];
    for (const entry of entries) {
      if (items.length >= RECENT_FIXES) break;
      const record = this.undo!.load(entry.id);
      if (record === null) continue;
      const reason = undoBlocker(record, changesNow(record), dirs.has(record.dir));
      items.push({
        undoId: record.id, kind: record.kind, all: record.all ?? null, sourceId: record.sourceId, dir: record.dir, file: record.file,
        files: record.changes.map((c) => c.file), applied: record.created, undoable: reason === null, reason,
      });
    }
    return { readOnly: this.readOnly, readOnlyReason: this.readOnlyReason, items };
  }

  /** Keeps what a preview read, so that a refused apply can name the file that changed since. */
  private remember(hash: string, states: Map<string, FileState>): void {
    this.previews.delete(hash);
    this.previews.set(hash, identities(states));
    for (const key of this.previews.keys()) {
      if (this.previews.size <= REMEMBERED_PREVIEWS) break;
      this.previews.delete(key);
    }
  }

  /** The refusal of an apply whose preview's hash is not the files' now, naming the files when it can. */
  private whatChanged(previewHash: string, states: Map<string, FileState>): string {
    const then = this.previews.get(previewHash);
    const now = identities(states);
    const names = then === undefined ? [] : [...new Set([...then.keys(), ...now.keys()])].filter((f) => then.get(f) !== now.get(f)).sort();
    const which = names.length > 0 ? joinNames(names) : `a file this fix reads (${joinNames([...now.keys()].sort(), 'or')})`;
    return `${which} changed since the preview; applying it would overwrite that change. Nothing was written; look at the new preview`;
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private checkWritable(): void {
    const problem = this.undo!.probe();
    this.unwritable = problem === null ? null : `the cache folder ${this.o.careDir} cannot be written (${problem})`;
  }

  /** The 403 of a write that cannot happen now, or null. */
  private refusal(): { status: 403; message: string } | null {
    if (this.unwritable !== null) this.checkWritable();
    if (this.o.readOnly) return { status: 403, message: 'Forbidden: the viewer runs with --read-only' };
    if (this.undo === null) return { status: 403, message: 'Forbidden: no cache folder to keep undo records in' };
    if (this.unwritable !== null) return { status: 403, message: `Forbidden: fixes are unavailable: ${this.unwritable}` };
    return null;
  }

  private fixNow(request: FixRequest): Promise<Outcome<MemoryFixResult>> {
    const { sourceId, kind, file } = request;
    const target = request.target ?? null;
    return this.run<object>({
      sourceId, apply: request.apply, hash: request.hash, key: [sourceId, kind, file, target],
      plan: (ctx, read) => {
        // Every fix is asked for a file the listing holds (add-to-index: the orphan topic).
        if (!ctx.byFile.has(file)) return { notFound: 'Not found: no such memory file' };
        const plan = planFix(kind, { ctx, file, target, read });
        return 'changes' in plan ? { changes: plan.changes, record: { kind, file }, extra: {} } : plan;
      },
    });
  }

  private fixAllNow(request: FixAllRequest): Promise<Outcome<MemoryFixAllResult>> {
    const { sourceId, kind } = request;
    if (!isFixAllKind(kind)) {
      return Promise.resolve({ status: 400, message: `Bad request: kind must be one of ${FIX_ALL_KINDS.join(', ')} (the findings whose fixes can be applied together)` });
    }
    return this.run<{ count: number }>({
      sourceId, apply: request.apply, hash: request.hash, key: ['fix-all', sourceId, kind],
      plan: (ctx, read, memory) => {
        const health = memoryHealth({
          listing: memory.listing, files: memory.files, now: (this.o.now ?? Date.now)(), staleDays: this.staleDays, sessionKnown: this.o.sessionKnown,
        }).find((h) => h.sourceId === sourceId);
        const problems = (health?.problems ?? []).filter((p) => p.kind === kind && p.fix !== null);
        if (problems.length === 0) return { conflict: `no ${kind} finding with a fix in this memory folder now` };
        const { changes, fixed } = planAll(problems, { ctx, read });
        if (fixed.length === 0) return { conflict: `none of the ${problems.length} ${kind} findings can be fixed now` };
        const first = fixed[0]!;
        return { changes, record: { kind: first.fix!, file: first.file!, all: { problem: kind, count: fixed.length } }, extra: { count: fixed.length } };
      },
    });
  }

  /**
   * A fix's preview, or its write when asked and the hash is the preview's: the files it reads are read
   * once (their bytes and identity), the plan is made from them, and the hash covers them and the change.
   */
  private async run<E extends object>(job: FixJob<E>): Promise<Outcome<MemoryFixResult & E>> {
    if (job.apply) {
      const refused = this.refusal();
      if (refused) return refused;
      if (!job.hash) return { status: 400, message: 'Bad request: hash is required with apply: true (the hash of the preview)' };
    }
    // What the listing says now, not what it said up to 5 s ago: the fix is computed against it.
    this.o.store.invalidate();
    const memory = await this.o.store.snapshot();
    const source = memory.listing.sources.find((s) => s.id === job.sourceId);
    if (!source) return { status: 404, message: 'Not found: no such memory source' };
    const ctx: SourceContext = sourceContext(
      source, memory.listing.entries.filter((e) => e.sourceId === source.id), memory.files.get(source.id) ?? [],
    );

    const states = new Map<string, FileState>();
    const stateOf = (file: string): FileState => {
      let state = states.get(file);
      if (state === undefined) {
        const resolved = resolveInside(source.dir, file);
        const read = readFile(resolved.real);
        if (read !== null && read.bytes.length > LARGE_FILE_BYTES) throw new NotText(`${file} is too large to fix here`);
        state = { resolved, read };
        states.set(file, state);
      }
      return state;
    };
    const read = (file: string): string | null => {
      const bytes = stateOf(file).read?.bytes;
      if (bytes === undefined) return null;
      const text = bytes.toString('utf8');
      // A fix rewrites text; bytes that are not UTF-8 would not survive the round trip.
      if (!Buffer.from(text, 'utf8').equals(bytes)) throw new NotText(`${file} is not UTF-8 text`);
      return text;
    };
    let plan: JobPlan<E>;
    try {
      plan = job.plan(ctx, read, memory);
      if ('changes' in plan) for (const change of plan.changes) stateOf(change.file);
    } catch (error) {
      if (error instanceof UnsafePath || error instanceof NotText) return { status: 400, message: `Bad request: ${error.message}` };
      if (error instanceof Unreadable) return { status: 409, message: `Conflict: ${error.message}` };
      throw error;
    }
    if ('notFound' in plan) return { status: 404, message: plan.notFound };
    if ('invalid' in plan) return { status: 400, message: `Bad request: ${plan.invalid}` };
    if ('conflict' in plan) return { status: 409, message: `Conflict: ${plan.conflict}` };
    for (const change of plan.changes) {
      if (change.after === null && states.get(change.file)!.resolved.viaLinkedFolder) {
        return { status: 400, message: `Bad request: ${change.file} is reached through a symlinked folder; remove it in the folder it lives in` };
      }
    }
    const hash = contentHash(job.key, states, plan.changes);
    if (job.hash !== undefined && job.hash !== '' && job.hash !== hash) {
      return { status: 409, message: `Conflict: ${this.whatChanged(job.hash, states)}` };
    }
    this.remember(hash, states);
    const diff = plan.changes.map((c) => diffOf(c, states.get(c.file)!)).join('');
    const files = plan.changes.map((c) => c.file);
    if (!job.apply) return { ok: { diff, hash, files, applied: false, undoId: null, ...plan.extra } };
    const written = this.write(plan.record, source.id, source.dir, plan.changes, states, { diff, hash, files });
    return 'ok' in written ? { ok: { ...written.ok, ...plan.extra } } : written;
  }

  private write(
    meta: RecordMeta, sourceId: string, dir: string, changes: FileChange[], states: Map<string, FileState>,
    answer: Pick<MemoryFixResult, 'diff' | 'hash' | 'files'>,
  ): Outcome<MemoryFixResult> {
    const undo = this.undo!;
    const id = undo.newId();
    const token = newToken();
    const recorded: RecordedChange[] = changes.map((c) => {
      const state = states.get(c.file)!;
      const before = state.read?.bytes ?? null;
      const change: RecordedChange = {
        file: c.file, before: before === null ? null : before.toString('base64'), after: c.after === null ? null : sha256(Buffer.from(c.after, 'utf8')),
      };
      if (c.after === null && state.resolved.link !== null) change.link = state.resolved.link;
      return change;
    });
    const record: UndoRecord = {
      id, created: new Date((this.o.now ?? Date.now)()).toISOString(), sourceId, dir, kind: meta.kind, file: meta.file, changes: recorded,
    };
    if (meta.all) record.all = meta.all;
    const marker: PendingMarker = { id, op: 'fix', pid: process.pid, token, temps: changes.map((c) => tempPath(states.get(c.file)!.resolved.real, token)) };
    try {
      undo.begin(marker);
      undo.save(record);
    } catch (error) {
      forget(undo, id);
      this.unwritable = `the cache folder ${this.o.careDir} cannot be written (${messageOf(error)})`;
      return { status: 403, message: `Forbidden: fixes are unavailable: ${this.unwritable}; nothing was written` };
    }
    // New files first, then rewrites, then removals: a link never points at a file not yet there.
    const order = [...changes].sort((a, b) => step(a) - step(b));
    const done: FileChange[] = [];
    try {
      for (const change of order) {
        const seen = states.get(change.file)!;
        const target = resolveInside(dir, change.file);
        const now = readFile(target.real);
        // The last look before writing: the same bytes, in the same file, behind the same kind of name.
        if (!sameFile(seen, target, now)) throw new Changed(change.file);
        if (change.after === null) removeName(target);
        else writeAtomically(target.real, Buffer.from(change.after, 'utf8'), now === null, token);
        done.push(change);
      }
    } catch (error) {
      const restored = this.rollBack(dir, done, states, token);
      forget(undo, id);
      if (done.length > 0) this.o.changed();
      const note = restored ? '' : `; ${restoredNote(done)}`;
      if (error instanceof Changed) {
        const written = restored ? 'Nothing was written' : 'Not all of it could be taken back';
        return { status: 409, message: `Conflict: ${error.message} changed since the preview; applying it would overwrite that change. ${written}${note}` };
      }
      if (error instanceof UnsafePath || error instanceof Unreadable) return { status: 409, message: `Conflict: ${error.message}${note}` };
      return { status: 500, message: `Could not write the fix: ${messageOf(error)}${note}` };
    }
    undo.end(id);
    this.o.wrote?.(recorded.map((c) => ({ path: path.join(dir, ...c.file.split('/')), after: c.after })));
    this.o.changed();
    return { ok: { ...answer, applied: true, undoId: id } };
  }

  /** Puts back what a failed fix had already written; false when that failed too. */
  private rollBack(dir: string, done: FileChange[], states: Map<string, FileState>, token: string): boolean {
    let ok = true;
    for (const change of [...done].reverse()) {
      try {
        const seen = states.get(change.file)!;
        if (change.before === null) removeName(resolveInside(dir, change.file));
        else if (change.after === null && seen.resolved.link !== null) restoreLink(seen.resolved.name, seen.resolved.link);
        else writeAtomically(resolveInside(dir, change.file).real, seen.read!.bytes, change.after === null, token);
      } catch {
        ok = false;
      }
    }
    return ok;
  }

  private async undoNow(undoId: string): Promise<Outcome<MemoryUndoResult>> {
    const refused = this.refusal();
    if (refused) return refused;
    const undo = this.undo!;
    const record = undo.load(undoId);
    if (record === null) return { status: 404, message: 'Not found: no such undo record' };
    // Only into a folder the viewer lists now.
    const memory = await this.o.store.snapshot();
    const states = changesNow(record);
    const blocker = undoBlocker(record, states, memory.listing.sources.some((s) => s.dir === record.dir));
    if (blocker !== null) return { status: 409, message: `Conflict: ${blocker}` };
    let restore: RecordedChange[];
    let addToIndex: MemoryUndoResult['addToIndex'] = null;
    if (restoresTopic(record)) {
      // The topic comes back whatever happened to other files since; its index line only while MEMORY.md
      // is as the fix left it (else the add-to-index fix puts it back, previewed).
      const topic = states.find((s) => s.change.file === record.file && s.change.after === null);
      restore = [...states].sort((a, b) => Number(b === topic) - Number(a === topic)).filter((s) => s.state === 'after').map((s) => s.change);
      if (indexChanged(states)) addToIndex = { sourceId: record.sourceId, file: record.file };
    } else {
      // Changes already back as they were (an undo cut short) are left as they are.
      restore = states.filter((s) => s.state === 'after').map((s) => s.change).reverse();
    }
    const token = newToken();
    try {
      undo.begin({ id: record.id, op: 'undo', pid: process.pid, token, temps: restore.map((c) => tempPath(undoTarget(record.dir, c), token)) });
      for (const change of restore) restoreChange(record.dir, change, token);
    } catch (error) {
      if (error instanceof UnsafePath || error instanceof Unreadable) return { status: 409, message: `Conflict: ${error.message}` };
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { status: 409, message: 'Conflict: a file took the name of one being restored; nothing more was restored' };
      return { status: 500, message: `Could not undo: ${messageOf(error)}` };
    } finally {
      undo.end(record.id);
      this.o.wrote?.(restore.map((c) => ({
        path: path.join(record.dir, ...c.file.split('/')), after: c.before === null ? null : sha256(Buffer.from(c.before, 'base64')),
      })));
      this.o.changed();
    }
    undo.remove(record.id);
    const restored = new Set(restore);
    return { ok: { undone: true, files: record.changes.filter((c) => restored.has(c)).map((c) => c.file), addToIndex } };
  }

  /**
   * Finishes what fixes and undos killed mid-way (SIGKILL, a crash) left: their temporary files in memory
   * folders go; the record of a fix that never landed goes; a fix that landed in part is put back whole
   * (its record goes too); a fix that landed keeps its record. A marker of a live process is left to it.
   */
  private recover(): void {
    const undo = this.undo!;
    undo.removeStaleTemps(pidAlive);
    const now = Date.now();
    for (const marker of undo.pending()) {
      if (marker.pid !== process.pid && pidAlive(marker.pid) && undo.markerAge(marker.id, now) < STALE_MARKER_MS) continue;
      const record = undo.load(marker.id);
      if (record !== null) {
        removeTemps(record.dir, marker);
        if (marker.op === 'fix') this.settle(record, marker.token);
      }
      undo.end(marker.id);
    }
  }

  /** A fix whose process ended while it wrote: forgotten when nothing (or only part) of it stayed. */
  private settle(record: UndoRecord, token: string): void {
    const states = changesNow(record);
    if (states.every((s) => s.state === 'after') || states.some((s) => s.state === 'other')) return;
    try {
      for (const { change } of states.filter((s) => s.state === 'after').reverse()) restoreChange(record.dir, change, token);
    } catch {
      // The record stays: an undo can still finish it.
      return;
    }
    this.undo!.remove(record.id);
    this.o.changed();
  }
}

/** Drops a record and its marker after a fix that wrote nothing lasting. */
function forget(undo: UndoStore, id: string): void {
  try {
    undo.remove(id);
  } catch {
    // The next start drops it: its marker says the fix did not end.
    return;
  }
  undo.end(id);
}

function restoredNote(done: FileChange[]): string {
  return `some files could not be put back: ${done.map((c) => c.file).join(', ')}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

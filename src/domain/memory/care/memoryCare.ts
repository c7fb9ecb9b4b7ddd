// Memory care as the service offers it: the health check, and the fixes, the first thing the viewer
// writes to a user's files. A fix is previewed (a diff, nothing written), then applied with the
// preview's content hash: 409 when any file it reads changed since. Before anything is written the
// previous bytes go to an undo record under the viewer's cache dir; --read-only (or no place for undo
// records) turns every write off. Fixes and undos run one at a time.
import { LARGE_FILE_BYTES } from '../../largeFiles.js';
import type { FixKind, MemoryFixResult, MemoryHealth, MemoryTrash, MemoryUndoResult } from '../../../contract/memoryCare.js';
import type { MemoryStore } from '../memoryStore.js';
import { type SourceContext, sourceContext } from './context.js';
import { unifiedDiff } from './diff.js';
import { DEFAULT_STALE_DAYS } from './detectors/stale.js';
import { planFix } from './fixes/plan.js';
import type { FileChange } from './fixes/types.js';
import { memoryHealth } from './health.js';
import { type RecordedChange, UndoStore, sha256 } from './undoStore.js';
import { UnsafePath, readBytes, removeFile, resolveInside, writeAtomically } from './writer.js';

export interface MemoryCareOptions {
  store: MemoryStore;
  /** Where undo records and the trash live; null: no fix can be applied. */
  careDir: string | null;
  readOnly: boolean;
  staleDays?: number;
  sessionKnown(sessionId: string): boolean;
  /** Called after files were written (the listing is stale). */
  changed(): void;
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

class NotText extends Error {}

export class MemoryCare {
  private readonly undo: UndoStore | null;
  private tail: Promise<unknown> = Promise.resolve();
  readonly staleDays: number;

  constructor(private readonly o: MemoryCareOptions) {
    this.undo = o.careDir ? new UndoStore(o.careDir) : null;
    this.staleDays = o.staleDays ?? DEFAULT_STALE_DAYS;
  }

  get readOnly(): boolean {
    return this.o.readOnly || this.undo === null;
  }

  async health(): Promise<MemoryHealth> {
    const memory = await this.o.store.snapshot();
    const sources = memoryHealth({
      listing: memory.listing,
      files: memory.files,
      now: (this.o.now ?? Date.now)(),
      staleDays: this.staleDays,
      sessionKnown: this.o.sessionKnown,
    });
    return { readOnly: this.readOnly, staleDays: this.staleDays, sources };
  }

  fix(request: FixRequest): Promise<Outcome<MemoryFixResult>> {
    return this.serial(() => this.fixNow(request));
  }

  undoFix(undoId: string): Promise<Outcome<MemoryUndoResult>> {
    return this.serial(() => this.undoNow(undoId));
  }

  trash(): MemoryTrash {
    const items = (this.undo?.all() ?? []).filter((r) => r.kind === 'trash-topic')
      .map((r) => ({ undoId: r.id, sourceId: r.sourceId, dir: r.dir, file: r.file, removed: r.created }));
    return { items };
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async fixNow(request: FixRequest): Promise<Outcome<MemoryFixResult>> {
    if (request.apply && this.readOnly) return readOnlyRefusal(this.o.readOnly);
    if (request.apply && !request.hash) return { status: 400, message: 'Bad request: apply needs the hash of the preview' };
    // What the listing says now, not what it said up to 5 s ago: the fix is computed against it.
    this.o.store.invalidate();
    const memory = await this.o.store.snapshot();
    const source = memory.listing.sources.find((s) => s.id === request.sourceId);
    if (!source) return { status: 404, message: 'Not found: no such memory source' };
    const ctx: SourceContext = sourceContext(
      source, memory.listing.entries.filter((e) => e.sourceId === source.id), memory.files.get(source.id) ?? [],
    );
    if (!ctx.byFile.has(request.file) && request.kind !== 'add-to-index') return { status: 404, message: 'Not found: no such memory file' };

    const reads = new Map<string, Buffer | null>();
    const read = (file: string): string | null => {
      let bytes = reads.get(file);
      if (bytes === undefined) {
        bytes = readBytes(resolveInside(source.dir, file).real);
        if (bytes !== null && bytes.length > LARGE_FILE_BYTES) throw new NotText(`${file} is too large to fix here`);
        reads.set(file, bytes);
      }
      if (bytes === null) return null;
      const text = bytes.toString('utf8');
      // A fix rewrites text; bytes that are not UTF-8 would not survive the round trip.
      if (!Buffer.from(text, 'utf8').equals(bytes)) throw new NotText(`${file} is not UTF-8 text`);
      return text;
    };
    let plan;
    try {
      plan = planFix(request.kind, { ctx, file: request.file, target: request.target ?? null, read });
    } catch (error) {
      if (error instanceof UnsafePath || error instanceof NotText) return { status: 400, message: `Bad request: ${error.message}` };
      throw error;
    }
    if ('invalid' in plan) return { status: 400, message: `Bad request: ${plan.invalid}` };
    if ('conflict' in plan) return { status: 409, message: `Conflict: ${plan.conflict}` };
    const hash = contentHash(request, reads, plan.changes);
    if (request.hash !== undefined && request.hash !== '' && request.hash !== hash) {
      return { status: 409, message: 'Conflict: the files changed since the preview; look at the new preview' };
    }
    const diff = plan.changes.map((c) => unifiedDiff(c.file, c.before, c.after)).join('');
    const files = plan.changes.map((c) => c.file);
    if (!request.apply) return { ok: { diff, hash, files, applied: false, undoId: null } };
    return this.write(request, source.id, source.dir, plan.changes, reads, { diff, hash, files });
  }

  private write(
    request: FixRequest, sourceId: string, dir: string, changes: FileChange[], reads: Map<string, Buffer | null>,
    answer: Pick<MemoryFixResult, 'diff' | 'hash' | 'files'>,
  ): Outcome<MemoryFixResult> {
    const undo = this.undo!;
    const id = undo.newId();
    const recorded: RecordedChange[] = changes.map((c) => {
      const before = reads.get(c.file) ?? null;
      return { file: c.file, before: before === null ? null : before.toString('base64'), after: c.after === null ? null : sha256(Buffer.from(c.after, 'utf8')) };
    });
    try {
      undo.save({ id, created: new Date((this.o.now ?? Date.now)()).toISOString(), sourceId, dir, kind: request.kind, file: request.file, changes: recorded });
    } catch (error) {
      return { status: 500, message: `Could not keep the undo record, nothing was written: ${messageOf(error)}` };
    }
    // New files first, then rewrites, then removals: a link never points at a file not yet there.
    const order = [...changes].sort((a, b) => step(a) - step(b));
    const done: FileChange[] = [];
    try {
      for (const change of order) {
        const target = resolveInside(dir, change.file);
        const now = readBytes(target.real);
        const before = reads.get(change.file) ?? null;
        // The last look before writing: what a preview showed must still be what is there.
        if (!(now === null ? before === null : before !== null && now.equals(before))) throw new Changed(change.file);
        if (change.after === null) removeFile(target.real);
        else writeAtomically(target.real, Buffer.from(change.after, 'utf8'), now === null);
        done.push(change);
      }
    } catch (error) {
      const restored = this.rollBack(dir, done);
      undo.remove(id);
      if (done.length > 0) this.o.changed();
      if (error instanceof Changed) return { status: 409, message: `Conflict: ${error.message} changed since the preview${restored ? '' : '; ' + restoredNote(done)}` };
      return { status: 500, message: `Could not write the fix: ${messageOf(error)}${restored ? '' : '; ' + restoredNote(done)}` };
    }
    this.o.changed();
    return { ok: { ...answer, applied: true, undoId: id } };
  }

  /** Puts back what a failed fix had already written; false when that failed too. */
  private rollBack(dir: string, done: FileChange[]): boolean {
    let ok = true;
    for (const change of [...done].reverse()) {
      try {
        const target = resolveInside(dir, change.file);
        if (change.before === null) removeFile(target.real);
        else writeAtomically(target.real, Buffer.from(change.before, 'utf8'), change.after === null);
      } catch {
        ok = false;
      }
    }
    return ok;
  }

  private async undoNow(undoId: string): Promise<Outcome<MemoryUndoResult>> {
    if (this.readOnly) return readOnlyRefusal(this.o.readOnly);
    const record = this.undo!.load(undoId);
    if (record === null) return { status: 404, message: 'Not found: no such undo record' };
    // Only into a folder the viewer lists now.
    const memory = await this.o.store.snapshot();
    if (!memory.listing.sources.some((s) => s.dir === record.dir)) return { status: 409, message: 'Conflict: that memory folder is not listed any more' };
    const current: { change: RecordedChange; real: string; now: Buffer | null }[] = [];
    try {
      for (const change of record.changes) {
        const target = resolveInside(record.dir, change.file);
        const now = readBytes(target.real);
        const as = now === null ? null : sha256(now);
        if (as !== change.after) return { status: 409, message: `Conflict: ${change.file} changed since the fix` };
        current.push({ change, real: target.real, now });
      }
      for (const { change, real, now } of [...current].reverse()) {
        if (change.before === null) removeFile(real);
        else writeAtomically(real, Buffer.from(change.before, 'base64'), now === null);
      }
    } catch (error) {
      if (error instanceof UnsafePath) return { status: 409, message: `Conflict: ${error.message}` };
      return { status: 500, message: `Could not undo: ${messageOf(error)}` };
    } finally {
      this.o.changed();
    }
    this.undo!.remove(record.id);
    return { ok: { undone: true, files: record.changes.map((c) => c.file) } };
  }
}

class Changed extends Error {}

function step(change: FileChange): number {
  return change.before === null ? 0 : change.after === null ? 2 : 1;
}

/** The state a fix was computed from: the request, every file it read, and what it would write. */
function contentHash(request: FixRequest, reads: Map<string, Buffer | null>, changes: FileChange[]): string {
  const parts: Buffer[] = [Buffer.from(JSON.stringify([request.sourceId, request.kind, request.file, request.target ?? null]))];
  for (const [file, bytes] of [...reads].sort(([a], [b]) => (a < b ? -1 : 1))) {
    parts.push(Buffer.from(`\0${file}\0${bytes === null ? 'missing' : sha256(bytes)}`));
  }
  for (const c of changes) parts.push(Buffer.from(`\0${c.file}\0${c.after === null ? 'removed' : sha256(Buffer.from(c.after, 'utf8'))}`));
  return sha256(Buffer.concat(parts));
}

function readOnlyRefusal(flag: boolean): { status: 403; message: string } {
  return { status: 403, message: flag ? 'Forbidden: the viewer runs with --read-only' : 'Forbidden: no cache folder to keep undo records in' };
}

function restoredNote(done: FileChange[]): string {
  return `some files could not be put back: ${done.map((c) => c.file).join(', ')}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

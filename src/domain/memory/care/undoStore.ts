// What an applied fix changed, kept under the viewer's cache dir so it can be undone, and the trash of
// removed topics (the undo records of `trash-topic` fixes: undoing one restores the topic). A record is
// written before the fix touches anything, and removed once the fix is undone. Records are looked up
// by listing the folder and comparing names, so an id from a request is never joined onto a path.
//
// The newest MAX_UNDO_RECORDS records (and at most MAX_UNDO_BYTES of them) are kept; older ones go when a
// new one is saved. A small index (index.json: each record's id, time, kind, source, folder and file) is
// what listings read, so the trash is listed without parsing records that hold whole files; it is checked
// against the folder's names at each listing and rebuilt from the records when it is missing, damaged or
// out of step. While a fix or an undo writes, a pending marker (`<id>.pending`) names the process and the
// temporary files it may leave: the next start finishes or forgets what a killed process left
// (memoryCare.ts, recover()).
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmdirSync, unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { type RecordKind, PROBLEM_KINDS, type ProblemKind } from '../../../contract/memoryCare.js';
import { isRecordKind } from './fixes/plan.js';

export interface RecordedChange {
  /** File name inside the memory folder. */
  file: string;
  /** Its previous bytes (base64), or null when the fix created it. */
  before: string | null;
  /** SHA-256 of the bytes the fix left, or null when the fix removed it. */
  after: string | null;
  /** Set when the fix removed a symlink: its text, which an undo puts back as a link. */
  link?: string;
}

export interface UndoRecord {
  id: string;
  created: string;
  sourceId: string;
  dir: string;
  kind: RecordKind;
  /** The file the fix was asked for. */
  file: string;
  /** Set for a fix of all findings of one kind in one change (kind: the fix of the first one). */
  all?: BulkFix;
  changes: RecordedChange[];
}

export interface BulkFix {
  problem: ProblemKind;
  count: number;
}

/** A record as the index lists it: everything but the changes. */
export type UndoEntry = Omit<UndoRecord, 'changes'>;

/** Written before a fix (or an undo) writes anything, removed when it is done. */
export interface PendingMarker {
  id: string;
  op: 'fix' | 'undo';
  pid: number;
  /** The hex of the temporary files it writes (writer.ts, tempPath). */
  token: string;
  /** Every temporary file it may write, absolute. */
  temps: string[];
}

export const MAX_UNDO_RECORDS = 200;
export const MAX_UNDO_BYTES = 128 * 1024 * 1024;

const ID = /^[0-9a-f]{24}$/;
const TOKEN = /^[0-9a-f]{12}$/;
const SUFFIX = '.json';
const PENDING = '.pending';
const INDEX = 'index.json';
/** A record holds at most a few files of at most LARGE_FILE_BYTES each, base64. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;
/** The index of MAX_UNDO_RECORDS entries, with room for long folder paths. */
const MAX_INDEX_BYTES = 4 * 1024 * 1024;
const MAX_MARKER_BYTES = 64 * 1024;

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class UndoStore {
  readonly dir: string;

  constructor(careDir: string) {
    this.dir = path.join(careDir, 'undo');
  }

  newId(): string {
    return randomBytes(12).toString('hex');
  }

  /**
   * Writes and removes a file in the folder (made for the probe and removed again when it did not exist,
   * so a start leaves nothing behind): the reason it cannot be written, or null.
   */
  probe(): string | null {
    try {
      const made = mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const probe = path.join(this.dir, `probe${tempSuffix()}`);
      writeFileSync(probe, '', { mode: 0o600, flag: 'wx' });
      unlinkSync(probe);
      if (made !== undefined) removeMadeFolders(this.dir, made);
      return null;
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      return e.code ? `${e.code}: ${e.message.split(', ')[0]!.replace(`${e.code}: `, '')}` : String(error);
    }
  }

  /** Written atomically (temporary file, rename) before the fix writes anything; the oldest records go. */
  save(record: UndoRecord): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // The previous bytes of memory files: only the user may read them.
    this.writeAtomically(`${record.id}${SUFFIX}`, JSON.stringify(record));
    this.prune(this.entries(entryOf(record)));
  }

  /** The record named `id`, or null (an id of another shape names nothing). */
  load(id: string): UndoRecord | null {
    if (!ID.test(id)) return null;
    const name = this.names().find((n) => n === `${id}${SUFFIX}`);
    if (name === undefined) return null;
    return this.read(name);
  }

  remove(id: string): void {
    const name = this.names().find((n) => n === `${id}${SUFFIX}`);
    if (name !== undefined) unlinkSync(path.join(this.dir, name));
    const entries = this.entries();
    if (entries.some((e) => e.id === id)) this.writeIndex(entries.filter((e) => e.id !== id));
  }

  /** Every record as the index lists it, newest first. */
  list(): UndoEntry[] {
    return this.entries();
  }

  /** Marks a fix or an undo as writing (see PendingMarker). */
  begin(marker: PendingMarker): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.writeAtomically(`${marker.id}${PENDING}`, JSON.stringify(marker));
  }

  /** The fix or undo marked by `begin` is done (or was undone by its own rollback). */
  end(id: string): void {
    try {
      unlinkSync(path.join(this.dir, `${id}${PENDING}`));
    } catch {
      // Never written, or already gone.
    }
  }

  /** The markers left by fixes and undos that did not end, each checked. */
  pending(): PendingMarker[] {
    const markers: PendingMarker[] = [];
    for (const name of this.allNames()) {
      if (!name.endsWith(PENDING) || !ID.test(name.slice(0, -PENDING.length))) continue;
      const data = parseJson(readBounded(path.join(this.dir, name), MAX_MARKER_BYTES));
      const marker = data === undefined ? null : markerOf(data, name.slice(0, -PENDING.length));
      // An unreadable marker protects nothing any more: it is dropped with nothing done.
      if (marker === null) this.end(name.slice(0, -PENDING.length));
      else markers.push(marker);
    }
    return markers;
  }

  /** Age in milliseconds of a marker's file (0 when it cannot be said). */
  markerAge(id: string, now: number): number {
    try {
      return Math.max(0, now - lstatSync(path.join(this.dir, `${id}${PENDING}`)).mtimeMs);
    } catch {
      return 0;
    }
  }

  /** Temporary files of this folder's own atomic writes left by processes that are gone. */
  removeStaleTemps(alive: (pid: number) => boolean): void {
    for (const name of this.allNames()) {
      const m = /\.tmp\.(\d+)\.[0-9a-f]{12}$/.exec(name);
      if (!m || (Number(m[1]) !== process.pid && alive(Number(m[1])))) continue;
      try {
        if (lstatSync(path.join(this.dir, name)).isFile()) unlinkSync(path.join(this.dir, name));
      } catch {
        // Gone already.
      }
    }
  }

  /**
   * The index, checked against the names in the folder: entries whose record is gone are dropped, records
   * it does not list are read and added, and the corrected index is written back. `saved`: a record just
   * written, known without reading it back.
   */
  private entries(saved: UndoEntry | null = null): UndoEntry[] {
    const names = this.names();
    const ids = new Set(names.map((n) => n.slice(0, -SUFFIX.length)));
    const indexed = this.readIndex();
    const kept = (indexed ?? []).filter((e) => ids.has(e.id) && e.id !== saved?.id);
    if (saved !== null) kept.push(saved);
    const known = new Set(kept.map((e) => e.id));
    const missing = names.filter((n) => !known.has(n.slice(0, -SUFFIX.length)));
    if (saved === null && indexed !== null && missing.length === 0 && kept.length === indexed.length) return kept;
    for (const name of missing) {
      const record = this.read(name);
      if (record !== null) kept.push(entryOf(record));
    }
    const entries = sortNewestFirst(kept);
    // With a record just saved, prune() writes the index.
    if (saved !== null) return entries;
    try {
      this.writeIndex(entries);
    } catch {
      // A folder that cannot be written still lists; the index is rebuilt next time.
    }
    return entries;
  }

  private readIndex(): UndoEntry[] | null {
    const data = parseJson(readBounded(path.join(this.dir, INDEX), MAX_INDEX_BYTES));
    if (typeof data !== 'object' || data === null || !Array.isArray((data as { entries?: unknown }).entries)) return null;
    const entries: UndoEntry[] = [];
    const seen = new Set<string>();
    for (const item of (data as { entries: unknown[] }).entries) {
      const entry = validEntry(item);
      // One bad entry makes the whole index suspect: it is rebuilt from the records.
      if (entry === null || seen.has(entry.id)) return null;
      seen.add(entry.id);
      entries.push(entry);
    }
    return entries;
  }

  private writeIndex(entries: UndoEntry[]): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.writeAtomically(INDEX, JSON.stringify({ entries }));
  }

  /** Keeps the newest records within both bounds (the newest one always), then writes the index. */
  private prune(entries: UndoEntry[]): void {
    let bytes = 0;
    const kept: UndoEntry[] = [];
    for (const entry of entries) {
      const file = path.join(this.dir, `${entry.id}${SUFFIX}`);
      let size: number;
      try {
        size = lstatSync(file).size;
      } catch {
        continue;
      }
      if (kept.length > 0 && (kept.length >= MAX_UNDO_RECORDS || bytes + size > MAX_UNDO_BYTES)) {
        try {
          unlinkSync(file);
        } catch {
          // Already gone: nothing to drop.
        }
        continue;
      }
      bytes += size;
      kept.push(entry);
    }
    this.writeIndex(kept);
  }

  private writeAtomically(name: string, text: string): void {
    const file = path.join(this.dir, name);
    const tmp = `${file}${tempSuffix()}`;
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  }

  private allNames(): string[] {
    try {
      return readdirSync(this.dir);
    } catch {
      return [];
    }
  }

  private names(): string[] {
    return this.allNames().filter((n) => n.endsWith(SUFFIX) && ID.test(n.slice(0, -SUFFIX.length)));
  }

  private read(name: string): UndoRecord | null {
    const data = parseJson(readBounded(path.join(this.dir, name), MAX_RECORD_BYTES));
    return isRecord(data) && `${data.id}${SUFFIX}` === name ? data : null;
  }
}

/** rmdir of `dir` and its parents up to `made` (the first one mkdir made), while they stay empty. */
function removeMadeFolders(dir: string, made: string): void {
  try {
    for (let d = dir; d.length >= made.length; d = path.dirname(d)) rmdirSync(d);
  } catch {
    // Something else is in it now: it stays.
  }
}

function tempSuffix(): string {
  return `.tmp.${process.pid}.${randomBytes(6).toString('hex')}`;
}

/** A regular file's text, at most `max` bytes (else null); a FIFO, a device or a link is not read. */
function readBounded(file: string, max: number): string | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > max) return null;
    return readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function entryOf(record: UndoRecord): UndoEntry {
  const entry: UndoEntry = { id: record.id, created: record.created, kind: record.kind, sourceId: record.sourceId, dir: record.dir, file: record.file };
  if (record.all) entry.all = { problem: record.all.problem, count: record.all.count };
  return entry;
}

function validBulk(value: unknown): BulkFix | null | undefined {
  if (value === undefined) return undefined;
  const b = value as Partial<Record<keyof BulkFix, unknown>> | null;
  if (typeof b !== 'object' || b === null || typeof b.problem !== 'string' || !(PROBLEM_KINDS as readonly string[]).includes(b.problem) ||
      !Number.isSafeInteger(b.count) || (b.count as number) < 1) {
    return null;
  }
  return { problem: b.problem as ProblemKind, count: b.count as number };
}

function sortNewestFirst(entries: UndoEntry[]): UndoEntry[] {
  return entries.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

const MAX_FIELD_CHARS = 8192;
const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_FIELD_CHARS;

/** An index entry rebuilt field by field (nothing else of the parsed object is kept), or null. */
function validEntry(item: unknown): UndoEntry | null {
  if (typeof item !== 'object' || item === null) return null;
  const e = item as Record<string, unknown>;
  if (!isText(e.id) || !ID.test(e.id) || !isText(e.created) || Number.isNaN(Date.parse(e.created)) ||
      !isText(e.kind) || !isRecordKind(e.kind) || !isText(e.sourceId) || !isText(e.dir) || !path.isAbsolute(e.dir) || !isText(e.file)) {
    return null;
  }
  const all = validBulk(e.all);
  if (all === null) return null;
  const entry: UndoEntry = { id: e.id, created: e.created, kind: e.kind, sourceId: e.sourceId, dir: e.dir, file: e.file };
  if (all) entry.all = all;
  return entry;
}

function markerOf(data: unknown, id: string): PendingMarker | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.id !== id || (m.op !== 'fix' && m.op !== 'undo') || !Number.isSafeInteger(m.pid) || (m.pid as number) <= 0 ||
      !isText(m.token) || !TOKEN.test(m.token) || !Array.isArray(m.temps) || !m.temps.every((t) => isText(t) && path.isAbsolute(t))) {
    return null;
  }
  return { id, op: m.op, pid: m.pid as number, token: m.token, temps: m.temps as string[] };
}

function isRecord(data: unknown): data is UndoRecord {
  const r = data as Partial<UndoRecord> | null;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.created === 'string' &&
    typeof r.sourceId === 'string' && typeof r.dir === 'string' && typeof r.kind === 'string' && isRecordKind(r.kind) &&
    typeof r.file === 'string' && validBulk(r.all) !== null && Array.isArray(r.changes) && r.changes.every((c) => typeof c?.file === 'string' &&
      (c.before === null || typeof c.before === 'string') && (c.after === null || typeof c.after === 'string') &&
      (c.link === undefined || typeof c.link === 'string'));
}

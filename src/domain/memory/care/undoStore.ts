// What an applied fix changed, kept under the viewer's cache dir so it can be undone, and the trash of
// removed topics (the undo records of `trash-topic` fixes: undoing one restores the topic). A record is
// written before the fix touches anything, and removed once the fix is undone. Records are looked up
// by listing the folder and comparing names, so an id from a request is never joined onto a path.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FixKind } from '../../../contract/memoryCare.js';

export interface RecordedChange {
  /** File name inside the memory folder. */
  file: string;
  /** Its previous bytes (base64), or null when the fix created it. */
  before: string | null;
  /** SHA-256 of the bytes the fix left, or null when the fix removed it. */
  after: string | null;
}

export interface UndoRecord {
  id: string;
  created: string;
  sourceId: string;
  dir: string;
  kind: FixKind;
  /** The file the fix was asked for. */
  file: string;
  changes: RecordedChange[];
}

const ID = /^[0-9a-f]{24}$/;
const SUFFIX = '.json';
/** A record holds at most a few files of at most LARGE_FILE_BYTES each, base64. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class UndoStore {
  private readonly dir: string;

  constructor(careDir: string) {
    this.dir = path.join(careDir, 'undo');
  }

  newId(): string {
    return randomBytes(12).toString('hex');
  }

  /** Written atomically (temporary file, rename) before the fix writes anything. */
  save(record: UndoRecord): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${record.id}${SUFFIX}`);
    const tmp = `${file}.tmp.${process.pid}.${randomBytes(6).toString('hex')}`;
    // The previous bytes of memory files: only the user may read them.
    writeFileSync(tmp, JSON.stringify(record), { mode: 0o600 });
    renameSync(tmp, file);
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
  }

  /** Every record, newest first. */
  all(): UndoRecord[] {
    const records = this.names().map((n) => this.read(n)).filter((r): r is UndoRecord => r !== null);
    return records.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
  }

  private names(): string[] {
    try {
      return readdirSync(this.dir).filter((n) => n.endsWith(SUFFIX) && ID.test(n.slice(0, -SUFFIX.length)));
    } catch {
      return [];
    }
  }

  private read(name: string): UndoRecord | null {
    try {
      const raw = readFileSync(path.join(this.dir, name), 'utf8');
      if (raw.length > MAX_RECORD_BYTES) return null;
      const data = JSON.parse(raw) as UndoRecord;
      return isRecord(data) && `${data.id}${SUFFIX}` === name ? data : null;
    } catch {
      return null;
    }
  }
}

function isRecord(data: unknown): data is UndoRecord {
  const r = data as Partial<UndoRecord> | null;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.created === 'string' &&
    typeof r.sourceId === 'string' && typeof r.dir === 'string' && typeof r.kind === 'string' && typeof r.file === 'string' &&
    Array.isArray(r.changes) && r.changes.every((c) => typeof c?.file === 'string' &&
      (c.before === null || typeof c.before === 'string') && (c.after === null || typeof c.after === 'string'));
}

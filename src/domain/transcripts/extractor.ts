// What a fact from transcripts is made of: an extractor the reader runs on every line of every log, with
// the facts it keeps per log and how they are saved with the session index (savedFacts.ts). A new fact is
// a new extractor registered in extractors/index.ts; the reader, the cache and the golden test of derived
// facts take it from there.
import type { LineView } from './lineView.js';
import type { LineHead } from './extractors/lineHead.js';

export interface Extractor<F> {
  /** The facts of a log nothing was read from. */
  empty(): F;
  /** Adds what one line says to its log's facts. */
  line(facts: F, line: LineView, head: LineHead): void;
  /** The facts as JSON data, for the cache. */
  save(facts: F): unknown;
  /** What save() gave, checked field by field: null when it is anything else (the log is then read again). */
  restore(saved: unknown): F | null;
}

// Checks shared by the extractors' restore(): a cache is untrusted input.

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function isText(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

export function isSpan(start: unknown, end: unknown): boolean {
  return isCount(start) && isCount(end) && start <= end;
}

/** Each row of `rows` through `read`; null when `rows` is no array or any row is refused. */
export function readRows<T>(rows: unknown, read: (row: unknown[]) => T | null): T[] | null {
  if (!Array.isArray(rows)) return null;
  const out: T[] = [];
  for (const row of rows as unknown[]) {
    const value = Array.isArray(row) ? read(row as unknown[]) : null;
    if (value === null) return null;
    out.push(value);
  }
  return out;
}

// The session index's facts besides links (one line per log, transcripts/savedFacts.ts) live in a file of
// their own beside the index: a restart reads the small index at once to serve its plan list, and these
// tens of MB later, off the main thread, before the first answer that needs them (SessionIndex
// completeRestore()). A line asked for before that reads the file then, synchronously: an answer never
// goes without its facts. The file's first line carries a stamp the index names and each line's length
// (so that finding a line is no search through tens of MB); a file from another save (a crash between
// the two writes, a hand copy) or whose lines are not those lengths gives no line, so every log is read again.
import { randomBytes } from 'node:crypto';
import { readCacheFile, readCacheFileSync, TOO_LARGE } from '../files.js';
import { PART_SEPARATOR, type SavedText } from '../transcripts/savedFacts.js';

const NEWLINE = 0x0a;
const TAB = PART_SEPARATOR.charCodeAt(0);

/** A new stamp for a save: the index and its facts file must come from the same one. */
export function newFactsStamp(): string {
  return randomBytes(8).toString('hex');
}

/** Bytes per piece of a facts file as written: each piece is one write, and one copy of its lines. */
const PIECE_BYTES = 1024 * 1024;
const NEWLINE_BYTE = Buffer.from('\n');

/**
 * The facts file's bytes, in pieces: a header naming `stamp` and each line's length, then the lines.
 * Encoded a line at a time, awaiting `between` after each: joining tens of MB of text, much of it not
 * Latin-1, into one string and encoding that held the thread for ~0.3 s (D63).
 */
export async function factsFilePieces(stamp: string, lines: readonly string[], between: () => Promise<void>): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  const lengths: number[] = [];
  let group: Buffer[] = [];
  let groupBytes = 0;
  for (const line of lines) {
    const bytes = Buffer.from(line, 'utf8');
    lengths.push(bytes.length);
    group.push(bytes, NEWLINE_BYTE);
    groupBytes += bytes.length + 1;
    if (groupBytes >= PIECE_BYTES) {
      pieces.push(Buffer.concat(group, groupBytes));
      group = [];
      groupBytes = 0;
    }
    await between();
  }
  if (groupBytes > 0) pieces.push(Buffer.concat(group, groupBytes));
  pieces.unshift(Buffer.from(`${JSON.stringify({ stamp, bytes: lengths })}\n`, 'utf8'));
  return pieces;
}

export class SavedFactsFile {
  private bytes: Buffer | null = null;
  /** Where each log's line starts; log i's ends at starts[i + 1] - 1 (its newline). */
  private starts: number[] = [];
  private loading: Promise<void> | null = null;

  constructor(private readonly file: string, private readonly stamp: string, private readonly maxBytes: number) {}

  /** Log `i`'s saved text, read when it is first asked for ('' when the file does not hold it: refused). */
  at(i: number): SavedText {
    return { whole: () => this.line(i), part: (index) => this.part(i, index) };
  }

  /** Reads the file on the thread pool, so that the lines asked for later need no synchronous read. */
  prefetch(): Promise<void> {
    this.loading ??= readCacheFile(this.file, this.maxBytes).then((bytes) => {
      if (this.bytes === null) this.take(bytes);
    });
    return this.loading;
  }

  private line(i: number): string {
    const [start, end] = this.range(i);
    return start === end ? '' : this.bytes!.toString('utf8', start, end);
  }

  /** Part `index` of log `i`'s line, decoding none of its other parts. */
  private part(i: number, index: number): string {
    const [first, end] = this.range(i);
    let start = first;
    for (let k = 0; k < index && start < end; k++) {
      const next = this.bytes!.indexOf(TAB, start);
      start = next === -1 || next >= end ? end : next + 1;
    }
    const next = start < end ? this.bytes!.indexOf(TAB, start) : -1;
    return this.bytes!.toString('utf8', start, next === -1 || next >= end ? end : next);
  }

  /** Where log `i`'s line is in the bytes (equal ends: not held). */
  private range(i: number): [start: number, end: number] {
    if (this.bytes === null) {
      const bytes = readCacheFileSync(this.file, this.maxBytes);
      this.take(bytes === TOO_LARGE ? null : bytes);
    }
    const start = this.starts[i];
    const next = this.starts[i + 1];
    // A line of the lengths the header gives sits between two newlines; else the file does not hold it.
    if (start === undefined || next === undefined || this.bytes![start - 1] !== NEWLINE || this.bytes![next - 1] !== NEWLINE) return [0, 0];
    return [start, next - 1];
  }

  /** Takes the file's bytes when its header names this index's stamp and its lines' lengths are right; none otherwise. */
  private take(bytes: Buffer | null): void {
    this.bytes = Buffer.alloc(0);
    this.starts = [];
    const end = bytes === null ? -1 : bytes.indexOf(NEWLINE);
    if (bytes === null || end === -1) return;
    const lengths = headerLengths(bytes.toString('utf8', 0, end), this.stamp);
    if (lengths === null) return;
    // Each line's newlines are checked when it is read (range()): checking them all here touched a page of
    // the fresh buffer per line before anything needed a line (docs/decisions.md, D66).
    const starts = [end + 1];
    for (const length of lengths) starts.push(starts.at(-1)! + length + 1);
    if (starts.at(-1) !== bytes.length) return;
    this.bytes = bytes;
    this.starts = starts;
  }
}

/** The line lengths a header gives when it names `stamp`; null when it is anything else. */
function headerLengths(text: string, stamp: string): number[] | null {
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof header !== 'object' || header === null) return null;
  const { stamp: named, bytes } = header as Record<string, unknown>;
  if (named !== stamp || !Array.isArray(bytes)) return null;
  return bytes.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) ? (bytes as number[]) : null;
}

// The session index's facts besides links (one line per log, transcripts/savedFacts.ts) live in a file of
// their own beside the index: a restart reads the small index at once to serve its plan list, and these
// tens of MB later, off the main thread, before the first answer that needs them (SessionIndex
// completeRestore()). A line asked for before that reads the file then, synchronously: an answer never
// goes without its facts. The file's first line carries a stamp the index names and each line's length
// (so that finding a line is no search through tens of MB); a file from another save (a crash between
// the two writes, a hand copy) or whose lines are not those lengths gives no line, so every log is read again.
import { randomBytes } from 'node:crypto';
import { readCacheFileSync, TOO_LARGE, openRegularFile } from '../files.js';

const NEWLINE = 0x0a;

/** A new stamp for a save: the index and its facts file must come from the same one. */
export function newFactsStamp(): string {
  return randomBytes(8).toString('hex');
}

/** The facts file's bytes: a header naming `stamp` and each line's length, then the lines. */
export function factsFileBytes(stamp: string, lines: readonly string[]): Buffer {
  const header = JSON.stringify({ stamp, bytes: lines.map((line) => Buffer.byteLength(line)) });
  return Buffer.from([header, ...lines, ''].join('\n'));
}

export class SavedFactsFile {
  private bytes: Buffer | null = null;
  /** Where each log's line starts; log i's ends at starts[i + 1] - 1 (its newline). */
  private starts: number[] = [];
  private loading: Promise<void> | null = null;

  constructor(private readonly file: string, private readonly stamp: string, private readonly maxBytes: number) {}

  /** Log `i`'s saved text, read when it is first asked for ('' when the file does not hold it: refused). */
  at(i: number): () => string {
    return () => this.line(i);
  }

  /** Reads the file on the thread pool, so that the lines asked for later need no synchronous read. */
  prefetch(): Promise<void> {
    this.loading ??= this.readAsync().then((bytes) => {
      if (this.bytes === null) this.take(bytes);
    });
    return this.loading;
  }

  private async readAsync(): Promise<Buffer | null> {
    const opened = await openRegularFile(this.file, () => null);
    if (opened === null) return null;
    try {
      return opened.stats.size > this.maxBytes ? null : await opened.handle.readFile();
    } catch {
      return null;
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  }

  private line(i: number): string {
    if (this.bytes === null) {
      const bytes = readCacheFileSync(this.file, this.maxBytes);
      this.take(bytes === TOO_LARGE ? null : bytes);
    }
    const start = this.starts[i];
    const next = this.starts[i + 1];
    return start === undefined || next === undefined ? '' : this.bytes!.toString('utf8', start, next - 1);
  }

  /** Takes the file's bytes when its header names this index's stamp and its lines' lengths are right; none otherwise. */
  private take(bytes: Buffer | null): void {
    this.bytes = Buffer.alloc(0);
    this.starts = [];
    const end = bytes === null ? -1 : bytes.indexOf(NEWLINE);
    if (bytes === null || end === -1) return;
    const lengths = headerLengths(bytes.toString('utf8', 0, end), this.stamp);
    if (lengths === null) return;
    const starts = [end + 1];
    for (const length of lengths) {
      const newline = starts.at(-1)! + length;
      if (newline >= bytes.length || bytes[newline] !== NEWLINE) return;
      starts.push(newline + 1);
    }
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

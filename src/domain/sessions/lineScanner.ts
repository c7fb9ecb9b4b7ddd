// Byte-level scanner for Claude Code session logs (JSON Lines). Lines can be many MB of tool output and
// only three short string values at their end matter, so lines are never decoded, split into strings
// or JSON-parsed: the scanner finds the line ends (a memchr-fast Buffer.indexOf of one byte), looks for
// the raw keys near each line's end only, and decodes just their values.
//
// The rules, per line (the bytes between two `\n`, or before the end of the stream):
// - Only the line's last `tailWindow` bytes (TAIL_WINDOW_BYTES) are read: its "window". A line no longer
//   than that is read whole.
// - The window is parsed left to right: find the next `"cwd":"`, `"sessionId":"` or `"slug":"`, read its
//   value up to the closing quote (JSON escapes honoured; an unclosed value runs to the end of the line),
//   go on after it. The last occurrence of each key wins; see LineWindow.finish() for the torn-line rule.
// - A value is kept only when it is valid (values.ts) and at most MAX_VALUE_BYTES raw bytes.
//
// It is a pure state machine over a byte stream: the records it emits depend only on the bytes, never on
// where the chunk boundaries fall (the property tests feed arbitrary splits). Between chunks it keeps at
// most `tailWindow` bytes of the unfinished line, and usually far fewer (see keepTail()).
import {
  KEY_END, KEYS, LineWindow, MAX_KEY_BYTES, PROBE_BYTES, QUOTE, keyPrefixAt, type LineRecord,
} from './lineWindow.js';

export { MAX_VALUE_BYTES, type LineRecord } from './lineWindow.js';

const NEWLINE = 0x0a;

export interface ScannerStats {
  /** Bytes passed to feed() since the last reset. */
  bytesFed: number;
  /** Bytes up to and including the last `\n` seen (everything after is an unfinished line). */
  completedBytes: number;
  /** High-water mark of line bytes held between feed() calls (never more than the tail window). */
  maxRetainedBytes: number;
}

export interface LineScannerOptions {
  /** How many bytes at the end of each line are read (default TAIL_WINDOW_BYTES). Tests shrink it. */
  tailWindowBytes?: number;
  /** The first suffix of a window tried before the whole window (default 512); see LineWindow.scan(). */
  probeBytes?: number;
}

/**
 * Only the last this-many bytes of a line are searched for keys. Claude Code ends every conversation
 * line with `"cwd":"<cwd>","sessionId":"<uuid>","version":"…","gitBranch":"…","slug":"<slug>"}`: ~200
 * bytes plus the cwd and branch. 16 KiB holds that run with the longest cwd accepted (MAX_VALUE_BYTES)
 * and ~8 KiB to spare for the branch and version, so such a line reads the same as with a whole-line
 * scan however long it is; and a line up to this long IS read whole.
 *
 * The trade-off: in a longer line (tool output runs to several MB) a key that starts more than this far
 * before the line's end is not seen. Claude Code never puts the keys there (nested copies of them inside
 * tool results come earlier, and must lose to the trailing ones anyway). In exchange a multi-MB line
 * costs one memchr pass for its `\n` instead of three substring searches over all of its bytes, and what
 * the scanner holds between chunks stays bounded by this window. It is also small enough that searching
 * it is cheap next to reading a chunk (see keepTail()).
 */
export const TAIL_WINDOW_BYTES = 16 * 1024;

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

export class LineScanner {
  private readonly window: number;
  private readonly line: LineWindow;
  /** The end of the unfinished line: from its first possible key in its last `window` bytes. */
  private readonly tail: Buffer;
  private tailLength = 0;
  /**
   * The last `window` bytes of a chunk that ended inside a line, when its caller keeps that chunk intact
   * until the next feed(): what keepTail() would keep of them is only worked out if the next chunk needs
   * it. Inside a multi-MB line it never does, and that search (for `":"` in the chunk's last window) is
   * slow in tool output full of escaped quotes.
   */
  private deferred: Buffer | null = null;

  private fed = 0;
  private completed = 0;
  private maxRetained = 0;

  constructor(options: LineScannerOptions = {}) {
    this.window = positiveInteger(options.tailWindowBytes, TAIL_WINDOW_BYTES, 'tailWindowBytes');
    this.line = new LineWindow(positiveInteger(options.probeBytes, PROBE_BYTES, 'probeBytes'));
    this.tail = Buffer.alloc(this.window);
  }

  /** Forgets everything, so one scanner (and its buffers) can serve many files. */
  reset(): void {
    this.tailLength = 0;
    this.deferred = null;
    this.line.reset();
    this.fed = 0;
    this.completed = 0;
    this.maxRetained = 0;
  }

  get stats(): ScannerStats {
    return { bytesFed: this.fed, completedBytes: this.completed, maxRetainedBytes: this.maxRetained };
  }

  /**
   * Records of the lines completed (by a `\n`) within this chunk. The chunk is not kept, unless the
   * caller promises (`keptUntilNextFeed`) not to change its bytes before the next feed(), end() or
   * reset(): then a reference to its end may be held until then instead of a copy of what matters in it.
   */
  feed(chunk: Buffer, keptUntilNextFeed = false): LineRecord[] {
    const out: LineRecord[] = [];
    const n = chunk.length;
    const base = this.fed;
    this.fed += n;
    let from = 0;
    const first = chunk.indexOf(NEWLINE);
    // The deferred tail is only read when this chunk's part of the line is shorter than the window.
    if (this.deferred !== null && (first === -1 ? n < this.window : first < this.window)) this.keepDeferred();
    this.deferred = null;
    for (let nl = first; nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      if (this.tailLength > 0 && nl - from < this.window) {
        // The window starts in an earlier chunk: join the kept tail and this chunk's part of the line.
        this.appendTail(chunk, from, nl);
        this.line.scan(this.tail, 0, this.tailLength);
      } else {
        // If the line began in an earlier chunk and nothing was kept, no key starts in its window there.
        this.line.scan(chunk, Math.max(from, nl - this.window), nl);
      }
      this.tailLength = 0;
      this.line.finish(out);
      this.completed = base + nl + 1;
      from = nl + 1;
    }
    if (from < n) {
      if (keptUntilNextFeed && n - from >= this.window) {
        // What keepTail() would do, later: with a window of this line here, it ignores the tail kept so far.
        this.deferred = chunk.subarray(n - this.window, n);
        this.tailLength = 0;
      } else {
        this.keepTail(chunk, from, n);
      }
    }
    if (this.tailLength > this.maxRetained) this.maxRetained = this.tailLength;
    return out;
  }

  private keepDeferred(): void {
    const deferred = this.deferred!;
    this.deferred = null;
    this.keepTail(deferred, 0, deferred.length);
    if (this.tailLength > this.maxRetained) this.maxRetained = this.tailLength;
  }

  /** The stream ended: an unfinished last line counts as a line. */
  end(): LineRecord[] {
    if (this.deferred !== null) this.keepDeferred();
    const out: LineRecord[] = [];
    if (this.tailLength > 0) this.line.scan(this.tail, 0, this.tailLength);
    this.tailLength = 0;
    this.line.finish(out);
    this.completed = this.fed;
    return out;
  }

  /** Makes the tail the last (at most `window`) bytes of the tail followed by src[from, to). */
  private appendTail(src: Buffer, from: number, to: number): void {
    const length = to - from;
    const kept = Math.min(this.tailLength, this.window - length);
    if (kept < this.tailLength) this.tail.copyWithin(0, this.tailLength - kept, this.tailLength);
    src.copy(this.tail, kept, from, to);
    this.tailLength = kept + length;
  }

  /**
   * The chunk ended inside a line (which began at `from`, or earlier when a tail is kept). Only a key
   * starting in the line's last `window` bytes can count, and the line's end is at least this far off,
   * so bytes before that, and before the first key (or key prefix) after that, are never needed: the
   * tail keeps the rest. A multi-MB line of tool output usually leaves nothing to keep.
   */
  private keepTail(chunk: Buffer, from: number, to: number): void {
    if (to - from >= this.window) {
      const start = this.firstKeyStart(chunk, to - this.window, to);
      this.tailLength = to - start;
      if (this.tailLength > 0) chunk.copy(this.tail, 0, start, to);
    } else {
      this.appendTail(chunk, from, to);
      const start = this.firstKeyStart(this.tail, 0, this.tailLength);
      if (start > 0) {
        this.tail.copyWithin(0, start, this.tailLength);
        this.tailLength -= start;
      }
    }
  }

  /** The first position in [from, to) where a key starts, or a key prefix runs to `to`; `to` when none. */
  private firstKeyStart(buf: Buffer, from: number, to: number): number {
    const view = buf.subarray(from, to);
    const length = view.length;
    let first = length;
    // Every key ends with `":"`, which escaped tool output (most of a long line) never holds: one cheap
    // search usually shows there is no key at all, else where the key searches can start.
    const colon = view.indexOf(KEY_END);
    if (colon !== -1) {
      const start = Math.max(0, colon - (MAX_KEY_BYTES - KEY_END.length));
      for (const key of KEYS) {
        const at = view.indexOf(key, start);
        if (at !== -1 && at < first) first = at;
      }
    }
    for (let at = Math.max(0, length - (MAX_KEY_BYTES - 1)); at < first; at++) {
      if (view[at] === QUOTE && keyPrefixAt(view, at, length)) {
        first = at;
        break;
      }
    }
    return from + first;
  }
}

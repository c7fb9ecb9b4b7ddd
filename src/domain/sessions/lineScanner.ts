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
//   go on after it. The last occurrence of each key wins; see endLine() for the torn-line rule.
// - A value is kept only when it is valid (values.ts) and at most MAX_VALUE_BYTES raw bytes.
//
// It is a pure state machine over a byte stream: the records it emits depend only on the bytes, never on
// where the chunk boundaries fall (the property tests feed arbitrary splits). Between chunks it keeps at
// most `tailWindow` bytes of the unfinished line, and usually far fewer (see keepTail()).
import { decodeCwd, decodeSessionId, decodeSlug } from './values.js';

/** What one complete line says about its session. */
export interface LineRecord {
  sessionId: string;
  cwd: string | null;
  slug: string | null;
}

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
  /** The first suffix of a window tried before the whole window (default 512); see scanWindow(). */
  probeBytes?: number;
}

/** A cwd, sessionId or slug longer than this is not one Claude Code wrote: it is ignored. */
export const MAX_VALUE_BYTES = 8 * 1024;

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

/** Most lines are decided by their last few hundred bytes (see scanWindow()); tried first. */
const PROBE_BYTES = 512;
const PROBE_GROWTH = 4;

type KeyId = 0 | 1 | 2;
const CWD: KeyId = 0;
const SESSION_ID: KeyId = 1;
const SLUG: KeyId = 2;
const KEY_CWD = Buffer.from('"cwd":"');
const KEY_SESSION_ID = Buffer.from('"sessionId":"');
const KEY_SLUG = Buffer.from('"slug":"');
const KEYS: readonly [Buffer, Buffer, Buffer] = [KEY_CWD, KEY_SESSION_ID, KEY_SLUG];
const MAX_KEY_BYTES = 13;
/** How every key ends. */
const KEY_END = Buffer.from('":"');
type Decoder = (bytes: Buffer) => string | null;
const DECODERS: readonly [Decoder, Decoder, Decoder] = [decodeCwd, decodeSessionId, decodeSlug];
/** The longest line end remembered for repeatsSettledEnd(): a conversation line's trailing keys fit easily. */
const SETTLED_END_BYTES = 1024;
/** Consecutive lines repeat the same values: raw values up to this size are remembered with their decoding. */
const CACHED_VALUE_BYTES = 256;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LETTER_C = 0x63;
const LETTER_S = 0x73;

/** Whether `key` occurs in `buf` at `at`, wholly before `end`. */
function keyAt(buf: Buffer, at: number, end: number, key: Buffer): boolean {
  const length = key.length;
  if (at < 0 || at + length > end) return false;
  for (let j = 0; j < length; j++) if (buf[at + j] !== key[j]) return false;
  return true;
}

/** Whether buf[at, end) is a proper prefix of some key: a key that may go on in the next chunk. */
function keyPrefixAt(buf: Buffer, at: number, end: number): boolean {
  const length = end - at;
  for (const key of KEYS) {
    if (key.length <= length) continue;
    let j = 0;
    while (j < length && buf[at + j] === key[j]) j++;
    if (j === length) return true;
  }
  return false;
}

function sameBytes(buf: Buffer, at: number, other: Buffer, length: number): boolean {
  for (let j = 0; j < length; j++) if (buf[at + j] !== other[j]) return false;
  return true;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

export class LineScanner {
  private readonly window: number;
  private readonly probe: number;
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

  // The current line: the last occurrence of each key, with its rank among the line's key occurrences.
  private occurrences = 0;
  private sessionId: string | null = null;
  private sessionIdAt = -1;
  private previousSessionIdAt = -1;
  private cwd: string | null = null;
  private cwdAt = -1;
  private slug: string | null = null;
  private slugAt = -1;

  // Per key: the last raw value decoded and what it decoded to (decoding is a pure function of the bytes).
  private readonly cachedRaw = KEYS.map(() => Buffer.alloc(CACHED_VALUE_BYTES));
  private readonly cachedLength = [-1, -1, -1];
  private readonly cachedValue: (string | null)[] = [null, null, null];

  // The end of the last window its cwd suffix settled, and the line state it left (see repeatsSettledEnd()).
  private readonly settledEnd = Buffer.alloc(SETTLED_END_BYTES);
  private settledLength = 0;
  private settledOccurrences = 0;
  private settledSessionIdAt = -1;
  private settledPreviousSessionIdAt = -1;
  private settledCwdAt = -1;
  private settledSlugAt = -1;
  private settledSessionId: string | null = null;
  private settledCwd: string | null = null;
  private settledSlug: string | null = null;

  private fed = 0;
  private completed = 0;
  private maxRetained = 0;

  constructor(options: LineScannerOptions = {}) {
    this.window = positiveInteger(options.tailWindowBytes, TAIL_WINDOW_BYTES, 'tailWindowBytes');
    this.probe = positiveInteger(options.probeBytes, PROBE_BYTES, 'probeBytes');
    this.tail = Buffer.alloc(this.window);
  }

  /** Forgets everything, so one scanner (and its buffers) can serve many files. */
  reset(): void {
    this.tailLength = 0;
    this.deferred = null;
    this.resetLine();
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
        this.scanWindow(this.tail, 0, this.tailLength);
      } else {
        // If the line began in an earlier chunk and nothing was kept, no key starts in its window there.
        this.scanWindow(chunk, Math.max(from, nl - this.window), nl);
      }
      this.tailLength = 0;
      this.endLine(out);
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
    if (this.tailLength > 0) this.scanWindow(this.tail, 0, this.tailLength);
    this.tailLength = 0;
    this.endLine(out);
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

  /**
   * Parses the window buf[from, to) of a line into the line state. Parsing a suffix of the window gives
   * the same occurrences after its start as parsing the whole window, provided the suffix starts just
   * after a "sync" quote (see syncAfter()); what comes before only matters when the suffix leaves the
   * answer open (see decidedBySuffix()). So suffixes are tried first: the one from just before the last
   * cwd key (a conversation line ends with cwd, sessionId, ..., so that one settles it), then growing
   * ones from the end; the whole window last. Each is exact; they differ only in cost.
   */
  private scanWindow(buf: Buffer, from: number, to: number): void {
    const view = buf.subarray(from, to);
    const length = view.length;
    if (length > this.probe) {
      if (this.repeatsSettledEnd(view)) return;
      const cwdKey = view.lastIndexOf(KEY_CWD);
      const quote = cwdKey > 1 ? view.lastIndexOf(QUOTE, cwdKey - 1) : -1;
      if (quote > 0 && this.trySuffix(view, quote)) {
        this.rememberSettledEnd(view, quote);
        return;
      }
    }
    for (let size = this.probe; size < length; size *= PROBE_GROWTH) {
      if (this.trySuffix(view, length - size)) return;
    }
    this.parse(view, 0);
  }

  /**
   * Consecutive lines of a session end the same way (cwd, sessionId, version, branch, slug), and what the
   * suffix tried first settles depends only on the bytes from MAX_KEY_BYTES - 1 before its quote to the
   * end: syncAfter() looks that far back, the last cwd key and the quote before it are found in them,
   * and parse() reads forward from there. So a window that ends with the same bytes settles the same
   * way: one comparison instead of the searches and the parse.
   */
  private repeatsSettledEnd(view: Buffer): boolean {
    const length = this.settledLength;
    const at = view.length - length;
    if (length === 0 || at < 0 || view.compare(this.settledEnd, 0, length, at, view.length) !== 0) return false;
    this.occurrences = this.settledOccurrences;
    this.sessionIdAt = this.settledSessionIdAt;
    this.previousSessionIdAt = this.settledPreviousSessionIdAt;
    this.cwdAt = this.settledCwdAt;
    this.slugAt = this.settledSlugAt;
    this.sessionId = this.settledSessionId;
    this.cwd = this.settledCwd;
    this.slug = this.settledSlug;
    return true;
  }

  private rememberSettledEnd(view: Buffer, quote: number): void {
    const start = quote - (MAX_KEY_BYTES - 1);
    const length = view.length - start;
    // A shorter look-back than syncAfter's (the window began there) or an end too long to keep: not kept.
    if (start < 0 || length > SETTLED_END_BYTES) {
      this.settledLength = 0;
      return;
    }
    view.copy(this.settledEnd, 0, start, view.length);
    this.settledLength = length;
    this.settledOccurrences = this.occurrences;
    this.settledSessionIdAt = this.sessionIdAt;
    this.settledPreviousSessionIdAt = this.previousSessionIdAt;
    this.settledCwdAt = this.cwdAt;
    this.settledSlugAt = this.slugAt;
    this.settledSessionId = this.sessionId;
    this.settledCwd = this.cwd;
    this.settledSlug = this.slug;
  }

  /** Parses the view after the first sync quote at or after `from` (> 0); false, keeping nothing, unless that settles the line. */
  private trySuffix(view: Buffer, from: number): boolean {
    const start = this.syncAfter(view, from);
    if (start === -1) return false;
    this.parse(view, start);
    if (this.decidedBySuffix()) return true;
    this.resetLine();
    return false;
  }

  /**
   * Just past the first quote at or after `from` (> 0) that no parse of the view can be inside: a quote
   * with no backslash before it closes any value it falls in, and one that is not part of a key match
   * cannot be inside a key. So after it a left-to-right parse is searching for the next key, whatever
   * came before. -1 when there is none.
   */
  private syncAfter(view: Buffer, from: number): number {
    const length = view.length;
    for (let q = view.indexOf(QUOTE, from); q !== -1; q = view.indexOf(QUOTE, q + 1)) {
      if (view[q - 1] === BACKSLASH) continue;
      let covered = false;
      for (let at = Math.max(0, q - (MAX_KEY_BYTES - 1)); at <= q && !covered; at++) {
        if (view[at] !== QUOTE) continue;
        for (const key of KEYS) {
          if (at + key.length > q && keyAt(view, at, length, key)) {
            covered = true;
            break;
          }
        }
      }
      if (!covered) return q + 1;
    }
    return -1;
  }

  /**
   * Whether the occurrences in a suffix settle the record whatever precedes them: the suffix must hold
   * the last sessionId, and, unless that is invalid, a cwd or an earlier sessionId (else whether the
   * cwd counts depends on where the previous sessionId is). A slug before the suffix is before the last
   * sessionId and never counts.
   */
  private decidedBySuffix(): boolean {
    return this.sessionIdAt >= 0 && (this.sessionId === null || this.cwdAt >= 0 || this.previousSessionIdAt >= 0);
  }

  /**
   * The left-to-right parse of view[from, end), recording each key occurrence. A plain byte loop: the
   * parts parsed are short (a line's last few hundred bytes, see scanWindow()), where a native search
   * per key and per value would cost more in calls than in bytes.
   */
  private parse(view: Buffer, from: number): void {
    const length = view.length;
    for (let i = from; i < length; i++) {
      if (view[i] !== QUOTE) continue;
      const next = view[i + 1];
      let key: KeyId;
      if (next === LETTER_C && keyAt(view, i, length, KEY_CWD)) key = CWD;
      else if (next === LETTER_S && keyAt(view, i, length, KEY_SESSION_ID)) key = SESSION_ID;
      else if (next === LETTER_S && keyAt(view, i, length, KEY_SLUG)) key = SLUG;
      else continue;
      // The value runs to the first quote not escaped by a backslash.
      const start = i + KEYS[key].length;
      let close = -1;
      let escaped = false;
      for (let p = start; p < length; p++) {
        const byte = view[p];
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          close = p;
          break;
        }
      }
      this.take(key, view, start, close);
      if (close === -1) return;
      i = close;
    }
  }

  /** One key occurrence; `close` is -1 when its value runs to the end of the line. */
  private take(key: KeyId, view: Buffer, start: number, close: number): void {
    const value = close !== -1 && close - start <= MAX_VALUE_BYTES ? this.decode(key, view, start, close) : null;
    const rank = this.occurrences++;
    if (key === CWD) {
      this.cwd = value;
      this.cwdAt = rank;
    } else if (key === SESSION_ID) {
      this.previousSessionIdAt = this.sessionIdAt;
      this.sessionId = value;
      this.sessionIdAt = rank;
    } else {
      this.slug = value;
      this.slugAt = rank;
    }
  }

  private decode(key: KeyId, view: Buffer, start: number, close: number): string | null {
    const length = close - start;
    if (length > CACHED_VALUE_BYTES) return DECODERS[key](view.subarray(start, close));
    const raw = this.cachedRaw[key]!;
    if (this.cachedLength[key] === length && sameBytes(view, start, raw, length)) return this.cachedValue[key] ?? null;
    const value = DECODERS[key](view.subarray(start, close));
    view.copy(raw, 0, start, close);
    this.cachedLength[key] = length;
    this.cachedValue[key] = value;
    return value;
  }

  /**
   * Applies the torn-line rule and forgets the line. A torn line is a partial line glued to the next
   * full one, and a full conversation line ends with cwd < sessionId < slug, so the last sessionId
   * belongs to the full line; a slug counts only after it, a cwd only between it and the sessionId
   * before it.
   */
  private endLine(out: LineRecord[]): void {
    if (this.sessionId !== null) {
      const cwdOk = this.cwd !== null && this.cwdAt < this.sessionIdAt && this.cwdAt > this.previousSessionIdAt;
      const slugOk = this.slug !== null && this.slugAt > this.sessionIdAt;
      out.push({ sessionId: this.sessionId, cwd: cwdOk ? this.cwd : null, slug: slugOk ? this.slug : null });
    }
    this.resetLine();
  }

  private resetLine(): void {
    this.occurrences = 0;
    this.sessionId = null;
    this.sessionIdAt = -1;
    this.previousSessionIdAt = -1;
    this.cwd = null;
    this.cwdAt = -1;
    this.slug = null;
    this.slugAt = -1;
  }
}

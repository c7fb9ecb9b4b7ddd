// One line's window (its last bytes, see LineScanner) parsed for the keys that matter: the last
// occurrence of each of `"cwd":"`, `"sessionId":"` and `"slug":"`, left to right, and the record the
// torn-line rule makes of them (finish()). Cheap suffixes are tried before the whole window (scan()),
// and a window that ends like the last one settled takes its answer (repeatsSettledEnd()).
import { decodeCwd, decodeSessionId, decodeSlug } from './values.js';

/** What one complete line says about its session. */
export interface LineRecord {
  sessionId: string;
  cwd: string | null;
  slug: string | null;
}

/** A cwd, sessionId or slug longer than this is not one Claude Code wrote: it is ignored. */
export const MAX_VALUE_BYTES = 8 * 1024;

/** Most lines are decided by their last few hundred bytes (see scan()); tried first. */
export const PROBE_BYTES = 512;
const PROBE_GROWTH = 4;

type KeyId = 0 | 1 | 2;
const CWD: KeyId = 0;
const SESSION_ID: KeyId = 1;
const SLUG: KeyId = 2;
const KEY_CWD = Buffer.from('"cwd":"');
const KEY_SESSION_ID = Buffer.from('"sessionId":"');
const KEY_SLUG = Buffer.from('"slug":"');
export const KEYS: readonly [Buffer, Buffer, Buffer] = [KEY_CWD, KEY_SESSION_ID, KEY_SLUG];
export const MAX_KEY_BYTES = 13;
/** How every key ends. */
export const KEY_END = Buffer.from('":"');
type Decoder = (bytes: Buffer) => string | null;
const DECODERS: readonly [Decoder, Decoder, Decoder] = [decodeCwd, decodeSessionId, decodeSlug];
/** The longest line end remembered for repeatsSettledEnd(): a conversation line's trailing keys fit easily. */
const SETTLED_END_BYTES = 1024;
/** Consecutive lines repeat the same values: raw values up to this size are remembered with their decoding. */
const CACHED_VALUE_BYTES = 256;
export const QUOTE = 0x22;
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
export function keyPrefixAt(buf: Buffer, at: number, end: number): boolean {
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

export class LineWindow {
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

  /** `probe`: the first suffix of a window tried before the whole window (see scan()). */
  constructor(private readonly probe: number) {}

  /**
   * Parses the window buf[from, to) of a line into the line state. Parsing a suffix of the window gives
   * the same occurrences after its start as parsing the whole window, provided the suffix starts just
   * after a "sync" quote (see syncAfter()); what comes before only matters when the suffix leaves the
   * answer open (see decidedBySuffix()). So suffixes are tried first: the one from just before the last
   * cwd key (a conversation line ends with cwd, sessionId, ..., so that one settles it), then growing
   * ones from the end; the whole window last. Each is exact; they differ only in cost.
   */
  scan(buf: Buffer, from: number, to: number): void {
    const length = to - from;
    // Most lines repeat the last settled end: they are decided on buf itself, without a view of the line.
    if (length > this.probe && this.repeatsSettledEnd(buf, from, to)) return;
    const view = buf.subarray(from, to);
    if (length > this.probe) {
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
  private repeatsSettledEnd(buf: Buffer, from: number, to: number): boolean {
    const length = this.settledLength;
    const at = to - length;
    if (length === 0 || at < from || buf.compare(this.settledEnd, 0, length, at, to) !== 0) return false;
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
    this.reset();
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
   * parts parsed are short (a line's last few hundred bytes, see scan()), where a native search
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
  finish(out: LineRecord[]): void {
    if (this.sessionId !== null) {
      const cwdOk = this.cwd !== null && this.cwdAt < this.sessionIdAt && this.cwdAt > this.previousSessionIdAt;
      const slugOk = this.slug !== null && this.slugAt > this.sessionIdAt;
      out.push({ sessionId: this.sessionId, cwd: cwdOk ? this.cwd : null, slug: slugOk ? this.slug : null });
    }
    this.reset();
  }

  reset(): void {
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

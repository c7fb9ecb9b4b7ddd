// Byte-level scanner for Claude Code session logs (JSON Lines). Lines can be many MB of tool output and
// only three short string values near their end matter, so lines are never decoded, split into strings
// or JSON-parsed: the scanner looks for the raw keys with Buffer.indexOf and copies out just their values.
//
// It is a pure state machine over a byte stream: the records it emits depend only on the bytes, never on
// where the chunk boundaries fall (the property tests feed arbitrary splits). Between chunks it keeps at
// most an unfinished key (< 13 bytes) and one value (<= MAX_VALUE_BYTES).
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
  /** High-water mark of line bytes the scanner held on to (key carry + value buffer). */
  maxRetainedBytes: number;
}

/** A cwd, sessionId or slug longer than this is not one Claude Code wrote: it is ignored. */
export const MAX_VALUE_BYTES = 8 * 1024;

type KeyId = 0 | 1 | 2;
const CWD: KeyId = 0;
const SESSION_ID: KeyId = 1;
const KEY_IDS: readonly KeyId[] = [0, 1, 2];
const KEYS: readonly [Buffer, Buffer, Buffer] = [
  Buffer.from('"cwd":"'),
  Buffer.from('"sessionId":"'),
  Buffer.from('"slug":"'),
];
const MAX_KEY_BYTES = 13;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const PENDING = -1;
const NOT_SEARCHED = -2;

export class LineScanner {
  private readonly carry = Buffer.alloc(MAX_KEY_BYTES);
  private carryLength = 0;
  private readonly value = Buffer.alloc(MAX_VALUE_BYTES);
  private valueLength = 0;
  private valueKey: KeyId | -1 = -1;
  private escaped = false;
  private overflow = false;

  // The current line: the last occurrence of each key, with its rank among the line's key occurrences.
  private occurrences = 0;
  private sessionId: string | null = null;
  private sessionIdAt = -1;
  private previousSessionIdAt = -1;
  private cwd: string | null = null;
  private cwdAt = -1;
  private slug: string | null = null;
  private slugAt = -1;

  private fed = 0;
  private completed = 0;
  private maxRetained = 0;

  /** Forgets everything, so one scanner (and its buffers) can serve many files. */
  reset(): void {
    this.carryLength = 0;
    this.resetValue();
    this.resetLine();
    this.fed = 0;
    this.completed = 0;
    this.maxRetained = 0;
  }

  get stats(): ScannerStats {
    return { bytesFed: this.fed, completedBytes: this.completed, maxRetainedBytes: this.maxRetained };
  }

  /** Records of the lines completed (by a `\n`) within this chunk. The chunk is not kept. */
  feed(chunk: Buffer): LineRecord[] {
    const out: LineRecord[] = [];
    const n = chunk.length;
    const base = this.fed;
    this.fed += n;
    if (n === 0) return out;
    let i = 0;
    if (this.valueKey === -1 && this.carryLength > 0) {
      i = this.resumeCarry(chunk);
      if (i === PENDING) {
        this.noteRetained();
        return out;
      }
    }
    // Next occurrence of each pattern at or after the search position; -1 when there is none in this
    // chunk. Cached so each pattern scans the chunk about once, however many lines it holds.
    let nextNewline = NOT_SEARCHED;
    const nextKey = [NOT_SEARCHED, NOT_SEARCHED, NOT_SEARCHED];
    while (i < n) {
      if (this.valueKey !== -1) {
        i = this.consumeValue(chunk, i, base, out);
        continue;
      }
      if (nextNewline !== -1 && nextNewline < i) nextNewline = chunk.indexOf(NEWLINE, i);
      let key: KeyId | -1 = -1;
      let at = -1;
      for (const k of KEY_IDS) {
        let p = nextKey[k]!;
        if (p !== -1 && p < i) {
          p = chunk.indexOf(KEYS[k], i);
          nextKey[k] = p;
        }
        if (p !== -1 && (at === -1 || p < at)) {
          at = p;
          key = k;
        }
      }
      if (key !== -1 && (nextNewline === -1 || at < nextNewline)) {
        this.valueKey = key;
        i = at + KEYS[key].length;
      } else if (nextNewline !== -1) {
        this.endLine(out);
        this.completed = base + nextNewline + 1;
        i = nextNewline + 1;
      } else {
        this.saveCarry(chunk, i);
        i = n;
      }
    }
    this.noteRetained();
    return out;
  }

  /** The stream ended: an unfinished last line counts as a line. */
  end(): LineRecord[] {
    const out: LineRecord[] = [];
    if (this.valueKey !== -1) this.finishValue(false);
    this.endLine(out);
    this.completed = this.fed;
    return out;
  }

  /**
   * The previous chunk ended inside what may be a key. Tries every start inside the carry against the
   * new bytes: returns where to go on in this chunk (past a key that straddled the boundary, or 0), or
   * PENDING when the chunk ran out while still matching (the carry then grew by the whole chunk).
   */
  private resumeCarry(chunk: Buffer): number {
    const carried = this.carryLength;
    const total = carried + chunk.length;
    for (let s = 0; s < carried; s++) {
      for (const k of KEY_IDS) {
        const key = KEYS[k];
        let j = 0;
        while (j < key.length && s + j < total) {
          const p = s + j;
          const byte = p < carried ? this.carry[p] : chunk[p - carried];
          if (byte !== key[j]) break;
          j++;
        }
        if (j === key.length) {
          this.carryLength = 0;
          this.valueKey = k;
          return s + key.length - carried;
        }
        if (s + j === total) {
          const kept = carried - s;
          this.carry.copyWithin(0, s, carried);
          chunk.copy(this.carry, kept);
          this.carryLength = kept + chunk.length;
          return PENDING;
        }
      }
    }
    this.carryLength = 0;
    return 0;
  }

  /** Keeps the shortest-start suffix of [from, end) that could be the beginning of a key. */
  private saveCarry(chunk: Buffer, from: number): void {
    const n = chunk.length;
    for (let s = Math.max(from, n - (MAX_KEY_BYTES - 1)); s < n; s++) {
      if (chunk[s] !== QUOTE) continue;
      const length = n - s;
      if (KEYS.some((key) => key.length > length && chunk.compare(key, 0, length, s, n) === 0)) {
        chunk.copy(this.carry, 0, s, n);
        this.carryLength = length;
        return;
      }
    }
    this.carryLength = 0;
  }

  /** Collects a value's bytes up to its closing quote; a `\n` ends both the value and the line. */
  private consumeValue(chunk: Buffer, from: number, base: number, out: LineRecord[]): number {
    const n = chunk.length;
    for (let p = from; p < n; p++) {
      const byte = chunk[p]!;
      if (byte === NEWLINE) {
        this.finishValue(false);
        this.endLine(out);
        this.completed = base + p + 1;
        return p + 1;
      }
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.finishValue(true);
        return p + 1;
      }
      if (this.valueLength < MAX_VALUE_BYTES) this.value[this.valueLength++] = byte;
      else this.overflow = true;
    }
    return n;
  }

  private finishValue(terminated: boolean): void {
    const key = this.valueKey as KeyId;
    this.maxRetained = Math.max(this.maxRetained, this.valueLength + this.carryLength);
    const bytes = terminated && !this.overflow ? this.value.subarray(0, this.valueLength) : null;
    const rank = this.occurrences++;
    if (key === CWD) {
      this.cwd = bytes === null ? null : decodeCwd(bytes);
      this.cwdAt = rank;
    } else if (key === SESSION_ID) {
      this.previousSessionIdAt = this.sessionIdAt;
      this.sessionId = bytes === null ? null : decodeSessionId(bytes);
      this.sessionIdAt = rank;
    } else {
      this.slug = bytes === null ? null : decodeSlug(bytes);
      this.slugAt = rank;
    }
    this.resetValue();
  }

  /**
   * Applies the torn-line rule. A torn line is a partial line glued to the next full one, and a full
   * conversation line ends with cwd < sessionId < slug, so the last sessionId belongs to the full line;
   * a slug counts only after it, a cwd only between it and the sessionId before it.
   */
  private endLine(out: LineRecord[]): void {
    if (this.sessionId !== null) {
      const cwdOk = this.cwd !== null && this.cwdAt < this.sessionIdAt && this.cwdAt > this.previousSessionIdAt;
      const slugOk = this.slug !== null && this.slugAt > this.sessionIdAt;
      out.push({ sessionId: this.sessionId, cwd: cwdOk ? this.cwd : null, slug: slugOk ? this.slug : null });
    }
    this.resetLine();
    this.carryLength = 0;
  }

  private resetValue(): void {
    this.valueKey = -1;
    this.valueLength = 0;
    this.escaped = false;
    this.overflow = false;
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

  private noteRetained(): void {
    this.maxRetained = Math.max(this.maxRetained, this.valueLength + this.carryLength);
  }
}

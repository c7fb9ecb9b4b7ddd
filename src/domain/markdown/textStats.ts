// Lines, words and the first heading of UTF-8 text that arrives in chunks, so a file of any size is
// measured a slice at a time instead of in one synchronous pass (docs/security.md, rule 19). The answers
// are those of countLines(), countWordsInJs() and firstHeading() over the whole text; the property
// test in test/markdown/textStats.property.test.ts holds them to that for any way of cutting the bytes.
import { HEADING_LINE_CHARS, HeadingScanner } from './text.js';
import { countWordsAndNewlines, countWordsInJs } from './wordCount.js';

/**
 * The bytes of a line decoded to look for a heading: any HEADING_LINE_CHARS characters fit in them, with
 * room for a character the limit cuts (it decodes after them, and the slice drops it).
 */
const HEADING_LINE_BYTES = 4 * HEADING_LINE_CHARS;
const EMPTY = Buffer.alloc(0);

export interface TextStats {
  lineCount: number;
  wordCount: number;
  /** The first ATX heading outside fenced code, or null. */
  heading: string | null;
}

/** Where the UTF-8 character that `bytes` ends inside starts, when it is cut short; else bytes.length. */
export function incompleteTail(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: the lead is further back
    const length = b >= 0xf0 && b <= 0xf7 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? n - back : n;
  }
  return n;
}

/** Whether the text ends with a space character (as countWordsInJs() decides what a space is). */
function endsWithSpace(bytes: Uint8Array): boolean {
  // A slice that counts no word is all spaces: the one starting where the last character does is that character.
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    if (countWordsInJs(bytes.subarray(bytes.length - back)) === 0) return true;
  }
  return false;
}

/** Whether the text starts with a space character. */
function startsWithSpace(bytes: Uint8Array): boolean {
  for (let length = 1; length <= 3 && length <= bytes.length; length++) {
    if (countWordsInJs(bytes.subarray(0, length)) === 0) return true;
  }
  return false;
}

export class TextStatsCounter {
  private newlines = 0;
  private lastByte = -1;
  private words = 0;
  /** The bytes fed so far end in the middle of a word: a word continuing into the next chunk is not new. */
  private inWord = false;
  /** The start of a character cut by the end of the last chunk, kept for the next one. */
  private carry: Buffer = Buffer.alloc(0);
  private readonly headings = new HeadingScanner();
  private heading: string | null = null;
  private lookingForHeading = true;
  private started = false;
  /**
   * The first bytes of the current line when it began in an earlier chunk, up to HEADING_LINE_BYTES
   * (null when the last chunk ended a line).
   */
  private lineHead: Buffer | null = null;

  feed(chunk: Uint8Array): void {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = incompleteTail(bytes);
    this.carry = Buffer.from(bytes.subarray(end));
    this.count(bytes.subarray(0, end));
  }

  finish(): TextStats {
    if (this.carry.length > 0) this.count(this.carry);
    this.carry = Buffer.alloc(0);
    if (this.lookingForHeading) this.endLine(this.lineHead ?? EMPTY);
    this.lineHead = null;
    const lineCount = this.lastByte === -1 ? 0 : this.lastByte === 0x0a ? this.newlines : this.newlines + 1;
    return { lineCount, wordCount: this.words, heading: this.heading };
  }

  private count(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.lookingForHeading) this.scanLines(bytes);
    const { words, newlines } = countWordsAndNewlines(bytes);
    this.newlines += newlines;
    this.lastByte = bytes[bytes.length - 1]!;
    this.words += this.inWord && words > 0 && !startsWithSpace(bytes) ? words - 1 : words;
    this.inWord = !endsWithSpace(bytes);
  }

  /**
   * Hands each line ended in `bytes` to endLine(), and keeps the head of one left open for the next chunk,
   * until the heading is found.
   */
  private scanLines(bytes: Uint8Array): void {
    let start = 0;
    // firstHeading() skips a byte-order mark before it cuts the first line.
    if (!this.started) {
      this.started = true;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    }
    for (;;) {
      const end = bytes.indexOf(0x0a, start);
      if (end === -1) {
        if (start < bytes.length) this.keepLineHead(bytes.subarray(start));
        return;
      }
      if (this.lineHead === null) this.endLine(bytes.subarray(start, Math.min(end, start + HEADING_LINE_BYTES)));
      else {
        this.keepLineHead(bytes.subarray(start, end));
        this.endLine(this.lineHead);
        this.lineHead = null;
      }
      start = end + 1;
      if (!this.lookingForHeading) return;
    }
  }

  private keepLineHead(piece: Uint8Array): void {
    const head = this.lineHead ?? EMPTY;
    if (head.length >= HEADING_LINE_BYTES) return;
    this.lineHead = Buffer.concat([head, piece.subarray(0, HEADING_LINE_BYTES - head.length)]);
  }

  /**
   * One line's first bytes. Only a line that starts (after at most 3 spaces) with `#`, a backquote or `~`
   * can be a heading or a fence, so only those are decoded: a large plan is mostly other lines, and
   * decoding all of it was most of what measuring it cost.
   */
  private endLine(head: Uint8Array): void {
    let i = 0;
    while (i < 3 && head[i] === 0x20) i++;
    const first = head[i];
    if (first !== 0x23 && first !== 0x60 && first !== 0x7e) return;
    const line = Buffer.from(head.buffer, head.byteOffset, head.length).toString('utf8').slice(0, HEADING_LINE_CHARS);
    const heading = this.headings.line(line);
    if (heading !== null) {
      this.heading = heading;
      this.lookingForHeading = false;
    }
  }
}

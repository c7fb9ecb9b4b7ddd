// Lines, words and the first heading of UTF-8 text that arrives in chunks, so a file of any size is
// measured a slice at a time instead of in one synchronous pass (docs/security.md, rule 19). The answers
// are those of countLinesInBytes(), countWords() and firstHeading() over the whole text; the property
// test in test/markdown/textStats.property.test.ts holds them to that for any way of cutting the bytes.
import { StringDecoder } from 'node:string_decoder';
import { HEADING_LINE_CHARS, HeadingScanner } from './text.js';
import { countWords, countWordsInJs } from './wordCount.js';

export interface TextStats {
  lineCount: number;
  wordCount: number;
  /** The first ATX heading outside fenced code, or null. */
  heading: string | null;
}

/** Where the UTF-8 character that `bytes` ends inside starts, when it is cut short; else bytes.length. */
function incompleteTail(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: the lead is further back
    const length = b >= 0xf0 && b <= 0xf7 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? n - back : n;
  }
  return n;
}

/** Whether the text ends with a space character (as countWords() decides what a space is). */
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
  private readonly decoder = new StringDecoder('utf8');
  private readonly headings = new HeadingScanner();
  private heading: string | null = null;
  private lookingForHeading = true;
  private firstLine = true;
  private bomSeen = false;
  /** The current line so far, cut at HEADING_LINE_CHARS (what the heading scan looks at). */
  private line = '';

  feed(chunk: Uint8Array): void {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = incompleteTail(bytes);
    this.carry = Buffer.from(bytes.subarray(end));
    this.count(bytes.subarray(0, end));
  }

  finish(): TextStats {
    if (this.carry.length > 0) this.count(this.carry);
    this.carry = Buffer.alloc(0);
    if (this.lookingForHeading) {
      this.line += this.decoder.end();
      this.endLine();
    }
    const lineCount = this.lastByte === -1 ? 0 : this.lastByte === 0x0a ? this.newlines : this.newlines + 1;
    return { lineCount, wordCount: this.words, heading: this.heading };
  }

  private count(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) this.newlines++;
    this.lastByte = bytes[bytes.length - 1]!;
    const words = countWords(bytes);
    this.words += this.inWord && words > 0 && !startsWithSpace(bytes) ? words - 1 : words;
    this.inWord = !endsWithSpace(bytes);
    if (this.lookingForHeading) this.scanLines(this.decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)));
  }

  private scanLines(text: string): void {
    let start = 0;
    // firstHeading() skips a byte-order mark before it cuts the first line.
    if (this.firstLine && !this.bomSeen && text.length > 0) {
      this.bomSeen = true;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    for (;;) {
      const end = text.indexOf('\n', start);
      const piece = end === -1 ? text.slice(start) : text.slice(start, end);
      if (this.line.length < HEADING_LINE_CHARS) this.line += piece.slice(0, HEADING_LINE_CHARS - this.line.length);
      if (end === -1) return;
      this.endLine();
      if (!this.lookingForHeading) return;
      start = end + 1;
    }
  }

  private endLine(): void {
    const line = this.line;
    this.line = '';
    this.firstLine = false;
    const heading = this.headings.line(line);
    if (heading !== null) {
      this.heading = heading;
      this.lookingForHeading = false;
    }
  }
}

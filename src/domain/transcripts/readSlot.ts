// One reader's working memory: the buffer a log's lines are read into, and what turns a line into a view.
// With WebAssembly the buffer is the tokenizer's own memory (JsonTape.area()), so a line is parsed where
// it was read, without a copy; else a plain buffer and JSON.parse. A fixed number of slots bounds both
// memory and open files; a slot grown for a long line is put back to its size after the log.
import { JsonTape } from './jsonTape.js';
import type { LineView } from './lineView.js';
import { ParsedLine } from './parsedLine.js';

/** Turns one line's bytes into a view (null: no JSON object); the bytes may be reused once it returns. */
export interface LineParser {
  parse(bytes: Uint8Array): LineView | null;
}

/** The buffer a slot starts with: lines up to this long (most of them) are read without moving. */
const START_BYTES = 4 * 1024 * 1024;

export class ReadSlot {
  private tape: JsonTape | null;
  private plain: Buffer | null = null;
  private capacity: number;

  /**
   * `parser` reads every line instead of the tape (tests hold the tape to its twin this way).
   * `chunkBytes`: bytes per read; `maxLineBytes`: the longest line read (see transcriptReader.ts).
   */
  constructor(readonly chunkBytes: number, readonly maxLineBytes: number, private readonly parser: LineParser | null = null) {
    this.tape = parser === null ? JsonTape.create() : null;
    this.capacity = this.startBytes;
  }

  private get startBytes(): number {
    return Math.max(START_BYTES, 2 * this.chunkBytes);
  }

  /** The buffer, at least `bytes` long; its first `keep` bytes are kept when it grows. Good until the next parse() or buffer(). */
  buffer(bytes = 0, keep = 0): Buffer {
    if (bytes > this.capacity) this.capacity = Math.max(bytes, Math.min(2 * this.capacity, this.maxLineBytes + this.chunkBytes));
    if (this.tape !== null) {
      const area = this.tape.area(this.capacity);
      if (area !== null) return area;
      this.tape = null; // memory refused: a plain buffer from now on
    }
    if (this.plain === null || this.plain.length < this.capacity) {
      const grown = Buffer.allocUnsafe(this.capacity);
      this.plain?.copy(grown, 0, 0, keep);
      this.plain = grown;
    }
    return this.plain;
  }

  /** The line at [start, end) of the buffer as a view (good until the next parse() or buffer()). */
  parse(start: number, end: number): LineView | null {
    if (this.tape !== null) return this.tape.parseArea(start, end);
    const line = this.plain!.subarray(start, end);
    return this.parser !== null ? this.parser.parse(line) : ParsedLine.of(line);
  }

  /** A log is read: a buffer grown for a long line is let go. */
  release(): void {
    if (this.capacity <= this.startBytes) return;
    this.capacity = this.startBytes;
    if (this.tape !== null) this.tape = JsonTape.create();
    else this.plain = null;
  }

  /** How many bytes the buffer holds now. */
  get held(): number {
    return this.capacity;
  }
}

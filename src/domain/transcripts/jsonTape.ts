// Transcript lines read through the WebAssembly tokenizer (jsonTape.wat): a line is validated exactly as
// JSON.parse would take it, and its shape recorded as a tape of tokens, from which tapeLine.ts answers an
// extractor's questions without decoding the long strings (tool output) it does not ask for. JSON.parse
// of every line ran at a tenth of the speed (docs/decisions.md, D60); parsedLine.ts is the definition the
// tape is held to (test/transcripts/tape.property.test.ts).
import { JSON_TAPE_WASM } from './jsonTapeWasm.js';
import type { LineView } from './lineView.js';
import { ParsedLine } from './parsedLine.js';
import { TapeLine } from './tapeLine.js';
import type { LineParser } from './readSlot.js';

/** Values up to this deep are on the tape (message.content[i].input.edits[j].old_string is 7 deep); deeper ones are parsed when asked for. */
export const TAPE_DEPTH = 7;
/**
 * Where a reader's lines are (area()): after the tokenizer's stack of open containers, which takes the
 * memory's first 1,024 bytes, and on a page boundary, so reads into it copy at full speed (see alignedBuffers.ts).
 */
const AREA_AT = 4096;
const TOKEN_BYTES = 16;
/** At most this many tokens per line: a line with more is read by JSON.parse (parsedLine.ts). */
const MAX_TOKENS = 1 << 20;
const WASM_PAGE_BYTES = 64 * 1024;

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => {
    exports: { memory: WasmMemory; tokenize: (start: number, end: number, out: number, cap: number, maxDepth: number) => number };
  };
}

let compiled: object | null | undefined;

function wasmModule(): { api: WasmApi; module: object } | null {
  const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined) return null;
  if (compiled === undefined) {
    try {
      compiled = new api.Module(Buffer.from(JSON_TAPE_WASM, 'base64'));
    } catch {
      // No SIMD in this engine: lines are read by JSON.parse.
      compiled = null;
    }
  }
  return compiled === null ? null : { api, module: compiled };
}

export class JsonTape {
  private memory: WasmMemory;
  private readonly tokenize: (start: number, end: number, out: number, cap: number, maxDepth: number) => number;
  private bytes: Uint8Array;
  /** The memory as int32, where the last line's tokens are (see TapeLine). */
  words: Int32Array;
  /** Counts the lines parsed: a view of an earlier line refuses to be read (its tokens are gone). */
  generation = 0;
  /** Bytes a reader keeps its lines in at AREA_AT (area()); tokens and copied lines go after them. */
  private areaBytes = 0;
  private areaView: Buffer | null = null;

  private constructor(exports: { memory: WasmMemory; tokenize: JsonTape['tokenize'] }) {
    this.memory = exports.memory;
    this.tokenize = exports.tokenize;
    this.bytes = new Uint8Array(this.memory.buffer);
    this.words = new Int32Array(this.memory.buffer);
  }

  /** Where what follows the area starts (token-aligned). */
  private get areaEnd(): number {
    return AREA_AT + Math.ceil(this.areaBytes / TOKEN_BYTES) * TOKEN_BYTES;
  }

  /** A tape, or null where WebAssembly with SIMD cannot run (under --jitless, say). */
  static create(): JsonTape | null {
    const wasm = wasmModule();
    if (wasm === null) return null;
    try {
      return new JsonTape(new wasm.api.Instance(wasm.module, {}).exports);
    } catch {
      return null;
    }
  }

  /**
   * A buffer of at least `bytes` in this tape's memory, for a reader to read lines into and have them
   * parsed where they are (parseArea()). Its bytes stay when it grows; the Buffer itself is good only until
   * the next call of area() or a parse (memory that grows leaves old views empty): ask again. Null when the
   * memory cannot grow.
   */
  area(bytes: number): Buffer | null {
    if (bytes > this.areaBytes) {
      if (!this.fit(AREA_AT + bytes)) return null;
      this.areaBytes = bytes;
      this.areaView = null;
    }
    if (this.areaView === null || this.areaView.buffer !== this.memory.buffer) {
      this.areaView = Buffer.from(this.memory.buffer, AREA_AT, this.areaBytes);
    }
    return this.areaView;
  }

  /** The line at [start, end) of area() as a view (see parse()). */
  parseArea(start: number, end: number): LineView | null {
    return this.parseAt(AREA_AT + start, end - start, () => this.area(this.areaBytes)!.subarray(start, end));
  }

  /**
   * The line as a view, or null when it is no JSON object or nests deeper than 128 (as ParsedLine.of()).
   * The view reads its tokens here and its values from `line`: it is good until this tape parses another
   * line (then it throws), and `line` must not change meanwhile.
   */
  parse(line: Uint8Array): LineView | null {
    const at = this.areaEnd;
    if (!this.fit(at + line.length)) return ParsedLine.of(line);
    this.bytes.set(line, at);
    return this.parseAt(at, line.length, () => (Buffer.isBuffer(line) ? line : Buffer.from(line.buffer, line.byteOffset, line.length)));
  }

  private parseAt(at: number, length: number, line: () => Buffer): LineView | null {
    this.generation++;
    const cap = Math.min(MAX_TOKENS, (length >>> 1) + 2);
    // After the area (a line in it has others after it) and after the line (one copied there).
    const tokensAt = Math.max(this.areaEnd, Math.ceil((at + length) / TOKEN_BYTES) * TOKEN_BYTES);
    if (!this.fit(tokensAt + cap * TOKEN_BYTES)) return ParsedLine.of(line());
    const n = this.tokenize(at, at + length, tokensAt, cap, TAPE_DEPTH);
    if (n === -3) return ParsedLine.of(line());
    if (n < 0) return null;
    return new TapeLine(line(), this, tokensAt >>> 2, TAPE_DEPTH);
  }

  /** Grows the memory to `bytes`; false when it cannot. */
  private fit(bytes: number): boolean {
    if (bytes <= this.bytes.length) return true;
    try {
      this.memory.grow(Math.ceil((bytes - this.bytes.length) / WASM_PAGE_BYTES));
    } catch {
      return false;
    }
    this.bytes = new Uint8Array(this.memory.buffer);
    this.words = new Int32Array(this.memory.buffer);
    return true;
  }
}

/** Lines read through a tape where WebAssembly runs, else through JSON.parse. */
export function tapeParser(): LineParser {
  const tape = JsonTape.create();
  return tape === null ? { parse: (bytes) => ParsedLine.of(bytes) } : tape;
}

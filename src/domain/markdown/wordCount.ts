// Word and newline counts of plans, on their UTF-8 bytes. At start every plan is measured (3,000 plans,
// ~25 MB on a heavy user's home, plus its large plans): the byte loop below took ~70 ms of it alone and
// twice that beside the log scan, the same count in WebAssembly with 16-byte vector compares
// (wordCount.wat) ~15 ms; newlines are counted there too, in the bytes already copied in (a call of
// indexOf() per line cost more than the word count, docs/decisions.md D51). The JavaScript loops are the
// definitions and the fallback (no WebAssembly under --jitless, no SIMD on some platforms, a text larger
// than the scratch memory); the tests hold both to the same answers.
import { WORD_COUNT_WASM } from './wordCountWasm.js';

// Per byte: 1 = an ASCII space, 2 = the first byte of a possible multi-byte Unicode space, 0 = neither.
const SPACE_CLASS = new Uint8Array(256);
for (const c of [9, 10, 11, 12, 13, 32]) SPACE_CLASS[c] = 1;
for (const c of [0xc2, 0xe1, 0xe2, 0xe3, 0xef]) SPACE_CLASS[c] = 2;

/**
 * Whitespace-separated words of UTF-8 text, as JavaScript's \s (plus U+0085) splits the decoded string.
 * Counted on the bytes, before decoding, and without a branch on whether a byte is a space: in prose
 * that branch changes direction every few bytes and mispredicts, which made this loop twice as slow.
 * Bytes that do not decode are never spaces, as their U+FFFD replacement is not; no space's first byte
 * can be the continuation of another character.
 */
export function countWordsInJs(bytes: Uint8Array): number {
  let words = 0;
  // 1 while the previous byte ended a space (or at the start): the next other byte starts a word.
  let afterSpace = 1;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    let space = SPACE_CLASS[bytes[i]!]!;
    if (space === 2) {
      const length = unicodeSpaceLength(bytes, i);
      space = length > 0 ? 1 : 0;
      if (length > 0) i += length - 1;
    }
    words += afterSpace & (space ^ 1);
    afterSpace = space;
  }
  return words;
}

/** The UTF-8 length of the Unicode space starting at `i` (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF), else 0. */
function unicodeSpaceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  const d = b[i + 1];
  const e = b[i + 2];
  if (c === 0xc2) return d === 0x85 || d === 0xa0 ? 2 : 0;
  if (c === 0xe1) return d === 0x9a && e === 0x80 ? 3 : 0;
  if (c === 0xe2) {
    if (d === 0x80) return e !== undefined && ((e >= 0x80 && e <= 0x8a) || e === 0xa8 || e === 0xa9 || e === 0xaf) ? 3 : 0;
    return d === 0x81 && e === 0x9f ? 3 : 0;
  }
  if (c === 0xe3) return d === 0x80 && e === 0x80 ? 3 : 0;
  if (c === 0xef) return d === 0xbb && e === 0xbf ? 3 : 0;
  return 0;
}

const WASM_PAGE_BYTES = 64 * 1024;
/**
 * The scratch memory grows to the largest text counted, up to this; larger texts (rare: plans are a few
 * KB) are counted in JavaScript rather than keeping a large memory alive for good.
 */
export const WASM_MAX_BYTES = 4 * 1024 * 1024;

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => {
    exports: { memory: WasmMemory; countWords: (ptr: number, len: number) => number; countNewlines: (ptr: number, len: number) => number };
  };
}

interface WasmCounter {
  memory: WasmMemory;
  count: (ptr: number, len: number) => number;
  newlines: (ptr: number, len: number) => number;
  /** A view of the whole memory, renewed when it grows (growing detaches the old buffer). */
  view: Uint8Array;
}

let counter: WasmCounter | null | undefined;

function wasmCounter(): WasmCounter | null {
  if (counter !== undefined) return counter;
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  try {
    if (wasm === undefined) throw new Error('no WebAssembly');
    // Synchronous on purpose: the module is 700 bytes, and the first plans are measured right away.
    const { exports } = new wasm.Instance(new wasm.Module(Buffer.from(WORD_COUNT_WASM, 'base64')), {});
    counter = { memory: exports.memory, count: exports.countWords, newlines: exports.countNewlines, view: new Uint8Array(exports.memory.buffer) };
  } catch {
    // No WebAssembly (--jitless), or no SIMD in this engine: the JavaScript loop gives the same counts.
    counter = null;
  }
  return counter;
}

/** Which implementation countWordsAndNewlines() uses for texts up to WASM_MAX_BYTES here. */
export function wordCountEngine(): 'wasm' | 'js' {
  return wasmCounter() === null ? 'js' : 'wasm';
}

/** The newline (0x0A) bytes of `bytes`: the definition of the module's countNewlines. */
export function countNewlinesInJs(bytes: Uint8Array): number {
  let newlines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) newlines++;
  return newlines;
}

/** The WebAssembly module with `bytes` copied into its memory, or null when the JavaScript must count them. */
function loaded(bytes: Uint8Array): WasmCounter | null {
  const wasm = bytes.length <= WASM_MAX_BYTES ? wasmCounter() : null;
  if (wasm === null) return null;
  if (bytes.length > wasm.view.length) {
    try {
      wasm.memory.grow(Math.ceil((bytes.length - wasm.view.length) / WASM_PAGE_BYTES));
    } catch {
      return null; // Memory refused: this text is counted the slow way, the next ones as before.
    }
    wasm.view = new Uint8Array(wasm.memory.buffer);
  }
  wasm.view.set(bytes, 0);
  return wasm;
}

/**
 * countWordsInJs() and countNewlinesInJs() of the same bytes, from the WebAssembly module when it can run
 * here (the bytes copied into it once).
 */
export function countWordsAndNewlines(bytes: Uint8Array): { words: number; newlines: number } {
  const wasm = loaded(bytes);
  if (wasm === null) return { words: countWordsInJs(bytes), newlines: countNewlinesInJs(bytes) };
  return { words: wasm.count(0, bytes.length), newlines: wasm.newlines(0, bytes.length) };
}

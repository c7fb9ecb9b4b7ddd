import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLines, linesFromNewlines } from '../../src/domain/markdown/text.js';
import { countNewlinesInJs, countWordsAndNewlines, countWordsInJs, WASM_MAX_BYTES, wordCountEngine } from '../../src/domain/markdown/wordCount.js';

const countWords = (bytes: Uint8Array): number => countWordsAndNewlines(bytes).words;

const naiveWords = (bytes: Buffer): number => bytes.toString('utf8').split(/[\s\u0085]+/).filter(Boolean).length;

// Every Unicode space's bytes and their prefixes, stray lead and continuation bytes, and ASCII filler
// of any length, so that spaces start, end and straddle the module's 16-byte blocks anywhere.
const spaces = ['\u0085', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', ' ', '\t', '\n', '\r', '\v', '\f']
  .map((s) => [...Buffer.from(s, 'utf8')]);
const piece = fc.oneof(
  fc.constantFrom(...spaces),
  fc.constantFrom(...spaces).map((b) => b.slice(0, -1)),
  fc.constantFrom(...spaces).map((b) => b.slice(1)),
  fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 5 }),
  fc.string({ minLength: 1, maxLength: 40 }).map((s) => [...Buffer.from(s, 'utf8')]),
  fc.constantFrom([0xe2, 0x80, 0x94], [0xe2, 0x86, 0x92], [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80], [0xe2, 0x80, 0x8b], [0xe2, 0x81, 0xa0]),
);
const texts = fc.array(piece, { maxLength: 80 }).map((pieces) => Buffer.from(pieces.flat()));

describe('countWordsAndNewlines: words', () => {
  it('runs the WebAssembly module on this Node (the tests below would otherwise only test the fallback)', () => {
    expect(wordCountEngine()).toBe('wasm');
  });

  it('gives what the JavaScript loop and a split of the decoded text give, on any bytes', () => {
    fc.assert(
      fc.property(texts, fc.nat(31), (bytes, offset) => {
        // Also from an offset into a larger buffer, as plans are views into a shared slab.
        const inSlab = Buffer.concat([Buffer.alloc(offset, 0x61), bytes]).subarray(offset);
        const expected = countWordsInJs(bytes);
        expect(expected).toBe(naiveWords(bytes));
        expect(countWords(bytes)).toBe(expected);
        expect(countWords(inSlab)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('does not see the bytes of a longer text counted before it (the scratch memory is reused)', () => {
    const long = Buffer.from('word '.repeat(50_000));
    expect(countWords(long)).toBe(50_000);
    // A space that is cut off at the end must not be completed by the leftover bytes after it.
    for (const cut of [[0xe2, 0x80], [0xc2], [0xe3, 0x80], [0xef, 0xbb]]) {
      const tail = Buffer.from([0x61, 0x62, ...cut]);
      expect(countWords(Buffer.concat([Buffer.from('\u2000\u00a0\u3000\ufeff'), tail]))).toBe(1);
      expect(countWords(tail)).toBe(countWordsInJs(tail));
    }
  });

  it('counts texts larger than the scratch memory in JavaScript, with the same answer', () => {
    const big = Buffer.alloc(WASM_MAX_BYTES + 3, 'ab\u00a0c ');
    expect(countWords(big)).toBe(countWordsInJs(big));
    expect(countWords(big)).toBe(naiveWords(big));
  });

  it('counts the newlines the JavaScript loop counts, and so the lines countLines() gives of the decoded text, on any bytes', () => {
    fc.assert(
      fc.property(texts, fc.nat(31), (bytes, offset) => {
        const inSlab = Buffer.concat([Buffer.alloc(offset, 0x0a), bytes]).subarray(offset);
        const expected = countNewlinesInJs(bytes);
        expect(expected).toBe(bytes.toString('latin1').split('\n').length - 1);
        expect(countWordsAndNewlines(bytes).newlines).toBe(expected);
        expect(countWordsAndNewlines(inSlab).newlines).toBe(expected);
        expect(linesFromNewlines(bytes, expected)).toBe(countLines(bytes.toString('utf8')));
      }),
      { numRuns: 3000 },
    );
    // Whole 16-byte blocks and the bytes after them, newlines in every position of a block.
    for (let length = 0; length <= 48; length++) {
      for (const at of [0, 7, 15, 16, 31, length - 1]) {
        const bytes = Buffer.alloc(length, 0x61);
        if (at >= 0 && at < length) bytes[at] = 0x0a;
        expect(countWordsAndNewlines(bytes).newlines).toBe(countNewlinesInJs(bytes));
      }
    }
    const big = Buffer.alloc(WASM_MAX_BYTES + 3, 'a\nb');
    expect(countWordsAndNewlines(big).newlines).toBe(countNewlinesInJs(big));
  });

  it('ships the module that wordCount.wat compiles to', () => {
    // Exits 1 when src/domain/markdown/wordCountWasm.ts differs from a fresh compile of the .wat.
    expect(() => execFileSync(process.execPath, ['scripts/build-wasm.js', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});

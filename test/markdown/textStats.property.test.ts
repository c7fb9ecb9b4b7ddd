// TextStatsCounter measures a file chunk by chunk (large plans, see planMeasure.ts); the whole-text
// functions are the definition. For any text and any way of cutting its bytes, both must agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLines, firstHeading } from '../../src/domain/markdown/text.js';
import { TextStatsCounter } from '../../src/domain/markdown/textStats.js';
import { countWordsInJs } from '../../src/domain/markdown/wordCount.js';

const TOKENS = [
  '\n', '\r\n', '\r', ' ', '  ', '\t', '# ', '#', '## Title', '# Plan: x', '```', '~~~', '````', 'word', 'two words',
  '\u00a0', '\u0085', '\u2028', '\u2029', '\u3000', '\u202f', '\ufeff', '\u1680', '\u2000', '\u200a', 'é', 'Σ', '𐐀',
  '\ud800', '\udc00',
];
const text = fc.array(fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TOKENS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
), { maxLength: 80 }).map((parts) => parts.join(''));
/** Raw bytes too: invalid UTF-8, cut characters, lone continuation bytes. */
const bytes = fc.oneof(
  text.map((t) => Buffer.from(t, 'utf8')),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  fc.tuple(text, fc.uint8Array({ maxLength: 6 }), text).map(([a, b, c]) => Buffer.concat([Buffer.from(a), Buffer.from(b), Buffer.from(c)])),
);

function measureInChunks(all: Buffer, cuts: number[]): ReturnType<TextStatsCounter['finish']> {
  const counter = new TextStatsCounter();
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b)) {
    counter.feed(all.subarray(at, cut));
    at = cut;
  }
  counter.feed(all.subarray(at));
  return counter.finish();
}

describe('TextStatsCounter', () => {
  it('gives the whole text\'s lines, words and first heading, however the bytes are cut', () => {
    fc.assert(fc.property(bytes, fc.array(fc.nat(), { maxLength: 12 }), (all, cuts) => {
      expect(measureInChunks(all, cuts)).toEqual({
        lineCount: countLines(all.toString('utf8')),
        wordCount: countWordsInJs(all),
        heading: firstHeading(all.toString('utf8')),
      });
    }), { numRuns: 3000 });
  });

  it('cuts a long line at the same length as firstHeading, across chunks', () => {
    const line = `# ${'x'.repeat(5000)} #`;
    const all = Buffer.from(`\ufeff${line}\n# Next\n`);
    const cuts = [1, 2, 3, 100, 4095, 4096, 4097, 4098, 4099, 5003];
    expect(measureInChunks(all, cuts).heading).toBe(firstHeading(all.toString('utf8')));
    expect(measureInChunks(all, cuts).heading).toBe('x'.repeat(4094));
  });

  it('cuts a long line of multi-byte characters where firstHeading does, whole in a chunk or across chunks', () => {
    for (const char of ['é', '€', '𐐀']) {
      const all = Buffer.from(`text\n   # ${char.repeat(6000)}\n# Next\n`);
      const expected = firstHeading(all.toString('utf8'));
      expect(expected!.length).toBeGreaterThan(4000);
      expect(measureInChunks(all, []).heading).toBe(expected);
      expect(measureInChunks(all, [7, 9, 10, 4100, 8191, 12_289, 16_385]).heading).toBe(expected);
    }
  });

  it('finds a heading after a fence that spans chunks, and none inside it', () => {
    for (const fence of ['```', '~~~~', '   ```', '  ~~~']) {
      const all = Buffer.from(`${fence}\n# not a title\n${'code\n'.repeat(1000)}${fence}\n# The title\n`);
      const cuts = Array.from({ length: 60 }, (_, i) => i * 97);
      expect(measureInChunks(all, cuts).heading).toBe('The title');
      expect(measureInChunks(all, []).heading).toBe('The title');
    }
  });
});

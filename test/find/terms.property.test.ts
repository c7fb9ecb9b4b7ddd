// A long body is folded into terms a piece at a time while the index is built (Finder.put); the pieces
// must give exactly the terms of the whole text, wherever the pieces end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terms, termsInPieces, withoutMarks } from '../../src/domain/find/terms.js';

const text = fc.array(fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('plan', 'Café', 'cafe\u0301', 'ΟΔΟΣ', 'x_y', '日本', '42', 'naïve') },
  { weight: 3, arbitrary: fc.constantFrom(' ', '\n', '\r\n', '-', '😀', '\n\n') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
), { maxLength: 200 }).map((parts) => parts.join(''));

describe('termsInPieces', () => {
  it('gives terms() of the whole text, for any piece size', async () => {
    await fc.assert(fc.asyncProperty(text, fc.integer({ min: 1, max: 64 }), async (t, size) => {
      let pauses = 0;
      const got = await termsInPieces(t, size, async () => {
        pauses++;
      });
      expect(got).toEqual(terms(t));
      // It pauses between pieces only: never more often than the text has newlines.
      expect(pauses).toBeLessThanOrEqual(t.split('\n').length - 1);
    }), { numRuns: 1000 });
  });
});

describe('withoutMarks', () => {
  const definition = (t: string): string => t.replace(/\p{M}+/gu, '');

  it('drops the combining marks the regex drops, and nothing else', () => {
    const marked = fc.array(fc.oneof(
      { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 2, arbitrary: fc.constantFrom('e\u0301', '\u0301', 'a\u0308\u0323', '\u0915\u093f', '\u3099', '\ufe0f', '\u{1d165}', '\u{e0100}', '\ud800', '\udc00', 'x') },
    ), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(marked, (t) => {
      expect(withoutMarks(t)).toBe(definition(t));
      expect(withoutMarks(t.normalize('NFD'))).toBe(definition(t.normalize('NFD')));
    }), { numRuns: 3000 });
  });

  it('agrees with the regex on every code point', () => {
    for (let point = 0; point <= 0x10ffff; point += point < 0x30000 ? 1 : 97) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const t = `a${String.fromCodePoint(point)}b`;
      if (withoutMarks(t) !== definition(t)) expect([point.toString(16), withoutMarks(t)]).toEqual([point.toString(16), definition(t)]);
    }
  });
});

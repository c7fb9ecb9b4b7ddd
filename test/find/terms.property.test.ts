// A long body is folded into terms a piece at a time while the index is built (Finder.put); the pieces
// must give exactly the terms of the whole text, wherever the pieces end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terms, termsInPieces } from '../../src/domain/find/terms.js';

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

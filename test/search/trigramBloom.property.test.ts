// A large plan's filter is built from its text in pieces (a chunk of the file at a time); it must be the
// filter of the whole text, whatever the cuts, or a search could skip a plan that holds the query.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTrigramBloom, buildTrigramBloomInPieces } from '../../src/domain/search/trigramBloom.js';

async function* piecesOf(text: string, cuts: number[]): AsyncGenerator<string> {
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    yield text.slice(at, cut);
    at = cut;
  }
  yield text.slice(at);
}

describe('buildTrigramBloomInPieces', () => {
  it('equals the filter of the whole text, for any text and any cuts', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 12 }), fc.integer({ min: 0, max: 5000 }), async (text, cuts, extra) => {
      const sizedFor = text.length + extra;
      const whole = buildTrigramBloom(text, sizedFor);
      const pieces = await buildTrigramBloomInPieces(piecesOf(text, cuts), sizedFor);
      expect(pieces.mask).toBe(whole.mask);
      expect([...pieces.bits]).toEqual([...whole.bits]);
    }), { numRuns: 500 });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase } from '../../src/domain/fold.js';
import { buildTrigramBloom, mayContain, queryTrigrams } from '../../src/domain/search/trigramBloom.js';

const filtered = (text: string, query: string): boolean => {
  const folded = foldCase(text);
  const needle = foldCase(query);
  return mayContain(buildTrigramBloom(folded), queryTrigrams(needle)) && folded.includes(needle);
};

describe('trigram Bloom filter', () => {
  it('never hides a real match (no false negatives), for any text and any substring query', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.nat(), fc.nat(), (text, a, b) => {
        const start = a % (text.length + 1);
        const query = text.slice(start, start + (b % 12));
        expect(filtered(text, query)).toBe(foldCase(text).includes(foldCase(query)));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with a plain scan for unrelated queries', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 8 }), (text, query) => {
        expect(filtered(text, query)).toBe(foldCase(text).includes(foldCase(query)));
      }),
      { numRuns: 500 },
    );
  });

  it('rules out most documents that lack a rare word', () => {
    const words = 'alpha beta gamma delta epsilon zeta theta iota kappa lambda'.split(' ');
    let ruledOut = 0;
    for (let d = 0; d < 200; d++) {
      const text = Array.from({ length: 1500 }, (_, i) => words[(i * 7 + d) % words.length]).join(' ');
      if (!mayContain(buildTrigramBloom(foldCase(text)), queryTrigrams('xylophonic'))) ruledOut++;
    }
    expect(ruledOut).toBeGreaterThan(190);
  });

  it('filters nothing for queries under three characters', () => {
    expect(queryTrigrams('ab')).toEqual([]);
    expect(mayContain(buildTrigramBloom('zzz'), queryTrigrams('ab'))).toBe(true);
  });
});

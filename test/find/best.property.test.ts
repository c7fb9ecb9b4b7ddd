// best() keeps a page's hits in order without sorting all of them; its definition is the whole sort cut.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { best, compareHits, type RankedHit } from '../../src/domain/find/findIndex.js';

// Few distinct scores and times, so ties fall to the next key.
const hit = fc.record({
  score: fc.constantFrom(0.5, 1, 1.25, 3),
  modified: fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
  id: fc.string({ minLength: 1, maxLength: 3 }),
}).map(({ score, modified, id }): RankedHit => ({ score, entry: { key: `plan:${id}`, kind: 'plan', id, title: id, project: null, modified, type: null } }));
// Unique keys, as the index's hits have; long enough that a page is a small part of them (where best()
// inserts instead of sorting them all).
const hits = fc.uniqueArray(hit, { selector: (h) => h.entry.key, minLength: 40, maxLength: 300 });

describe('best', () => {
  it('gives the first `count` hits of the whole sort, in its order', () => {
    fc.assert(fc.property(hits, fc.integer({ min: 1, max: 30 }), (all, count) => {
      expect(best(all, count)).toEqual([...all].sort(compareHits).slice(0, count));
    }), { numRuns: 500 });
  });
});

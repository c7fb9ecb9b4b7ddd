// Snippets rank lines by the query words they hold, so each term the index matched must be put with the
// query words it matches (matchedGroups re-applies the query's rules: the word, a prefix, one typo). Here
// the index itself is the definition: no term it matches may be left to the fallback.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FindIndex, matchedGroups } from '../../src/domain/find/findIndex.js';
import { parseFindQuery } from '../../src/domain/find/query.js';

// Words close to each other (one letter wrong, missing, extra or swapped, prefixes) and accented forms.
const WORDS = ['planning', 'planing', 'plannign', 'plan', 'plans', 'planner', 'cafe', 'café', 'memory', 'memroy', 'memorys',
  'emory', 'testing', 'tseting', 'test', 'zebra', 'zebras', 'naïve', 'naive', 'σοφία', 'σοφια'];

describe('matchedGroups', () => {
  it('puts every term the index matched with a query word that matches it', () => {
    const docs = fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 12 });
    const query = fc.tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), fc.boolean());
    fc.assert(fc.property(docs, query, (texts, [words, typing]) => {
      const index = new FindIndex();
      texts.forEach((t, i) => index.put({
        kind: 'plan', id: `p${i}.md`, title: '', name: '', description: '', body: t.join(' '), project: null,
        modified: '2026-01-01T00:00:00.000Z', type: null,
      }));
      const q = parseFindQuery(words.join(' ') + (typing ? '' : ' '));
      // A first query word that matches nothing takes whatever no real word claims.
      const terms = [{ term: '\u0000', prefix: false, exact: true }, ...q.terms];
      for (const hit of index.find(q)) {
        const matched = index.matchedTerms(hit, q);
        expect(matched.length).toBeGreaterThan(0);
        const groups = matchedGroups(matched, terms);
        expect(groups[0]).toEqual([]);
        expect(groups.flat().length).toBeGreaterThanOrEqual(matched.length);
      }
    }), { numRuns: 300 });
  });
});

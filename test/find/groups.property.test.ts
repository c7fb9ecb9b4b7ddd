// Snippets rank lines by the query words they hold, so a hit comes with what each query word matched in
// its document (the word, a longer word when it is a prefix, one typo). Through the whole index, for any
// documents and query: one group per query word, none empty (every word matched), every term one of the
// document's own. Which terms exactly is held to the written-out rules in rankIndex.property.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FindIndex } from '../../src/domain/find/findIndex.js';
import { parseFindQuery } from '../../src/domain/find/query.js';
import { terms } from '../../src/domain/find/terms.js';

// Words close to each other (one letter wrong, missing, extra or swapped, prefixes) and accented forms.
const WORDS = ['planning', 'planing', 'plannign', 'plan', 'plans', 'planner', 'cafe', 'café', 'memory', 'memroy', 'memorys',
  'emory', 'testing', 'tseting', 'test', 'zebra', 'zebras', 'naïve', 'naive', 'σοφία', 'σοφια'];

describe('a hit\'s groups', () => {
  it('hold, for each query word, terms of the document it matched, and never nothing', async () => {
    const docs = fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 12 });
    const query = fc.tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), fc.boolean());
    await fc.assert(fc.asyncProperty(docs, query, async (texts, [words, typing]) => {
      const index = new FindIndex();
      for (const [i, t] of texts.entries()) {
        await index.put({
          kind: 'plan', id: `p${i}.md`, title: '', name: '', description: '', body: t.join(' '), project: null,
          modified: '2026-01-01T00:00:00.000Z', type: null,
        }, undefined, () => false, () => Promise.resolve());
      }
      const q = parseFindQuery(words.join(' ') + (typing ? '' : ' '));
      const found = index.find(q);
      for (const hit of found.hits) {
        const groups = found.groups(hit);
        const own = new Set(terms(texts[Number(hit.entry.id.slice(1, -3))]!.join(' ')));
        expect(groups).toHaveLength(q.terms.length);
        for (const group of groups) {
          expect(group.length).toBeGreaterThan(0);
          for (const term of group) expect(own.has(term)).toBe(true);
        }
      }
    }), { numRuns: 300 });
  });
});

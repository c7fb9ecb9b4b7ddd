// RankIndex scores from postings kept in slots, with removed documents left in place until compaction; its
// twin here computes the same definition directly from the live documents' terms. Which documents match is
// also held to MiniSearch, given the query as MiniSearch takes it (the word with a prefix and one typo, or
// its swapped spellings): the index keeps MiniSearch's matching rules while scoring on its own.
import fc from 'fast-check';
import MiniSearch, { type Query } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { BM25, FIELD_BOOSTS, FUZZY_WEIGHT, PREFIX_WEIGHT, RankIndex, SWAP_WEIGHT, swapped, type RankTerm } from '../../src/domain/find/rankIndex.js';

// Words close to each other (one letter wrong, missing, extra or swapped, prefixes), accented and Greek.
const WORDS = ['plan', 'plans', 'planning', 'planing', 'plannign', 'planner', 'cafe', 'café', 'memory', 'memroy', 'emory',
  'test', 'tset', 'testing', 'zebra', 'zerba', 'zebras', 'naive', 'naïve', 'σοφια', 'σοφιαα'];
const FIELD_NAMES = ['title', 'name', 'description', 'project', 'body'];

type Doc = string[][];

function levenshteinIsOne(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
  }
  return d[x.length]![y.length] === 1;
}

/** How much `term` counts for the query word `t` (0: it does not match it), by the rules written out. */
function weightFor(t: RankTerm, term: string): number {
  const spelled = (word: string, weight: number): number => {
    if (term === word) return weight;
    if (t.prefix && term.startsWith(word) && term.length > word.length) {
      return (weight * PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - word.length));
    }
    return 0;
  };
  let best = spelled(t.term, 1);
  if (t.typos) {
    if (levenshteinIsOne(t.term, term)) best = Math.max(best, (FUZZY_WEIGHT * term.length) / (term.length + 1));
    for (const swap of swapped(t.term)) best = Math.max(best, spelled(swap, SWAP_WEIGHT));
  }
  return best;
}

/** The scores of the documents matching every word, straight from their terms. */
function twin(docs: Map<string, Doc>, words: RankTerm[]): Map<string, number> {
  const n = docs.size;
  const out = new Map<string, number>();
  if (words.length === 0) {
    for (const key of docs.keys()) out.set(key, 1);
    return out;
  }
  const average = FIELD_BOOSTS.map((_, f) => [...docs.values()].reduce((sum, d) => sum + d[f]!.length, 0) / n);
  const vocabulary = new Set([...docs.values()].flatMap((d) => d.flat()));
  for (const [key, doc] of docs) {
    let total = 0;
    let all = true;
    for (const t of words) {
      let wordScore = 0;
      for (const term of vocabulary) {
        const weight = weightFor(t, term);
        if (weight === 0) continue;
        for (const [f, field] of doc.entries()) {
          const count = field.filter((x) => x === term).length;
          if (count === 0) continue;
          const matching = [...docs.values()].filter((d) => d[f]!.includes(term)).length;
          const idf = Math.log(1 + (n - matching + 0.5) / (matching + 0.5));
          const norm = 1 - BM25.b + (BM25.b * field.length) / average[f]!;
          wordScore += weight * FIELD_BOOSTS[f]! * idf * (BM25.d + (count * (BM25.k + 1)) / (count + BM25.k * norm));
        }
      }
      if (wordScore === 0) all = false;
      total += wordScore;
    }
    if (all) out.set(key, total);
  }
  return out;
}

/** The keys MiniSearch finds for the words, asked as the search asked it before RankIndex. */
function miniSearchKeys(docs: Map<string, Doc>, words: RankTerm[]): Set<string> {
  const ms = new MiniSearch<Record<string, string>>({
    idField: 'key', fields: FIELD_NAMES, tokenize: (text) => text.split(' ').filter((x) => x !== ''), processTerm: (x) => x,
    searchOptions: { tokenize: (text) => [text], processTerm: (x) => x },
  });
  for (const [key, doc] of docs) ms.add({ key, ...Object.fromEntries(FIELD_NAMES.map((name, f) => [name, doc[f]!.join(' ')])) });
  const query = (t: RankTerm): Query => {
    const own: Query = { queries: [t.term], prefix: t.prefix, fuzzy: t.typos ? 1 : false };
    const swaps = t.typos ? swapped(t.term) : [];
    return swaps.length === 0 ? own : { combineWith: 'OR', queries: [own, { queries: swaps, prefix: t.prefix, fuzzy: false }] };
  };
  return new Set(ms.search({ combineWith: 'AND', queries: words.map(query) }).map((r) => r.id as string));
}

const doc = fc.array(fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }), { minLength: 5, maxLength: 5 });
const term = fc.record({ term: fc.constantFrom(...WORDS), prefix: fc.boolean(), typos: fc.boolean() });
/** Documents added in turn (a key again replaces it), some removed after. */
const history = fc.tuple(
  fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), doc), { minLength: 1, maxLength: 14 }),
  fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }),
  fc.integer({ min: 1, max: 4 }),
);

function build([adds, removes, compactAfter]: [[number, Doc][], number[], number]): { index: RankIndex<string>; live: Map<string, Doc> } {
  const index = new RankIndex<string>(compactAfter);
  const live = new Map<string, Doc>();
  for (const [k, d] of adds) {
    index.add(`d${k}`, d, `d${k}`);
    live.set(`d${k}`, d);
  }
  for (const k of removes) {
    index.remove(`d${k}`);
    live.delete(`d${k}`);
  }
  return { index, live };
}

describe('RankIndex', () => {
  it('scores the documents matching every word as the direct computation does, through replacements, removals and compaction', () => {
    fc.assert(fc.property(history, fc.array(term, { maxLength: 3 }), (h, words) => {
      const { index, live } = build(h);
      const got = new Map(index.search(index.prepare(words)).map((hit) => [hit.value, hit.score]));
      const want = live.size === 0 ? new Map<string, number>() : twin(live, words);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      for (const [key, score] of want) expect(got.get(key)!).toBeCloseTo(score, 9);
    }), { numRuns: 400 });
  });

  it('matches the documents MiniSearch matches', () => {
    fc.assert(fc.property(history, fc.array(term, { minLength: 1, maxLength: 3 }), (h, words) => {
      const { index, live } = build(h);
      const got = new Set(index.search(index.prepare(words)).map((hit) => hit.value));
      expect([...got].sort()).toEqual([...miniSearchKeys(live, words)].sort());
    }), { numRuns: 400 });
  });

  it('names, for each query word, exactly the terms of a document it matched (typo matches only when nothing was spelled as typed)', () => {
    fc.assert(fc.property(history, fc.array(term, { minLength: 1, maxLength: 3 }), (h, words) => {
      const { index, live } = build(h);
      const prepared = index.prepare(words);
      for (const hit of index.search(prepared)) {
        const own = [...new Set(live.get(hit.value)!.flat())];
        const groups = index.matchedGroups(hit.value, prepared);
        // Terms spelled as the word (or words it begins) when the document holds any; its typo matches otherwise.
        const expected = words.map((t) => {
          const spelled = own.filter((m) => weightFor({ ...t, typos: false }, m) > 0);
          return (spelled.length > 0 ? spelled : own.filter((m) => weightFor(t, m) > 0)).sort();
        });
        expect(groups.map((g) => [...g].sort())).toEqual(expected);
      }
    }), { numRuns: 300 });
  });

  it('adds in steps as add() does, queries between the steps seeing the index as it was before', async () => {
    await fc.assert(fc.asyncProperty(history, fc.array(fc.array(term, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }), async ([adds, removes, compactAfter], queries) => {
      const plain = new RankIndex<string>(compactAfter);
      const stepped = new RankIndex<string>(compactAfter);
      const answers = (index: RankIndex<string>) => queries.map((words) => index.search(index.prepare(words)).map((hit) => `${hit.value} ${hit.score.toFixed(9)}`).sort());
      let steps = 0;
      for (const [k, d] of adds) {
        const before = answers(plain);
        await stepped.addInSteps(`d${k}`, d, `d${k}`, () => true, async () => {
          steps++;
          expect(answers(stepped)).toEqual(before);
          await Promise.resolve();
        });
        plain.add(`d${k}`, d, `d${k}`);
        expect(answers(stepped)).toEqual(answers(plain));
      }
      for (const k of removes) {
        plain.remove(`d${k}`);
        stepped.remove(`d${k}`);
        expect(answers(stepped)).toEqual(answers(plain));
      }
      // Every distinct term but the last of each add is a step.
      expect(steps).toBeGreaterThanOrEqual(adds.filter(([, d]) => d.some((field) => field.length > 1)).length);
    }), { numRuns: 200 });
  });

  it("looks a staged document's terms up again when replacing it compacts the dictionary", async () => {
    const index = new RankIndex<string>(1);
    index.add('d0', [['zebra'], [], [], [], ['plan', 'memory']], 'd0');
    // Replacing the only document compacts: its old terms leave the dictionary, the lookups made before with them.
    await index.addInSteps('d0', [['zebra'], [], [], [], ['plan', 'testing']], 'd0', () => true, () => Promise.resolve());
    for (const word of ['zebra', 'plan', 'testing']) {
      expect(index.search(index.prepare([{ term: word, prefix: false, typos: false }])).map((hit) => hit.value)).toEqual(['d0']);
    }
    expect(index.search(index.prepare([{ term: 'memory', prefix: false, typos: false }]))).toEqual([]);
  });
});

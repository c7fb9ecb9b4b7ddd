// The ranked search's postings and scoring: BM25+ over five weighted fields, every query word required,
// the last word a prefix as one types, one typo allowed in words of 5+ letters. MiniSearch's radix tree
// (its public SearchableMap) is the term dictionary, for prefix and typo lookups; the postings are pairs
// of document slot and term count in typed arrays, scored into a flat array, because MiniSearch's own scoring
// (a map and a result object per matching document) was most of a query's time on a large home
// (docs/decisions.md, D36). test/find/rankIndex.property.test.ts pins it to a direct computation, and
// its matching documents to MiniSearch's.
import SearchableMap from 'minisearch/SearchableMap';
import { Postings, StagedDoc, type TermPostings } from './postings.js';

/** title, name, description, project, body: the boost of each field, by its index in a document. */
export const FIELD_BOOSTS: readonly number[] = [4, 3, 2, 1.5, 1];
const FIELDS = FIELD_BOOSTS.length;
/** BM25+ (MiniSearch's defaults). */
export const BM25 = { k: 1.2, b: 0.7, d: 0.5 } as const;
/** Weights of a longer word matched by a prefix, of a word one typo away, of a word with two letters swapped. */
export const PREFIX_WEIGHT = 0.375;
export const FUZZY_WEIGHT = 0.45;
export const SWAP_WEIGHT = 0.45;

/** One query word as the index matches it. */
export interface RankTerm {
  /** Folded. */
  term: string;
  /** Longer words starting with it match too. */
  prefix: boolean;
  /** One typo allowed: a letter wrong, missing or extra (the dictionary's edit distance 1), or two swapped. */
  typos: boolean;
}

export interface RankHit<T> {
  value: T;
  score: number;
}

/** A query's words, each with the dictionary terms it matches: their weights and postings (see prepare()). */
export interface PreparedQuery {
  /** By query word: the dictionary terms it matches, each with its weight and whether only a typo reached it. */
  words: Map<string, { weight: number; postings: TermPostings; typo: boolean }>[];
}

/**
 * What dump() gives and restore() takes: documents in slot order, lengths by field, and each term's
 * (slot, count) pairs by field, all in one array: term t's pairs in field f are `sizes[t * FIELDS + f]`
 * pairs from word `starts[t * FIELDS + f]` of `pairs`.
 */
export interface RankDump<T> {
  values: T[];
  lengths: Uint32Array[];
  terms: string[];
  pairs: Uint32Array;
  starts: Uint32Array;
  sizes: Uint32Array;
}

export class RankIndex<T> {
  private readonly dict = new SearchableMap<TermPostings>();
  /** By slot: the document's key, null once removed. */
  private keys: (string | null)[] = [];
  /** By slot: what the document's hits carry. */
  private values: (T | null)[] = [];
  private readonly slots = new Map<string, number>();
  /** By field, by slot: the field's length in terms. */
  private lengths: number[][] = Array.from({ length: FIELDS }, () => []);
  /** By field: the live documents' lengths summed. */
  private readonly sums: number[] = new Array<number>(FIELDS).fill(0);
  private removed = 0;
  /** Counts compactions: a staged document's lookups are redone when one ran since (see commit()). */
  private compactions = 0;

  /** `compactAfter`: removed documents' slots are reclaimed once there are this many and more than live ones. */
  constructor(private readonly compactAfter = 1000) {}

  get size(): number {
    return this.slots.size;
  }

  /** The live documents' values, in slot order. */
  *liveValues(): IterableIterator<T> {
    for (const value of this.values) if (value !== null) yield value;
  }

  /**
   * Adds or replaces a document in one step: its terms (folded) by field, in FIELD_BOOSTS' order; its hits
   * carry `value`. The index builds with addInSteps(); this is what its property tests hold that to.
   */
  add(key: string, fields: readonly (readonly string[])[], value: T): void {
    // commit() looks up whatever is not looked up yet.
    this.commit(key, this.stage(fields), value);
  }

  /**
   * add() with its dictionary lookups (most of a long document's put; docs/decisions.md, D52) spread over
   * steps: between them `between()` is awaited whenever `due()` says the current step is used up. Queries
   * may run between steps and see the index as it was; other changes must not (the caller serializes them).
   */
  async addInSteps(key: string, fields: readonly (readonly string[])[], value: T, due: () => boolean, between: () => Promise<void>): Promise<void> {
    const staged = this.stage(fields);
    while (!staged.resolve(due)) await between();
    this.commit(key, staged, value);
  }

  /** A document's distinct terms and counts by field, its postings to be looked up (see StagedDoc). */
  private stage(fields: readonly (readonly string[])[]): StagedDoc {
    return new StagedDoc(FIELDS, fields, (term) => {
      let postings = this.dict.get(term);
      if (postings === undefined) {
        // A term with no postings yet matches nothing: readers between steps see no change.
        postings = [];
        this.dict.set(term, postings);
      }
      return postings;
    }, this.compactions);
  }

  /**
   * The staged document's one short step: replaces any document of `key`, looks up the terms not looked
   * up yet (all of them again after a compaction), then pushes its postings.
   */
  private commit(key: string, staged: StagedDoc, value: T): void {
    this.remove(key);
    // A compaction drops terms left without postings, so lookups made before it may be orphaned.
    if (staged.compactions !== this.compactions) staged.restage(this.compactions);
    while (!staged.resolve(() => false));
    const slot = this.keys.length;
    this.keys.push(key);
    this.values.push(value);
    this.slots.set(key, slot);
    for (let f = 0; f < FIELDS; f++) {
      const length = staged.lengths[f]!;
      this.lengths[f]![slot] = length;
      this.sums[f]! += length;
      const counts = staged.counts[f]!;
      const found = staged.postings[f]!;
      for (let i = 0; i < counts.length; i++) (found[i]![f] ??= new Postings()).push(slot, counts[i]!);
    }
  }

  remove(key: string): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.slots.delete(key);
    this.keys[slot] = null;
    this.values[slot] = null;
    for (let f = 0; f < FIELDS; f++) this.sums[f]! -= this.lengths[f]![slot]!;
    this.removed += 1;
    if (this.removed >= this.compactAfter && this.removed > this.slots.size) this.compact();
  }

  /** The dictionary terms each query word matches, with their weights: what search() and matchedGroups() take. */
  prepare(terms: readonly RankTerm[]): PreparedQuery {
    // A term's postings array stays its own through compactions, which renumber inside it (or empty it
    // when the term leaves the dictionary): a hit's terms are found without a dictionary lookup each.
    return {
      words: terms.map((t) => new Map([...this.derive(t)].map(([term, { weight, typo }]) => [term, { weight, typo, postings: this.dict.get(term)! }]))),
    };
  }

  /**
   * Every live document that matches all the query's words, with its score: for each word, each dictionary
   * term it matches (weighted by how: itself 1, a longer word by prefix, a typo, a swap), each field's BM25+
   * of that term times the field's boost; the best weight counts once when a term matches a word two ways.
   * In no particular order. No words: every document, scored 1.
   */
  search(query: PreparedQuery): RankHit<T>[] {
    if (query.words.length === 0) return this.values.filter((v): v is T => v !== null).map((value) => ({ value, score: 1 }));
    const total = new Float64Array(this.keys.length);
    const word = new Float64Array(this.keys.length);
    let candidates: number[] | null = null;
    for (const derived of query.words) {
      const touched: number[] = [];
      for (const { weight, postings } of derived.values()) this.score(postings, weight, word, touched);
      if (candidates === null) {
        candidates = touched;
        for (const slot of touched) total[slot] = word[slot]!;
      } else {
        const kept: number[] = [];
        for (const slot of candidates) {
          if (word[slot]! > 0) {
            total[slot]! += word[slot]!;
            kept.push(slot);
          }
        }
        candidates = kept;
      }
      for (const slot of touched) word[slot] = 0;
      if (candidates.length === 0) return [];
    }
    return (candidates ?? []).map((slot) => ({ value: this.values[slot]!, score: total[slot]! }));
  }

  /**
   * For each query word, the dictionary terms it matches that a document holds (in any field): what each
   * word found in it (snippets mark those, and rank lines by how many words they hold). A document that holds
   * the word as typed (or a longer word it begins) is marked for that only: "theme" does not light up
   * "there" beside a real "theme". Typo matches count when they are all the word found.
   */
  matchedGroups(key: string, query: PreparedQuery): string[][] {
    const slot = this.slots.get(key);
    if (slot === undefined) return query.words.map(() => []);
    const out: string[][] = [];
    for (const derived of query.words) {
      const spelled: string[] = [];
      const typos: string[] = [];
      for (const [term, { postings, typo }] of derived) {
        if (postings.some((p) => p !== undefined && p.holds(slot))) (typo ? typos : spelled).push(term);
      }
      out.push(spelled.length > 0 ? spelled : typos);
    }
    return out;
  }

  /**
   * The index's size in a plain binary form (what persisting it would take), for the benchmark: each term
   * in UTF-8 with a length, per field a count and its (slot, count) pairs at 4 bytes each; the keys and
   * the fields' lengths.
   */
  serializedBytes(): number {
    let bytes = 0;
    for (const key of this.keys) bytes += 4 + (key === null ? 0 : Buffer.byteLength(key));
    bytes += 4 * FIELDS * this.keys.length;
    for (const [term, postings] of this.dict) {
      bytes += 4 + Buffer.byteLength(term) + 1;
      for (const p of postings) if (p !== undefined) bytes += 4 + 8 * p.length;
    }
    return bytes;
  }

  /**
   * The live documents, slots renumbered in order, and every term's postings in those slots: what
   * savedIndex.ts writes. `between` is awaited every few thousand terms (the caller keeps other changes out).
   */
  async dump(between: () => Promise<void>): Promise<RankDump<T>> {
    const renumbered = new Int32Array(this.keys.length).fill(-1);
    const values: T[] = [];
    const live: number[] = [];
    for (const [slot, key] of this.keys.entries()) {
      if (key === null) continue;
      renumbered[slot] = values.length;
      values.push(this.values[slot]!);
      live.push(slot);
    }
    const lengths = this.lengths.map((byField) => Uint32Array.from(live, (slot) => byField[slot]!));
    const terms: string[] = [];
    const pairs = new GrowingWords();
    const starts = new GrowingWords();
    const sizes = new GrowingWords();
    let step = 0;
    for (const [term, byField] of this.dict) {
      if (++step % 4096 === 0) await between();
      const mark = pairs.length;
      for (let f = 0; f < FIELDS; f++) {
        const p = byField[f];
        starts.push(pairs.length);
        const from = pairs.length;
        for (let i = 0; p !== undefined && i < p.length; i++) {
          const slot = renumbered[p.slot(i)]!;
          if (slot < 0) continue;
          pairs.push(slot);
          pairs.push(p.count(i));
        }
        sizes.push((pairs.length - from) / 2);
      }
      // A term left with no live document is not saved.
      if (pairs.length === mark) {
        starts.length -= FIELDS;
        sizes.length -= FIELDS;
        continue;
      }
      terms.push(term);
    }
    return { values, lengths, terms, pairs: pairs.words(), starts: starts.words(), sizes: sizes.words() };
  }

  /**
   * An index holding what dump() gave, documents keyed by `keyOf(value)`. Postings may be views into one
   * shared buffer (see Postings).
   * Throws on a dump that does not hold together (a slot out of range or out of order). `between` is
   * awaited every few thousand terms; nothing else sees the index until it is whole.
   */
  static async restore<T>(dump: RankDump<T>, keyOf: (value: T) => string, between: () => Promise<void>, compactAfter?: number): Promise<RankIndex<T>> {
    const index = new RankIndex<T>(compactAfter);
    const n = dump.values.length;
    const cells = dump.terms.length * FIELDS;
    if (dump.lengths.length !== FIELDS || dump.lengths.some((l) => l.length !== n) || dump.starts.length !== cells || dump.sizes.length !== cells) {
      throw new Error('saved index: sizes disagree');
    }
    const { pairs, starts, sizes } = dump;
    index.values = [...dump.values];
    index.keys = index.values.map((value, slot) => {
      const key = keyOf(value as T);
      index.slots.set(key, slot);
      return key;
    });
    if (index.slots.size !== n) throw new Error('saved index: a key twice');
    index.lengths = dump.lengths.map((byField, f) => {
      const out = Array.from(byField);
      index.sums[f] = out.reduce((a, b) => a + b, 0);
      return out;
    });
    for (const [t, term] of dump.terms.entries()) {
      if (t % 4096 === 4095) await between();
      const byField: TermPostings = [];
      for (let f = 0; f < FIELDS; f++) {
        const start = starts[t * FIELDS + f]!;
        const size = sizes[t * FIELDS + f]!;
        if (start + 2 * size > pairs.length) throw new Error('saved index: a torn posting');
        let last = -1;
        for (let i = start; i < start + 2 * size; i += 2) {
          if (pairs[i]! <= last || pairs[i]! >= n) throw new Error('saved index: a slot out of order');
          last = pairs[i]!;
        }
        if (size === 0) continue;
        byField[f] = new Postings(pairs, size, start);
      }
      index.dict.set(term, byField);
    }
    return index;
  }

  /** The dictionary terms a query word matches, each with its best weight and whether that came by a typo. */
  private derive(t: RankTerm): Map<string, { weight: number; typo: boolean }> {
    const out = new Map<string, { weight: number; typo: boolean }>();
    const put = (term: string, weight: number, typo: boolean) => {
      const known = out.get(term);
      if (known === undefined) out.set(term, { weight, typo });
      else out.set(term, { weight: Math.max(weight, known.weight), typo: known.typo && typo });
    };
    const spelled = (term: string, weight: number, typo: boolean) => {
      if (this.dict.has(term)) put(term, weight, typo);
      if (!t.prefix) return;
      for (const longer of this.dict.atPrefix(term).keys()) {
        const distance = longer.length - term.length;
        if (distance > 0) put(longer, (weight * PREFIX_WEIGHT * longer.length) / (longer.length + 0.3 * distance), typo);
      }
    };
    spelled(t.term, 1, false);
    if (t.typos) {
      for (const [term, [, distance]] of this.dict.fuzzyGet(t.term, 1)) {
        if (distance > 0) put(term, (FUZZY_WEIGHT * term.length) / (term.length + distance), true);
      }
      for (const swap of swapped(t.term)) spelled(swap, SWAP_WEIGHT, true);
    }
    return out;
  }

  /** Adds one term's BM25+ in each field, times `weight` and the field's boost, to `into`. */
  private score(postings: TermPostings, weight: number, into: Float64Array, touched: number[]): void {
    const live = this.slots.size;
    const { k, b, d } = BM25;
    for (let f = 0; f < FIELDS; f++) {
      const p = postings[f];
      if (p === undefined) continue;
      let matching = 0;
      for (let i = 0; i < p.length; i++) if (this.keys[p.slot(i)] !== null) matching++;
      if (matching === 0) continue;
      const idf = Math.log(1 + (live - matching + 0.5) / (matching + 0.5));
      const average = this.sums[f]! / live;
      const boost = weight * FIELD_BOOSTS[f]!;
      const lengths = this.lengths[f]!;
      for (let i = 0; i < p.length; i++) {
        const slot = p.slot(i);
        if (this.keys[slot] === null) continue;
        const count = p.count(i);
        const norm = 1 - b + (b * lengths[slot]!) / average;
        if (into[slot] === 0) touched.push(slot);
        into[slot]! += boost * idf * (d + (count * (k + 1)) / (count + k * norm));
      }
    }
  }

  /** Renumbers the live documents' slots and drops the removed ones from every posting. */
  private compact(): void {
    const renumbered = new Int32Array(this.keys.length).fill(-1);
    const keys: string[] = [];
    const values: T[] = [];
    const lengths: number[][] = Array.from({ length: FIELDS }, () => []);
    for (const [slot, key] of this.keys.entries()) {
      if (key === null) continue;
      renumbered[slot] = keys.length;
      for (let f = 0; f < FIELDS; f++) lengths[f]!.push(this.lengths[f]![slot]!);
      this.slots.set(key, keys.length);
      keys.push(key);
      values.push(this.values[slot]!);
    }
    const empty: string[] = [];
    for (const [term, postings] of this.dict) {
      let any = false;
      for (let f = 0; f < FIELDS; f++) {
        const p = postings[f];
        if (p === undefined) continue;
        const next = new Postings();
        for (let i = 0; i < p.length; i++) {
          const slot = renumbered[p.slot(i)]!;
          if (slot >= 0) next.push(slot, p.count(i));
        }
        postings[f] = next.length > 0 ? next : undefined;
        any ||= next.length > 0;
      }
      if (!any) empty.push(term);
    }
    for (const term of empty) this.dict.delete(term);
    this.keys = keys;
    this.values = values;
    this.lengths = lengths;
    this.removed = 0;
    this.compactions += 1;
  }
}

/** `term` with two neighbouring (different) letters swapped, each way (by code point). */
export function swapped(term: string): string[] {
  const chars = [...term];
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) {
    if (chars[i] === chars[i + 1]) continue;
    const copy = chars.slice();
    [copy[i], copy[i + 1]] = [copy[i + 1]!, copy[i]!];
    out.add(copy.join(''));
  }
  return [...out];
}

/** 32-bit words pushed one at a time into a typed array grown by doubling (no array of numbers on the heap). */
class GrowingWords {
  private buffer = new Uint32Array(1024);
  length = 0;

  push(word: number): void {
    if (this.length === this.buffer.length) {
      const grown = new Uint32Array(2 * this.buffer.length);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = word;
  }

  /** The words pushed (a copy of just those). */
  words(): Uint32Array {
    return this.buffer.slice(0, this.length);
  }
}

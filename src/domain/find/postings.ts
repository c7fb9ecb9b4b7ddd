// The ranked index's postings (rankIndex.ts): a term's documents per field in typed arrays, and a document
// staged on its way in, its terms looked up a step at a time (docs/decisions.md, D46 and D52).

/**
 * A term's documents in one field: pairs of (slot, the term's count there), slots ascending, in a typed
 * array grown by doubling. Its contents live outside the garbage-collected heap once past a few pairs, so
 * the collections during a build do not copy them over and over as they would plain arrays of numbers
 * (docs/decisions.md, D46).
 */
export class Postings {
  /** Words of `pairs` free for push() from `base`: none past its pairs when they sit in a shared buffer. */
  private room: number;

  /**
   * `pairs` may be a larger buffer shared by many postings (a restored index, savedIndex.ts: one typed
   * array per posting cost more in allocation and collection than the restore's own work) whose pairs
   * start at word `base`: push() then grows them into an array of their own and never writes into it.
   */
  constructor(
    private pairs: Uint32Array = new Uint32Array(4),
    /** Documents held: pairs [base, base + 2 * length) are in use. */
    public length = 0,
    private base = 0,
  ) {
    this.room = base === 0 && length === 0 ? pairs.length : 2 * length;
  }

  push(slot: number, count: number): void {
    if (2 * this.length === this.room) {
      const grown = new Uint32Array(Math.max(4, 2 * this.room));
      grown.set(this.pairs.subarray(this.base, this.base + 2 * this.length));
      this.pairs = grown;
      this.base = 0;
      this.room = grown.length;
    }
    this.pairs[this.base + 2 * this.length] = slot;
    this.pairs[this.base + 2 * this.length + 1] = count;
    this.length += 1;
  }

  slot(i: number): number {
    return this.pairs[this.base + 2 * i]!;
  }

  count(i: number): number {
    return this.pairs[this.base + 2 * i + 1]!;
  }

  /** Whether it holds `slot` (binary search: slots are ascending). */
  holds(slot: number): boolean {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.pairs[this.base + 2 * mid]!;
      if (at === slot) return true;
      if (at < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/** A term's postings, by field index. */
export type TermPostings = (Postings | undefined)[];

/**
 * A document on its way into the index: its distinct terms and their counts by field, and their postings
 * as looked up so far, in the same order. resolve() looks up more of them until done or `due()`.
 */
export class StagedDoc {
  readonly lengths: number[] = [];
  readonly terms: string[][] = [];
  readonly counts: number[][] = [];
  postings: TermPostings[][] = [];
  private field = 0;

  constructor(
    private readonly fieldCount: number,
    fields: readonly (readonly string[])[],
    private readonly lookUp: (term: string) => TermPostings,
    public compactions: number,
  ) {
    for (let f = 0; f < fieldCount; f++) {
      const terms = fields[f] ?? [];
      this.lengths.push(terms.length);
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      this.terms.push([...counts.keys()]);
      this.counts.push([...counts.values()]);
      this.postings.push([]);
    }
  }

  /** Forgets the lookups made (a compaction ran since): resolve() makes them again. */
  restage(compactions: number): void {
    this.compactions = compactions;
    this.postings = this.terms.map(() => []);
    this.field = 0;
  }

  /** Looks up terms until all are (true) or `due()` says to stop for now (false). */
  resolve(due: () => boolean): boolean {
    for (; this.field < this.fieldCount; this.field++) {
      const terms = this.terms[this.field]!;
      const found = this.postings[this.field]!;
      while (found.length < terms.length) {
        found.push(this.lookUp(terms[found.length]!));
        if (due()) return false;
      }
    }
    return true;
  }
}

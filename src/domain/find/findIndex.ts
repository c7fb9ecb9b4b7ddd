// The ranked index over plans, memory entries and sessions: BM25+ over five fields with boosts
// (rankIndex.ts), the documents' listing facts kept beside it for filters, tie-breaks and results. It holds
// terms only: texts stay on disk (plans, memory files) or in the session facts, and are read again for the
// few results a page shows.
import { foldCase } from '../fold.js';
import { hasFilters, type FindKind, type FindQuery, type FindTerm } from './query.js';
import { RankIndex, type RankDump, type RankTerm } from './rankIndex.js';
import { terms } from './terms.js';

export interface FindDoc {
  kind: FindKind;
  /** The plan's file name, the memory entry's id, the session id. */
  id: string;
  title: string;
  /** A plan's file name, a memory entry's file name. */
  name: string;
  description: string;
  body: string;
  project: string | null;
  /** ISO time. */
  modified: string;
  /** A memory entry's type. */
  type: string | null;
}

/** What the index keeps of a document (its text is not kept). */
export type FindEntry = Omit<FindDoc, 'name' | 'description' | 'body'> & { key: string };

export interface RankedHit {
  entry: FindEntry;
  score: number;
}

/** A query's hits, and what each query word matched in a hit's document. */
export interface Found {
  /** Every document that matches all terms and the filters, in no order (see best()). */
  hits: RankedHit[];
  /** One group per query term: the folded terms of the document it matched (with typos and prefixes resolved). */
  groups(hit: RankedHit): string[][];
}

/** How much of a long body is indexed: a plan or memory file past this is found by its first part. */
export const BODY_CHARS = 256 * 1024;

/** What is indexed of a document's body: its first BODY_CHARS characters. */
export function bodyOf(doc: FindDoc): string {
  return doc.body.length > BODY_CHARS ? doc.body.slice(0, BODY_CHARS) : doc.body;
}

export function docKey(kind: FindKind, id: string): string {
  return `${kind}:${id}`;
}

export class FindIndex {
  private readonly entries = new Map<string, FindEntry>();

  constructor(private readonly rank = new RankIndex<FindEntry>()) {
    for (const entry of rank.liveValues()) this.entries.set(entry.key, entry);
  }

  /** An index holding what dump() gave (see RankIndex.restore(); throws on one that does not hold together). */
  static async restore(dump: RankDump<FindEntry>, between: () => Promise<void>): Promise<FindIndex> {
    return new FindIndex(await RankIndex.restore(dump, (entry) => entry.key, between));
  }

  /** What savedIndex.ts writes (see RankIndex.dump()). */
  dump(between: () => Promise<void>): Promise<RankDump<FindEntry>> {
    return this.rank.dump(between);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  entry(key: string): FindEntry | undefined {
    return this.entries.get(key);
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  /**
   * Adds or replaces a document, its terms looked up in steps (see RankIndex.addInSteps()). `bodyTerms`,
   * when given, are terms(bodyOf(doc)), which a caller may fold in pieces beforehand: for a long body they
   * are most of the work.
   */
  async put(doc: FindDoc, bodyTerms: readonly string[] | undefined, due: () => boolean, between: () => Promise<void>): Promise<void> {
    const entry = entryOf(doc);
    await this.rank.addInSteps(entry.key, fieldsOf(doc, bodyTerms), entry, due, between);
    this.entries.set(entry.key, entry);
  }

  remove(key: string): void {
    if (!this.entries.delete(key)) return;
    this.rank.remove(key);
  }

  /** The serialized index's size in bytes (what persisting it would take), for the benchmark. */
  serializedBytes(): number {
    return this.rank.serializedBytes();
  }

  /** The documents matching `query` (see Found). */
  find(query: FindQuery): Found {
    const prepared = this.rank.prepare(query.terms.map(rankTerm));
    const hits: RankedHit[] = [];
    const filtered = hasFilters(query);
    for (const { value: entry, score } of this.rank.search(prepared)) {
      if (filtered && !matchesFilters(entry, query)) continue;
      hits.push({ entry, score: Math.round(score * 1000) / 1000 });
    }
    return { hits, groups: (hit) => this.rank.matchedGroups(hit.entry.key, prepared) };
  }
}

function entryOf(doc: FindDoc): FindEntry {
  return { key: docKey(doc.kind, doc.id), kind: doc.kind, id: doc.id, title: doc.title, project: doc.project, modified: doc.modified, type: doc.type };
}

/** A document's terms by field, in rankIndex.ts's order: title, name, description, project, body. */
function fieldsOf(doc: FindDoc, bodyTerms: readonly string[] | undefined): (readonly string[])[] {
  return [terms(doc.title), terms(doc.name), terms(doc.description), terms(doc.project ?? ''), bodyTerms ?? terms(bodyOf(doc))];
}

/** Best first: the higher score, then the newer, then by key. */
export function compareHits(a: RankedHit, b: RankedHit): number {
  return b.score - a.score || compareDesc(a.entry.modified, b.entry.modified) || (a.entry.key < b.entry.key ? -1 : 1);
}

/**
 * The first `count` of `hits` in compareHits() order: a page of results needs its own few in order, not
 * the thousands a common word matches.
 */
export function best(hits: readonly RankedHit[], count: number): RankedHit[] {
  if (count * 8 >= hits.length) return [...hits].sort(compareHits).slice(0, count);
  const kept: RankedHit[] = [];
  for (const hit of hits) {
    if (kept.length === count && compareHits(hit, kept[count - 1]!) >= 0) continue;
    // Binary insertion into the kept ones (in order).
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareHits(kept[mid]!, hit) <= 0) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, hit);
    if (kept.length > count) kept.pop();
  }
  return kept;
}

function compareDesc(a: string, b: string): number {
  return a === b ? 0 : a < b ? 1 : -1;
}

/** Whether a word of this length may match with one typo. */
function typoTolerant(t: FindTerm): boolean {
  return !t.exact && [...t.term].length >= 5;
}

function rankTerm(t: FindTerm): RankTerm {
  return { term: t.term, prefix: t.prefix, typos: typoTolerant(t) };
}

function matchesFilters(entry: FindEntry, query: FindQuery): boolean {
  const f = query.filters;
  if (f.kinds.length > 0 && !f.kinds.includes(entry.kind)) return false;
  if (f.types.length > 0 && (entry.kind !== 'memory' || entry.type === null || !f.types.includes(entry.type))) return false;
  if (f.projects.length > 0 && (entry.project === null || !f.projects.includes(foldCase(entry.project)))) return false;
  const day = entry.modified.slice(0, 10);
  if (f.after !== null && day < f.after) return false;
  if (f.before !== null && day >= f.before) return false;
  return true;
}

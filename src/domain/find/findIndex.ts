// The ranked index over plans, memory entries and sessions: MiniSearch (BM25+) over five fields with
// boosts, the documents' listing facts kept beside it for filters, tie-breaks and results. It holds terms
// only: texts stay on disk (plans, memory files) or in the session facts, and are read again for the
// few results a page shows.
import MiniSearch, { type Query } from 'minisearch';
import { foldCase } from '../fold.js';
import type { FindKind, FindQuery, FindTerm } from './query.js';
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
  /** The folded terms of the document that matched (with typos and prefixes resolved). */
  matched: string[];
}

/** Title and name above description above body (and project). */
const BOOST = { title: 4, name: 3, description: 2, project: 1.5, body: 1 } as const;
const FIELDS = Object.keys(BOOST);
/** How much of a long body is indexed: a plan or memory file past this is found by its first part. */
export const BODY_CHARS = 256 * 1024;
/** A swapped-letters match counts as much as a fuzzy one (MiniSearch's default fuzzy weight). */
const TYPO_WEIGHT = 0.45;

export function docKey(kind: FindKind, id: string): string {
  return `${kind}:${id}`;
}

export class FindIndex {
  private readonly search = new MiniSearch<FindDoc & { key: string }>({
    idField: 'key',
    fields: FIELDS,
    storeFields: [],
    tokenize: terms,
    processTerm: (term) => term,
    searchOptions: { tokenize: (text) => [text], processTerm: (term) => term },
  });
  private readonly entries = new Map<string, FindEntry>();

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

  /** Adds or replaces a document. */
  put(doc: FindDoc): void {
    const key = docKey(doc.kind, doc.id);
    const body = doc.body.length > BODY_CHARS ? doc.body.slice(0, BODY_CHARS) : doc.body;
    if (this.entries.has(key)) this.search.discard(key);
    this.search.add({ ...doc, body, project: doc.project ?? '', key });
    this.entries.set(key, { key, kind: doc.kind, id: doc.id, title: doc.title, project: doc.project, modified: doc.modified, type: doc.type });
  }

  remove(key: string): void {
    if (!this.entries.delete(key)) return;
    this.search.discard(key);
  }

  /** The serialized index's size in bytes (what persisting it would take), for the benchmark. */
  serializedBytes(): number {
    return Buffer.byteLength(JSON.stringify(this.search));
  }

  /** Every document that matches all terms and the filters, best first; newer first among equal scores. */
  find(query: FindQuery): RankedHit[] {
    const accept = (key: string): boolean => {
      const entry = this.entries.get(key);
      return entry !== undefined && matchesFilters(entry, query);
    };
    const raw = query.terms.length === 0
      ? this.search.search(MiniSearch.wildcard, { filter: (r) => accept(r.id as string) })
      : this.search.search({ combineWith: 'AND', queries: query.terms.map(termQuery) }, { boost: BOOST, filter: (r) => accept(r.id as string) });
    const hits: RankedHit[] = [];
    for (const result of raw) {
      const entry = this.entries.get(result.id as string);
      if (entry === undefined) continue;
      hits.push({ entry, score: Math.round(result.score * 1000) / 1000, matched: result.terms });
    }
    return hits.sort((a, b) => b.score - a.score || compareDesc(a.entry.modified, b.entry.modified) || (a.entry.key < b.entry.key ? -1 : 1));
  }
}

function compareDesc(a: string, b: string): number {
  return a === b ? 0 : a < b ? 1 : -1;
}

function termQuery(t: FindTerm): Query {
  const typos = !t.exact && [...t.term].length >= 5;
  const own: Query = { queries: [t.term], prefix: t.prefix, fuzzy: typos ? 1 : false };
  if (!typos) return own;
  // MiniSearch counts edit distance as Levenshtein, where two swapped letters are two edits; they are one
  // typo here (as Meilisearch and Typesense count), so the swapped spellings are searched too.
  const swaps = swapped(t.term);
  if (swaps.length === 0) return own;
  const boost = Object.fromEntries(Object.entries(BOOST).map(([field, b]) => [field, b * TYPO_WEIGHT]));
  return { combineWith: 'OR', queries: [own, { queries: swaps, prefix: t.prefix, fuzzy: false, boost }] };
}

function swapped(term: string): string[] {
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

// The ranked index over plans, memory entries and sessions: MiniSearch (BM25+) over five fields with
// boosts, the documents' listing facts kept beside it for filters, tie-breaks and results. It holds terms
// only: texts stay on disk (plans, memory files) or in the session facts, and are read again for the
// few results a page shows.
import MiniSearch, { type Query } from 'minisearch';
import { foldCase } from '../fold.js';
import { hasFilters, type FindKind, type FindQuery, type FindTerm } from './query.js';
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

/** What is indexed of a document's body: its first BODY_CHARS characters. */
export function bodyOf(doc: FindDoc): string {
  return doc.body.length > BODY_CHARS ? doc.body.slice(0, BODY_CHARS) : doc.body;
}

export function docKey(kind: FindKind, id: string): string {
  return `${kind}:${id}`;
}

export class FindIndex {
  private readonly search = new MiniSearch<FindDoc & { key: string }>({
    idField: 'key',
    fields: FIELDS,
    storeFields: [],
    // The body arrives as its terms (put() folds it, or its caller did, a piece at a time).
    tokenize: (text, field) => (field === 'body' ? text.split(' ').filter((t) => t !== '') : terms(text)),
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

  /**
   * Adds or replaces a document. `bodyTerms`, when given, are terms(bodyOf(doc)), which a caller may fold
   * in pieces beforehand: for a long body they are most of the work.
   */
  put(doc: FindDoc, bodyTerms?: readonly string[]): void {
    const key = docKey(doc.kind, doc.id);
    const body = (bodyTerms ?? terms(bodyOf(doc))).join(' ');
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
    // Without filters every document passes (one unknown to `entries` is skipped below): no call per result.
    const filter = hasFilters(query) ? (r: { id: unknown }) => accept(r.id as string) : undefined;
    const raw = query.terms.length === 0
      ? this.search.search(MiniSearch.wildcard, { filter })
      : this.search.search({ combineWith: 'AND', queries: query.terms.map(termQuery) }, { boost: BOOST, filter });
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

/** Whether a word of this length may match with one typo. */
function typoTolerant(t: FindTerm): boolean {
  return !t.exact && [...t.term].length >= 5;
}

function termQuery(t: FindTerm): Query {
  const typos = typoTolerant(t);
  const own: Query = { queries: [t.term], prefix: t.prefix, fuzzy: typos ? 1 : false };
  if (!typos) return own;
  // MiniSearch counts edit distance as Levenshtein, where two swapped letters are two edits; they are one
  // typo here (as Meilisearch and Typesense count), so the swapped spellings are searched too.
  const swaps = swapped(t.term);
  if (swaps.length === 0) return own;
  const boost = Object.fromEntries(Object.entries(BOOST).map(([field, b]) => [field, b * TYPO_WEIGHT]));
  return { combineWith: 'OR', queries: [own, { queries: swaps, prefix: t.prefix, fuzzy: false, boost }] };
}

/**
 * A hit's matched terms grouped by the query word each matches (as termQuery() matches: the word itself, a
 * longer word when it is a prefix, one typo): snippets rank lines by how many query words they hold. A term
 * matches every word it can; one that matches none (never, if the rules agree) joins the first group.
 */
export function matchedGroups(matched: readonly string[], queryTerms: readonly FindTerm[]): string[][] {
  const groups: string[][] = queryTerms.map(() => []);
  if (groups.length === 0) return [];
  for (const term of matched) {
    let placed = false;
    for (const [i, t] of queryTerms.entries()) {
      if (!matchesTerm(t, term)) continue;
      groups[i]!.push(term);
      placed = true;
    }
    if (!placed) groups[0]!.push(term);
  }
  return groups;
}

function matchesTerm(t: FindTerm, term: string): boolean {
  if (term === t.term || (t.prefix && term.startsWith(t.term))) return true;
  if (!typoTolerant(t)) return false;
  if (withinOneEdit(t.term, term)) return true;
  return swapped(t.term).some((s) => term === s || (t.prefix && term.startsWith(s)));
}

/** Levenshtein distance at most 1 (by code point, as MiniSearch counts). */
function withinOneEdit(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const rest = (from: string[], at: number, to: string[], at2: number): boolean => from.slice(at).join('') === to.slice(at2).join('');
  if (x.length === y.length) return rest(x, i + 1, y, i + 1);
  return x.length > y.length ? rest(x, i + 1, y, i) : rest(x, i, y, i + 1);
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

// The find query language: words (the last one also matches as a prefix while it is being typed), "quoted
// phrases", and filters: project:NAME, type:user|feedback|project|reference (memory entries of that type),
// in:plans|memory|sessions, after:YYYY-MM-DD (modified on or after that day, UTC), before:YYYY-MM-DD
// (modified before that day). A filter's value may be quoted (project:"my app"). Words and phrases must all
// match; filters of one kind are alternatives (in:plans in:memory), of different kinds all apply.
import { foldCase } from '../fold.js';
import { terms } from './terms.js';

export type FindKind = 'plan' | 'memory' | 'session';

export interface FindTerm {
  term: string;
  /** The last word of a query that does not end in a space: it may be the start of a longer word. */
  prefix: boolean;
  /** A word of a quoted phrase: matched as written (folded), never as a typo. */
  exact: boolean;
}

export interface FindFilters {
  /** Folded project names; empty: any project. */
  projects: string[];
  /** Memory types; non-empty means memory entries only. */
  types: string[];
  /** Kinds to search; empty: all. */
  kinds: FindKind[];
  /** `YYYY-MM-DD`: modified on or after this day. */
  after: string | null;
  /** `YYYY-MM-DD`: modified before this day. */
  before: string | null;
}

export interface FindQuery {
  terms: FindTerm[];
  /** Each phrase's folded terms, in order; they are also among `terms`. */
  phrases: string[][];
  filters: FindFilters;
}

/** Whether the query narrows by anything but its words (a query of filters alone lists what they keep). */
export function hasFilters(query: FindQuery): boolean {
  const f = query.filters;
  return f.kinds.length + f.types.length + f.projects.length > 0 || f.after !== null || f.before !== null;
}

/**
 * Marks a FindQueryError across bundles: the HTTP server and the MCP server are bundled apart from the
 * domain, each with its own copy of this class, so `instanceof` cannot tell one; the registry's symbol is
 * the same everywhere.
 */
const QUERY_ERROR = Symbol.for('plan-memory-viewer/find-query-error');

/** A query that cannot mean anything (an unknown in: or type:, a malformed date): the caller says why. */
export class FindQueryError extends Error {
  readonly [QUERY_ERROR] = true;
}

/** Whether `error` is a FindQueryError, whichever bundle's class made it. */
export function isFindQueryError(error: unknown): error is FindQueryError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[QUERY_ERROR] === true;
}

const KINDS = new Map<string, FindKind>([['plans', 'plan'], ['plan', 'plan'], ['memory', 'memory'], ['sessions', 'session'], ['session', 'session']]);
const TYPES = new Set(['user', 'feedback', 'project', 'reference']);
const FILTER = /^(project|type|in|after|before):/i;

/** One piece of the query: a word group, a phrase, or a filter with its value. */
interface Piece {
  kind: 'words' | 'phrase' | 'filter';
  text: string;
  key?: string;
}

function pieces(q: string): Piece[] {
  const out: Piece[] = [];
  let i = 0;
  while (i < q.length) {
    if (/\s/.test(q[i]!)) {
      i++;
      continue;
    }
    const filter = FILTER.exec(q.slice(i));
    if (filter !== null) {
      i += filter[0].length;
      const value = readValue(q, i);
      out.push({ kind: 'filter', key: filter[1]!.toLowerCase(), text: value.text });
      i = value.end;
      continue;
    }
    if (q[i] === '"') {
      const close = q.indexOf('"', i + 1);
      const end = close === -1 ? q.length : close;
      out.push({ kind: 'phrase', text: q.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    let end = i;
    while (end < q.length && !/\s/.test(q[end]!) && q[end] !== '"') end++;
    out.push({ kind: 'words', text: q.slice(i, end) });
    i = end;
  }
  return out;
}

function readValue(q: string, at: number): { text: string; end: number } {
  if (q[at] === '"') {
    const close = q.indexOf('"', at + 1);
    const end = close === -1 ? q.length : close;
    return { text: q.slice(at + 1, end), end: end + 1 };
  }
  let end = at;
  while (end < q.length && !/\s/.test(q[end]!)) end++;
  return { text: q.slice(at, end), end };
}

function day(value: string, key: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match === null ? null : new Date(`${value}T00:00:00Z`);
  if (date === null || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new FindQueryError(`${key}: needs a date as YYYY-MM-DD, not "${value}"`);
  }
  return value;
}

export function parseFindQuery(q: string): FindQuery {
  const filters: FindFilters = { projects: [], types: [], kinds: [], after: null, before: null };
  const found: FindTerm[] = [];
  const phrases: string[][] = [];
  const list = pieces(q);
  for (const piece of list) {
    if (piece.kind === 'filter') {
      const value = piece.text;
      if (piece.key === 'project') {
        if (value !== '') filters.projects.push(foldCase(value));
      } else if (piece.key === 'type') {
        const type = value.toLowerCase();
        if (!TYPES.has(type)) throw new FindQueryError(`type: is one of user, feedback, project, reference, not "${value}"`);
        filters.types.push(type);
      } else if (piece.key === 'in') {
        const kind = KINDS.get(value.toLowerCase());
        if (kind === undefined) throw new FindQueryError(`in: is one of plans, memory, sessions, not "${value}"`);
        if (!filters.kinds.includes(kind)) filters.kinds.push(kind);
      } else if (piece.key === 'after') filters.after = day(value, 'after');
      else filters.before = day(value, 'before');
      continue;
    }
    const pieceTerms = terms(piece.text);
    if (piece.kind === 'phrase' && pieceTerms.length > 1) phrases.push(pieceTerms);
    for (const term of pieceTerms) found.push({ term, prefix: false, exact: piece.kind === 'phrase' });
  }
  // Prefix on the last word only while it is being typed: not after a space, a phrase or a filter.
  const last = list.at(-1);
  if (last?.kind === 'words' && !/\s$/.test(q) && found.length > 0) found[found.length - 1]!.prefix = true;
  return { terms: found, phrases, filters };
}

// The plans and memory search boxes ask GET /api/find too, for snippets under their rows and for the
// "Best match" order. The rows themselves still come from the spec's literal searches: find only ranks
// and annotates them. Pure: the query sent, and the order that results in.
import { words } from '../../../src/domain/find/terms';
import type { FindSnippetView } from './found';

export type BoxScope = 'plans' | 'memory';

/** One result of find for a row: its place in find's order (0: the best) and its snippets. */
export interface Found {
  rank: number;
  snippets: FindSnippetView[];
}

/**
 * The find query for a search box's text: `in:plans` or `in:memory`, then the text's words, and nothing
 * else. Only words (letters, digits, underscores, as find splits them) pass: `project:x` typed in the box is
 * searched literally by the list, so here it is the words `project` and `x`, never a filter, and a quote
 * cannot open a phrase. The last word stays open as a prefix (the query ends in it), like the literal
 * search, which matches it inside longer words too. Null when the text has no word: nothing to ask.
 */
export function boxFindQuery(text: string, scope: BoxScope): string | null {
  // An empty box (the first screen's) asks nothing, without compiling words()'s Unicode pattern.
  if (text.trim() === '') return null;
  const list = [...words(text)].map((w) => w.word);
  if (list.length === 0) return null;
  return `in:${scope} ${list.join(' ')}`;
}

/**
 * `items` in find's order: the ones find ranked first, best first; after them the ones it did not rank,
 * in the order they came in. The list's rows are never added or dropped here, only reordered.
 */
export function orderByRank<T>(items: readonly T[], idOf: (item: T) => string, found: ReadonlyMap<string, Found> | null): T[] {
  if (found === null || found.size === 0) return [...items];
  const ranked: { item: T; rank: number }[] = [];
  const rest: T[] = [];
  for (const item of items) {
    const hit = found.get(idOf(item));
    if (hit === undefined) rest.push(item);
    else ranked.push({ item, rank: hit.rank });
  }
  ranked.sort((a, b) => a.rank - b.rank);
  return [...ranked.map((r) => r.item), ...rest];
}

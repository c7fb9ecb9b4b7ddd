// Where a query (or its words) occurs in a text, case-insensitively, as [start, end) ranges of the original text.
import { foldCase, foldWithMap } from './fold';

export type Range = [start: number, end: number];

export const MAX_MATCHES = 5000;

/**
 * What a reader marks for `query` in a document: the query as typed when the document holds it so, or when
 * it is one word; else each of its words when the document holds every one (a document the search boxes
 * found by words apart, in any order); else the query as typed, which marks nothing.
 */
export function needlesFor(documentText: string, query: string): string[] {
  const phrase = foldCase(query.trim());
  const words = [...new Set(phrase.split(/\s+/).filter((w) => w !== ''))];
  if (words.length <= 1) return words;
  const folded = foldCase(documentText);
  if (folded.includes(phrase)) return [phrase];
  return words.every((w) => folded.includes(w)) ? words : [phrase];
}

/**
 * Every occurrence of the query (as typed), or of each of the given needles (needlesFor()), case-insensitively.
 * Overlapping needles keep the earlier, then the longer, match.
 */
export function findMatches(text: string, query: string | readonly string[], limit = MAX_MATCHES): Range[] {
  const needles = typeof query === 'string' ? [foldCase(query.trim())].filter((q) => q !== '') : query.map((q) => foldCase(q)).filter((q) => q !== '');
  if (needles.length === 0 || !text) return [];
  const { folded, map } = foldWithMap(text);
  const found: Range[] = [];
  for (const q of needles) {
    for (let from = 0, n = 0; n < limit; n++) {
      const at = folded.indexOf(q, from);
      if (at < 0) break;
      found.push([at, at + q.length]);
      from = at + q.length;
    }
  }
  if (needles.length > 1) found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const ranges: Range[] = [];
  let end = 0;
  for (const [at, to] of found) {
    if (ranges.length >= limit) break;
    if (at < end) continue;
    ranges.push(map ? [map[at] ?? at, map[to] ?? text.length] : [at, to]);
    end = to;
  }
  return ranges;
}

/** Splits text into alternating plain/hit segments for rendering as text nodes and <mark>. */
export function splitByMatches(text: string, query: string): { text: string; hit: boolean }[] {
  const ranges = findMatches(text, needlesFor(text, query), 200);
  if (ranges.length === 0) return [{ text, hit: false }];
  const parts: { text: string; hit: boolean }[] = [];
  let pos = 0;
  for (const [start, end] of ranges) {
    if (start > pos) parts.push({ text: text.slice(pos, start), hit: false });
    parts.push({ text: text.slice(start, end), hit: true });
    pos = end;
  }
  if (pos < text.length) parts.push({ text: text.slice(pos), hit: false });
  return parts;
}

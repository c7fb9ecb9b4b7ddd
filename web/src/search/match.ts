// Where a query occurs in a text, case-insensitively, as [start, end) ranges of the original text.
import { foldCase, foldWithMap } from './fold';

export type Range = [start: number, end: number];

export const MAX_MATCHES = 5000;

export function findMatches(text: string, query: string, limit = MAX_MATCHES): Range[] {
  const q = foldCase(query.trim());
  if (!q || !text) return [];
  const { folded, map } = foldWithMap(text);
  const ranges: Range[] = [];
  let from = 0;
  while (ranges.length < limit) {
    const at = folded.indexOf(q, from);
    if (at < 0) break;
    const end = at + q.length;
    ranges.push(map ? [map[at] ?? at, map[end] ?? text.length] : [at, end]);
    from = end;
  }
  return ranges;
}

/** Splits text into alternating plain/hit segments for rendering as text nodes and <mark>. */
export function splitByMatches(text: string, query: string): { text: string; hit: boolean }[] {
  const ranges = findMatches(text, query, 200);
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

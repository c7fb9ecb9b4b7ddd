// Snippets: the lines of a raw file where the matched terms are, each cut to a short window with the
// offsets of those terms in it. `text` is always a piece of the raw line, unchanged, so a client can find it
// again in the file (and mark it) by line number alone.
import { foldTerm, words } from './terms.js';

export interface Snippet {
  /** 1-based line in the raw file. */
  line: number;
  /** A window of that line (the whole line when short). */
  text: string;
  /** [start, end) offsets in `text` of the matched words, in order. */
  ranges: [number, number][];
}

export const MAX_SNIPPETS = 3;
/** Characters of a long line shown around its first match. */
const WINDOW = 160;
const BEFORE = 50;
/** Only this much of a very large file is looked at for snippets (as much as the index holds of it). */
const SCAN_CHARS = 256 * 1024;

/**
 * Up to MAX_SNIPPETS lines of `text` holding words in `matched` (folded terms): the lines with the most
 * different matched words first, earlier first among equals; returned in line order.
 */
export function cutSnippets(text: string, matched: ReadonlySet<string>, firstLine = 1): Snippet[] {
  if (matched.size === 0) return [];
  const candidates: { line: number; raw: string; ranges: [number, number][]; distinct: number }[] = [];
  const scanned = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  let lineNo = firstLine - 1;
  const needles = [...matched];
  for (const raw of scanned.split('\n')) {
    lineNo++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // Most lines hold no match: an ASCII line (nothing to fold but case) is ruled out by a substring test.
    // eslint-disable-next-line no-control-regex
    if (/^[\x00-\x7f]*$/.test(line)) {
      const lower = line.toLowerCase();
      if (!needles.some((term) => lower.includes(term))) continue;
    }
    const ranges: [number, number][] = [];
    const seen = new Set<string>();
    for (const word of words(line)) {
      const term = foldTerm(word.word);
      if (!matched.has(term)) continue;
      ranges.push([word.start, word.end]);
      seen.add(term);
    }
    if (ranges.length > 0) candidates.push({ line: lineNo, raw: line, ranges, distinct: seen.size });
  }
  candidates.sort((a, b) => b.distinct - a.distinct || a.line - b.line);
  return candidates.slice(0, MAX_SNIPPETS).sort((a, b) => a.line - b.line).map((c) => window(c.line, c.raw, c.ranges));
}

function window(line: number, raw: string, ranges: [number, number][]): Snippet {
  if (raw.length <= WINDOW) return { line, text: raw, ranges };
  let start = Math.max(0, ranges[0]![0] - BEFORE);
  let end = Math.min(raw.length, start + WINDOW);
  start = Math.max(0, end - WINDOW);
  // Never split a surrogate pair at either edge.
  if (start > 0 && isLowSurrogate(raw.charCodeAt(start))) start++;
  if (end < raw.length && isLowSurrogate(raw.charCodeAt(end))) end--;
  const inside = ranges.filter(([s, e]) => s >= start && e <= end).map(([s, e]): [number, number] => [s - start, e - start]);
  return { line, text: raw.slice(start, end), ranges: inside };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Whether the folded words of `text` hold `phrase` (folded terms) consecutively. */
export function containsPhrase(text: string, phrase: readonly string[]): boolean {
  const last: string[] = [];
  for (const word of words(text)) {
    last.push(foldTerm(word.word));
    if (last.length > phrase.length) last.shift();
    if (last.length === phrase.length && last.every((term, i) => term === phrase[i])) return true;
  }
  return false;
}

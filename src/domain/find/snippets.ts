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
export const SCAN_CHARS = 256 * 1024;

/**
 * Up to MAX_SNIPPETS lines of `text` holding words in `matched` (folded terms): the lines with the most
 * different matched words first, earlier first among equals; returned in line order.
 *
 * Cutting a line into words is what costs, so it is done for few lines: each line's folded text gives an
 * upper bound of its count (a matched term is always a substring of it), and lines are then counted
 * exactly in the order of that bound, until no line left can enter the best ones. The definition this
 * must agree with, word by word on every line, is pinned by test/find/snippets.property.test.ts.
 */
export function cutSnippets(text: string, matched: ReadonlySet<string>, firstLine = 1): Snippet[] {
  if (matched.size === 0) return [];
  const scanned = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  const needles = [...matched];
  const lines = scanned.split('\n');
  const candidates: { index: number; bound: number }[] = [];
  const counted = new Map<number, Counted | null>();
  let complete = 0;
  for (let i = 0; i < lines.length && complete < MAX_SNIPPETS; i++) {
    const bound = countIncluded(foldLine(lines[i]!), needles);
    if (bound === 0) continue;
    candidates.push({ index: i, bound });
    // A line that may hold every matched term is counted now: once the first few do, no later line can
    // beat them, and the rest of the text is not looked at.
    if (bound === matched.size) {
      const c = count(lines[i]!, i + firstLine, matched);
      counted.set(i, c);
      if (c?.distinct === matched.size) complete++;
    }
  }
  candidates.sort((a, b) => b.bound - a.bound || a.index - b.index);
  const best: Counted[] = [];
  for (const candidate of candidates) {
    if (best.length === MAX_SNIPPETS) {
      const last = best[MAX_SNIPPETS - 1]!;
      // Every line after this one counts at most `bound`, and comes later among equals: none can enter.
      if (candidate.bound < last.distinct || (candidate.bound === last.distinct && candidate.index + firstLine > last.line)) break;
    }
    const c = counted.has(candidate.index) ? counted.get(candidate.index)! : count(lines[candidate.index]!, candidate.index + firstLine, matched);
    if (c === null) continue;
    best.push(c);
    best.sort((a, b) => b.distinct - a.distinct || a.line - b.line);
    if (best.length > MAX_SNIPPETS) best.pop();
  }
  return best.sort((a, b) => a.line - b.line).map((c) => window(c.line, c.raw, c.ranges));
}

interface Counted {
  line: number;
  raw: string;
  ranges: [number, number][];
  distinct: number;
}

/** The matched words of one line, word by word (null: none). */
function count(raw: string, lineNo: number, matched: ReadonlySet<string>): Counted | null {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const ranges: [number, number][] = [];
  const seen = new Set<string>();
  for (const word of words(line)) {
    const term = foldTerm(word.word);
    if (!matched.has(term)) continue;
    ranges.push([word.start, word.end]);
    seen.add(term);
  }
  return ranges.length === 0 ? null : { line: lineNo, raw: line, ranges, distinct: seen.size };
}

/** A line folded as its words are (foldTerm), so each of its terms is a substring of the result. */
function foldLine(line: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(line) ? line.toLowerCase() : foldTerm(line);
}

function countIncluded(haystack: string, needles: readonly string[]): number {
  let n = 0;
  for (const needle of needles) if (haystack.includes(needle)) n++;
  return n;
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

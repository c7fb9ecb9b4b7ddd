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

/** A hit's matched terms (folded), one group per query word: what each word matched in the document. */
export type MatchedGroups = readonly (readonly string[])[];

/**
 * Up to MAX_SNIPPETS lines of `text` holding matched words: the lines that hold the most query words (a
 * word counts when one of its group's terms is there) first, earlier first among equals; returned in line
 * order. The definition this must agree with, word by word on every line, is pinned by
 * test/find/snippets.property.test.ts.
 */
export function cutSnippets(text: string | Pieces, groups: MatchedGroups, firstLine = 1): Snippet[] {
  return scan(asPieces(text), groups, firstLine, true) ?? [];
}

/**
 * The snippets of a text whose start is `head` when that start settles them (MAX_SNIPPETS lines holding
 * every query word: nothing after them can enter, since earlier lines win among equals), else null. Only
 * the lines `head` ends (up to its last newline) are looked at.
 */
export function settledSnippets(head: string | Pieces, groups: MatchedGroups, firstLine = 1): Snippet[] | null {
  return scan(asPieces(head), groups, firstLine, false);
}

/**
 * A text in consecutive pieces, each but the last ending with a newline (files.ts reads heads so: a large
 * string costs more to allocate than to decode). Snippets of the pieces are the joined text's.
 */
export type Pieces = readonly string[];

/** `text` as pieces that keep that rule (a piece that breaks it is joined to the next). */
function asPieces(text: string | Pieces): Pieces {
  if (typeof text === 'string') return [text];
  const broken = text.findIndex((piece, i) => i < text.length - 1 && !piece.endsWith('\n'));
  return broken === -1 ? text : [...text.slice(0, broken), text.slice(broken).join('')];
}

/**
 * Cutting a line into words is what costs, so it is done for few lines. A line's folded text gives an
 * upper bound of its count (a matched term is always a substring of its line's folded text); lines that
 * may hold every query word are counted at once, and once MAX_SNIPPETS of them do, the rest of the text is
 * not looked at. Otherwise the other lines are counted in the order of their bound, until no line left can
 * enter the best ones.
 */
function scan(pieces: Pieces, groups: MatchedGroups, firstLine: number, whole: boolean): Snippet[] | null {
  const queryWords = groups.filter((g) => g.length > 0);
  if (queryWords.length === 0) return [];
  const candidates: { index: number; bound: number; raw: string }[] = [];
  const counted = new Map<number, Counted | null>();
  let complete = 0;
  let index = 0;
  let budget = SCAN_CHARS;
  for (let p = 0; p < pieces.length && complete < MAX_SNIPPETS; p++) {
    const piece = pieces[p]!;
    // The scanned text (its first SCAN_CHARS) ends in this piece: its last line follows `whole`. An earlier
    // piece ends with a newline, and its lines are all the lines it ends.
    const final = p === pieces.length - 1 || piece.length >= budget;
    const scanned = piece.length > budget ? piece.slice(0, budget) : piece;
    budget -= scanned.length;
    const ends = !final ? scanned.length - 1 : whole ? scanned.length : scanned.lastIndexOf('\n');
    // Folding never adds, drops or moves a newline, so the folded piece's lines are its lines folded: one
    // fold per piece instead of one per line (docs/decisions.md, D52).
    const folded = foldTerm(scanned);
    let foldedStart = 0;
    for (let start = 0; start <= ends && complete < MAX_SNIPPETS; index++) {
      let end = scanned.indexOf('\n', start);
      if (end === -1 || end > ends) end = ends;
      const lineStart = start;
      start = end + 1;
      let foldedEnd = folded.indexOf('\n', foldedStart);
      if (foldedEnd === -1) foldedEnd = folded.length;
      const line = folded.slice(foldedStart, foldedEnd);
      foldedStart = foldedEnd + 1;
      let bound = 0;
      for (const group of queryWords) if (group.some((term) => line.includes(term))) bound++;
      if (bound === 0) continue;
      const raw = scanned.slice(lineStart, end);
      candidates.push({ index, bound, raw });
      if (bound === queryWords.length) {
        const c = count(raw, index + firstLine, queryWords);
        counted.set(index, c);
        if (c?.distinct === queryWords.length) complete++;
      }
    }
    if (final) break;
  }
  if (!whole && complete < MAX_SNIPPETS) return null;
  candidates.sort((a, b) => b.bound - a.bound || a.index - b.index);
  const best: Counted[] = [];
  for (const candidate of candidates) {
    if (best.length === MAX_SNIPPETS) {
      const last = best[MAX_SNIPPETS - 1]!;
      // Every line after this one counts at most `bound`, and comes later among equals: none can enter.
      if (candidate.bound < last.distinct || (candidate.bound === last.distinct && candidate.index + firstLine > last.line)) break;
    }
    const c = counted.has(candidate.index) ? counted.get(candidate.index)! : count(candidate.raw, candidate.index + firstLine, queryWords);
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
  /** How many query words the line holds. */
  distinct: number;
}

/** The matched words of one line, word by word (null: none). */
function count(raw: string, lineNo: number, groups: MatchedGroups): Counted | null {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const ranges: [number, number][] = [];
  const held = new Set<number>();
  for (const word of words(line)) {
    const term = foldTerm(word.word);
    let matched = false;
    for (const [i, group] of groups.entries()) {
      if (!group.includes(term)) continue;
      held.add(i);
      matched = true;
    }
    if (matched) ranges.push([word.start, word.end]);
  }
  return ranges.length === 0 ? null : { line: lineNo, raw: line, ranges, distinct: held.size };
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

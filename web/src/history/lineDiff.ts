// Two versions of a plan compared line by line, then word by word inside the lines that changed. Bounded
// so a megabyte plan cannot freeze the tab: the lines both versions share at the start and the end are
// skipped before any diffing; a long middle is cut at the lines each version holds once, in the same
// order (patience diff's anchors: edits spread over a long plan become many small diffs); each piece is
// diffed up to a number of edits, past which it is shown whole (removed, then added); and only short
// enough changed lines, up to a budget of characters in all, are compared word by word. Pure: no DOM.
import { diffArrays, diffWordsWithSpace } from 'diff';

export type Mark = 'same' | 'added' | 'removed';

export interface Segment {
  text: string;
  mark: Mark;
}

export interface DiffLine {
  kind: Mark;
  /** 1-based line numbers in the old and the new version (null on the side the line is not in). */
  oldNo: number | null;
  newNo: number | null;
  text: string;
  /**
   * A changed line compared word by word with its counterpart: its pieces, each 'same' or the line's
   * own kind. Null for unchanged lines and for changed lines shown whole (no counterpart, too different,
   * or past the bounds).
   */
  words: Segment[] | null;
}

export interface TextDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** The line diff gave up (more edits than the bound): the changed middle is shown removed, then added. */
  coarse: boolean;
  /** Changed lines left without word marks because of the bounds. */
  wordsSkipped: number;
}

export interface DiffLimits {
  /** Line edits the line diff explores before it gives up on aligning the changed middle. */
  maxLineEdits: number;
  /** Longest line (characters) compared word by word. */
  maxWordLine: number;
  /** Characters compared word by word in all, in one diff. */
  wordBudget: number;
  /** Word edits explored in one pair of lines. */
  maxWordEdits: number;
}

export const DIFF_LIMITS: DiffLimits = {
  maxLineEdits: 300,
  maxWordLine: 4000,
  wordBudget: 200_000,
  maxWordEdits: 300,
};

/**
 * Below this share of unchanged characters a pair of lines is not marked word by word: it is a different
 * line, and marks all over it would read worse than the two lines shown whole.
 */
const MIN_SHARED = 0.3;

/** The lines of a text; a final line break ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function diffTexts(oldText: string, newText: string, limits: DiffLimits = DIFF_LIMITS): TextDiff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }

  const out: DiffLine[] = [];
  const result: TextDiff = { lines: out, added: 0, removed: 0, coarse: false, wordsSkipped: 0 };
  const budget = { left: limits.wordBudget };
  let oldNo = 1;
  let newNo = 1;
  const same = (text: string) => out.push({ kind: 'same', oldNo: oldNo++, newNo: newNo++, text, words: null });

  for (let i = 0; i < start; i += 1) same(a[i]!);

  const aligned = alignLines(a.slice(start, endA), b.slice(start, endB), limits.maxLineEdits);
  result.coarse = aligned.coarse;
  const changes = aligned.changes;

  // Runs of removed and added lines between unchanged ones form one change: its removed lines, then its
  // added ones, the n-th removed paired with the n-th added for word marks.
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    if (removed.length === 0 && added.length === 0) return;
    const oldLines: DiffLine[] = removed.map((text) => ({ kind: 'removed', oldNo: oldNo++, newNo: null, text, words: null }));
    const newLines: DiffLine[] = added.map((text) => ({ kind: 'added', oldNo: null, newNo: newNo++, text, words: null }));
    for (let i = 0; i < Math.min(oldLines.length, newLines.length); i += 1) {
      const pair = wordMarks(oldLines[i]!.text, newLines[i]!.text, limits, budget);
      if (pair === 'skipped') result.wordsSkipped += 2;
      else if (pair !== null) {
        oldLines[i]!.words = pair.old;
        newLines[i]!.words = pair.new;
      }
    }
    out.push(...oldLines, ...newLines);
    result.removed += oldLines.length;
    result.added += newLines.length;
    removed = [];
    added = [];
  };
  for (const change of changes) {
    if (change.removed) removed.push(...change.value);
    else if (change.added) added.push(...change.value);
    else {
      flush();
      for (const text of change.value) same(text);
    }
  }
  flush();

  for (let i = endA; i < a.length; i += 1) same(a[i]!);
  return result;
}

interface LineChange {
  value: string[];
  added: boolean;
  removed: boolean;
}

/** The changes that turn `a` into `b`; coarse when some piece had more edits than the bound. */
export function alignLines(a: string[], b: string[], maxEdits: number): { changes: LineChange[]; coarse: boolean } {
  const out: { changes: LineChange[]; coarse: boolean } = { changes: [], coarse: false };
  let ai = 0;
  let bi = 0;
  for (const [i, j] of anchors(a, b)) {
    diffPiece(a.slice(ai, i), b.slice(bi, j), maxEdits, out);
    const last = out.changes.at(-1);
    if (last !== undefined && !last.added && !last.removed) last.value.push(a[i]!);
    else out.changes.push({ value: [a[i]!], added: false, removed: false });
    ai = i + 1;
    bi = j + 1;
  }
  diffPiece(a.slice(ai), b.slice(bi), maxEdits, out);
  return out;
}

function diffPiece(a: string[], b: string[], maxEdits: number, out: { changes: LineChange[]; coarse: boolean }): void {
  if (a.length === 0 && b.length === 0) return;
  const changes = a.length === 0 || b.length === 0 ? undefined : diffArrays(a, b, { maxEditLength: maxEdits });
  if (changes !== undefined) {
    for (const change of changes) out.changes.push(change);
    return;
  }
  if (a.length > 0 && b.length > 0) out.coarse = true;
  if (a.length > 0) out.changes.push({ value: a, added: false, removed: true });
  if (b.length > 0) out.changes.push({ value: b, added: true, removed: false });
}

/**
 * Pairs [i, j] of lines found exactly once in `a` and once in `b`, a[i] === b[j], the longest chain of
 * them in the same order in both (a longest increasing subsequence of j, O(n log n)).
 */
function anchors(a: string[], b: string[]): [number, number][] {
  const counts = new Map<string, { a: number; b: number; j: number }>();
  for (const line of a) {
    const c = counts.get(line);
    if (c) c.a += 1;
    else counts.set(line, { a: 1, b: 0, j: -1 });
  }
  for (let j = 0; j < b.length; j += 1) {
    const c = counts.get(b[j]!);
    if (c) {
      c.b += 1;
      c.j = j;
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0; i < a.length; i += 1) {
    const c = counts.get(a[i]!)!;
    if (c.a === 1 && c.b === 1) pairs.push([i, c.j]);
  }
  // tails[k]: index in pairs of the smallest j ending a chain of k + 1 pairs; prev: the chain's links.
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let p = 0; p < pairs.length; p += 1) {
    const j = pairs[p]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[p] = tails[lo - 1]!;
    tails[lo] = p;
  }
  const chain: [number, number][] = [];
  for (let p = tails.at(-1) ?? -1; p !== -1; p = prev[p]!) chain.push(pairs[p]!);
  return chain.reverse();
}

/**
 * The word-level pieces of a changed pair of lines; null when they share too little to be worth marking;
 * 'skipped' when the bounds kept them from being compared.
 */
export function wordMarks(
  oldLine: string,
  newLine: string,
  limits: DiffLimits = DIFF_LIMITS,
  budget: { left: number } = { left: limits.wordBudget },
): { old: Segment[]; new: Segment[] } | null | 'skipped' {
  const cost = oldLine.length + newLine.length;
  if (oldLine.length > limits.maxWordLine || newLine.length > limits.maxWordLine || cost > budget.left) return 'skipped';
  budget.left -= cost;
  const changes = diffWordsWithSpace(oldLine, newLine, { maxEditLength: limits.maxWordEdits });
  if (changes === undefined) return 'skipped';
  let shared = 0;
  for (const c of changes) if (!c.added && !c.removed) shared += c.value.trim().length;
  const longer = Math.max(oldLine.trim().length, newLine.trim().length);
  if (longer > 0 && shared / longer < MIN_SHARED) return null;
  const oldSegs: Segment[] = [];
  const newSegs: Segment[] = [];
  for (const c of changes) {
    if (c.removed) push(oldSegs, c.value, 'removed');
    else if (c.added) push(newSegs, c.value, 'added');
    else {
      push(oldSegs, c.value, 'same');
      push(newSegs, c.value, 'same');
    }
  }
  return { old: oldSegs, new: newSegs };
}

function push(segments: Segment[], text: string, mark: Mark): void {
  if (text === '') return;
  const last = segments.at(-1);
  if (last?.mark === mark) last.text += text;
  else segments.push({ text, mark });
}

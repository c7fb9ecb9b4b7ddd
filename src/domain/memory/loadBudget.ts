// What Claude Code loads of a MEMORY.md at session start, by its rule since 2.1.211
// (docs/claude-code-formats.md, "Load budget"): the frontmatter block and HTML comments are left out,
// what remains is trimmed, the first 200 lines are kept, and if that is still longer than 25,000
// characters it is cut at the last newline at or before character 25,000 (or at 25,000 when there is
// none). Characters are UTF-16 units, as JavaScript counts them: a multibyte file is measured in
// characters, never in bytes. Shared by the service (health findings, the overflow fix) and the UI
// (meters, verdict, the cut drawn in the document): keep it free of Node APIs.
//
// Offsets here are in the original content, so a cut found in the loaded text can be drawn, and
// lines moved, in the file as it is on disk.
import { frontmatterBlock } from '../markdown/frontmatter.js';

export const INDEX_LINE_LIMIT = 200;
export const INDEX_CHAR_LIMIT = 25_000;
/** Claude Code warns from 80% of either limit (160 lines, 20,000 characters). */
export const NEAR_RATIO = 0.8;

export type CutReason = 'none' | 'lines' | 'chars' | 'lines+chars';

/** A stretch of the content left out before counting. */
export interface SkippedRange {
  start: number;
  end: number;
  kind: 'frontmatter' | 'comment';
}

export interface LoadBudget {
  /** Offset (exclusive) where what Claude Code loads ends; content.length when nothing is cut. */
  keptEnd: number;
  /** Offset of the first character Claude Code loads (frontmatter, comments and leading blanks skipped). */
  keptStart: number;
  truncated: boolean;
  reason: CutReason;
  /** Lines and characters of what is counted (after leaving out and trimming), and of what is loaded. */
  totalLines: number;
  keptLines: number;
  totalChars: number;
  keptChars: number;
  /** 0-based line of the content where unloaded text begins (null when nothing is cut). */
  firstUnreadLine: number | null;
  /** The cut falls inside that line (a single line longer than the character limit). */
  midLine: boolean;
  /** What was left out before counting, in content order. */
  skipped: SkippedRange[];
}

const OPEN = '<!--';
const CLOSE = '-->';

/**
 * The frontmatter block and the HTML comments of `content`, in order. A comment runs from `<!--` to
 * the first `-->` after it; an unclosed `<!--` is text. Linear: one indexOf per boundary.
 */
export function skippedRanges(content: string): SkippedRange[] {
  const ranges: SkippedRange[] = [];
  const block = frontmatterBlock(content);
  let at = 0;
  if (block !== null) {
    ranges.push({ start: 0, end: block.bodyStart, kind: 'frontmatter' });
    at = block.bodyStart;
  }
  for (;;) {
    const open = content.indexOf(OPEN, at);
    if (open === -1) break;
    const close = content.indexOf(CLOSE, open + OPEN.length);
    if (close === -1) break;
    ranges.push({ start: open, end: close + CLOSE.length, kind: 'comment' });
    at = close + CLOSE.length;
  }
  return ranges;
}

/** Maps offsets of the loaded text (the content without the skipped ranges) back to the content. */
class LoadedText {
  readonly text: string;
  /** Per kept piece: where it starts in the loaded text and in the content. */
  private readonly loadedStarts: number[] = [];
  private readonly contentStarts: number[] = [];

  constructor(content: string, skipped: readonly SkippedRange[]) {
    const pieces: string[] = [];
    let loaded = 0;
    let from = 0;
    const keep = (end: number): void => {
      if (end <= from) return;
      this.loadedStarts.push(loaded);
      this.contentStarts.push(from);
      pieces.push(content.slice(from, end));
      loaded += end - from;
    };
    for (const range of skipped) {
      keep(range.start);
      from = range.end;
    }
    keep(content.length);
    this.text = pieces.join('');
  }

  /** The content offset of loaded offset `i` (for i = text.length: just past the last loaded character). */
  contentOffset(i: number, contentLength: number): number {
    if (this.loadedStarts.length === 0) return contentLength;
    let lo = 0;
    let hi = this.loadedStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.loadedStarts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return this.contentStarts[lo]! + (i - this.loadedStarts[lo]!);
  }
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

/** Lines of `text` as split('\n') counts them, without building the array. */
function lineCount(text: string): number {
  return text === '' ? 0 : countNewlines(text, text.length) + 1;
}

/** End (exclusive) of the first `n` lines of `text` as split('\n') gives them. */
function endOfLines(text: string, n: number): number {
  let at = -1;
  for (let k = 0; k < n; k++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) return text.length;
  }
  return at;
}

export function loadBudget(content: string, lineLimit = INDEX_LINE_LIMIT, charLimit = INDEX_CHAR_LIMIT): LoadBudget {
  const skipped = skippedRanges(content);
  const loaded = new LoadedText(content, skipped);
  const raw = loaded.text;
  const lead = raw.length - raw.trimStart().length;
  const trimmed = raw.trim();
  const totalLines = lineCount(trimmed);
  let keptLength = trimmed.length;
  let byLines = false;
  let byChars = false;
  if (totalLines > lineLimit) {
    keptLength = endOfLines(trimmed, lineLimit);
    byLines = true;
  }
  if (keptLength > charLimit) {
    const at = trimmed.lastIndexOf('\n', charLimit);
    keptLength = at > 0 ? at : charLimit;
    byChars = true;
  }
  const truncated = byLines || byChars;
  const keptStart = trimmed === '' ? content.length : loaded.contentOffset(lead, content.length);
  let keptEnd = content.length;
  let firstUnreadLine: number | null = null;
  let midLine = false;
  if (truncated) {
    keptEnd = keptLength === 0 ? keptStart : loaded.contentOffset(lead + keptLength - 1, content.length) + 1;
    const next = loaded.contentOffset(lead + keptLength, content.length);
    const line = countNewlines(content, next);
    midLine = content[next] !== '\n' && content[next] !== '\r';
    firstUnreadLine = midLine ? line : line + 1;
  }
  const kept = trimmed.slice(0, keptLength);
  return {
    keptEnd,
    keptStart,
    truncated,
    reason: byLines && byChars ? 'lines+chars' : byLines ? 'lines' : byChars ? 'chars' : 'none',
    totalLines,
    keptLines: lineCount(kept),
    totalChars: trimmed.length,
    keptChars: kept.length,
    firstUnreadLine,
    midLine,
    skipped,
  };
}

export type Level = 'ok' | 'near' | 'over';

/** ok below 80% of the limit, near from 80% up to the limit, over past it. */
export function levelOf(value: number, limit: number): Level {
  if (value > limit) return 'over';
  if (value >= limit * NEAR_RATIO) return 'near';
  return 'ok';
}

/**
 * The one verdict on an index: over when Claude Code cuts it (whatever a byte count says), else near
 * when what it counts reaches 80% of a limit, else ok. Never "over" while nothing is cut, and never
 * "ok" while something is.
 */
export function budgetLevel(budget: Pick<LoadBudget, 'truncated' | 'totalLines' | 'totalChars'>,
  lineLimit = INDEX_LINE_LIMIT, charLimit = INDEX_CHAR_LIMIT): Level {
  if (budget.truncated) return 'over';
  return levelOf(budget.totalLines, lineLimit) === 'ok' && levelOf(budget.totalChars, charLimit) === 'ok' ? 'ok' : 'near';
}

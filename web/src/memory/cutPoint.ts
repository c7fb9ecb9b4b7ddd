// Where Claude Code stops reading MEMORY.md, by its real rule (claude-code-formats.md): it trims the
// file, keeps the first 200 lines, then, if that is still longer than 25,000 characters, cuts at the
// last newline at or before character 25,000 (or at 25,000 when there is none). Everything after
// the cut is not in the model's context. Offsets here are in the original, untrimmed content.

export const LINE_LIMIT = 200;
export const CHAR_LIMIT = 25_000;
export const BYTE_LIMIT = 25_000;
export const NEAR_RATIO = 0.8;

export type CutReason = 'none' | 'lines' | 'chars' | 'lines+chars';

export interface CutPoint {
  /** Offset (exclusive) where what Claude Code reads ends; content.length when nothing is cut. */
  keptEnd: number;
  /** Offset of the first character Claude Code keeps (leading whitespace is trimmed away). */
  keptStart: number;
  truncated: boolean;
  reason: CutReason;
  /** Lines and characters of the trimmed file, and of the part Claude Code reads. */
  totalLines: number;
  keptLines: number;
  totalChars: number;
  keptChars: number;
  /** 0-based line of the original content where unread text begins (null when nothing is cut). */
  firstUnreadLine: number | null;
  /** The cut falls inside that line (a single line longer than the character limit). */
  midLine: boolean;
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

export function computeCut(content: string, lineLimit = LINE_LIMIT, charLimit = CHAR_LIMIT): CutPoint {
  const keptStart = content.length - content.trimStart().length;
  const trimmed = content.trim();
  const lines = trimmed === '' ? [] : trimmed.split('\n');
  let kept = trimmed;
  let byLines = false;
  let byChars = false;
  if (lines.length > lineLimit) {
    kept = lines.slice(0, lineLimit).join('\n');
    byLines = true;
  }
  if (kept.length > charLimit) {
    const at = kept.lastIndexOf('\n', charLimit);
    kept = kept.slice(0, at > 0 ? at : charLimit);
    byChars = true;
  }
  const truncated = byLines || byChars;
  const keptEnd = truncated ? keptStart + kept.length : content.length;
  let firstUnreadLine: number | null = null;
  let midLine = false;
  if (truncated) {
    const line = countNewlines(content, keptEnd);
    midLine = content[keptEnd] !== '\n' && content[keptEnd] !== '\r';
    firstUnreadLine = midLine ? line : line + 1;
  }
  return {
    keptEnd,
    keptStart,
    truncated,
    reason: byLines && byChars ? 'lines+chars' : byLines ? 'lines' : byChars ? 'chars' : 'none',
    totalLines: lines.length,
    keptLines: kept === '' ? 0 : kept.split('\n').length,
    totalChars: trimmed.length,
    keptChars: kept.length,
    firstUnreadLine,
    midLine,
  };
}

export type Level = 'ok' | 'near' | 'over';

/** ok below 80% of the limit, near from 80% up to the limit, over past it. */
export function levelOf(value: number, limit: number): Level {
  if (value > limit) return 'over';
  if (value >= limit * NEAR_RATIO) return 'near';
  return 'ok';
}

export function worstLevel(...levels: Level[]): Level {
  return levels.includes('over') ? 'over' : levels.includes('near') ? 'near' : 'ok';
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

// What a line diff shows: rows, inline (one line each) or side by side (the old line beside the new one),
// with long runs of unchanged rows folded away around the changes. Pure.
import type { DiffLine } from './lineDiff';

export interface SplitRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

export type Row<T> = { type: 'row'; row: T; index: number } | { type: 'fold'; start: number; end: number };

/** Unchanged rows kept on each side of a change. */
export const CONTEXT_ROWS = 3;

/** Side by side: an unchanged line on both sides; a change's n-th removed line beside its n-th added line. */
export function splitRows(lines: DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.kind === 'same') {
      rows.push({ left: line, right: line });
      i += 1;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < lines.length && lines[i]!.kind === 'removed') removed.push(lines[i++]!);
    while (i < lines.length && lines[i]!.kind === 'added') added.push(lines[i++]!);
    for (let k = 0; k < Math.max(removed.length, added.length); k += 1) rows.push({ left: removed[k] ?? null, right: added[k] ?? null });
  }
  return rows;
}

export function isUnchanged(row: DiffLine | SplitRow): boolean {
  return 'kind' in row ? row.kind === 'same' : row.left?.kind === 'same';
}

/**
 * The rows to show: unchanged runs longer than twice the context (once at either end of the text) fold
 * into one 'fold' item [start, end), unless the fold starting at `start` is in `expanded`.
 */
export function foldRows<T>(
  rows: T[],
  expanded: ReadonlySet<number>,
  unchanged: (row: T) => boolean,
  context = CONTEXT_ROWS,
): Row<T>[] {
  const isUnchanged = unchanged;
  const out: Row<T>[] = [];
  let i = 0;
  while (i < rows.length) {
    if (!isUnchanged(rows[i]!)) {
      out.push({ type: 'row', row: rows[i]!, index: i });
      i += 1;
      continue;
    }
    let end = i;
    while (end < rows.length && isUnchanged(rows[end]!)) end += 1;
    const keepBefore = i === 0 ? 0 : context;
    const keepAfter = end === rows.length ? 0 : context;
    const foldStart = i + keepBefore;
    const foldEnd = end - keepAfter;
    // A fold hides at least two rows: a button in place of one row saves nothing.
    if (foldEnd - foldStart >= 2 && !expanded.has(foldStart)) {
      for (let k = i; k < foldStart; k += 1) out.push({ type: 'row', row: rows[k]!, index: k });
      out.push({ type: 'fold', start: foldStart, end: foldEnd });
      for (let k = foldEnd; k < end; k += 1) out.push({ type: 'row', row: rows[k]!, index: k });
    } else {
      for (let k = i; k < end; k += 1) out.push({ type: 'row', row: rows[k]!, index: k });
    }
    i = end;
  }
  return out;
}

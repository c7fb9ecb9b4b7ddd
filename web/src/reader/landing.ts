// Opening a document at a line (a search snippet's): which of the reader's search marks stands on that
// line, else which block holds it. Rendered blocks carry their first source line (`data-line`,
// markdown.ts); inside a block that spans several lines, the query's matches on its earlier lines are
// counted in the source to step over their marks.
import { findMatches, needlesFor } from '../search/match';

export interface Landing {
  /** New for every click, so the same line can be landed on again. */
  key: string;
  /** 1-based line of the rendered source. */
  line: number;
}

/** How many times `query` occurs on `lines[from - 1 .. to - 1)` (1-based, `to` excluded), as the reader marks it. */
export function matchesOnLines(lines: readonly string[], from: number, to: number, query: string): number {
  let n = 0;
  const needles = needlesFor(lines.join('\n'), query);
  for (let i = Math.max(from, 1); i < to && i <= lines.length; i += 1) n += findMatches(lines[i - 1]!, needles).length;
  return n;
}

/**
 * The mark (its index in `marks`, which are in document order) on `line`, or the block holding the line
 * when none of the marks is on it (the query is not written there as typed), or null when no block is.
 */
export function landingTarget(
  root: HTMLElement,
  marks: readonly HTMLElement[],
  landing: Landing,
  source: string,
  query: string,
): { mark: number } | { block: HTMLElement } | null {
  let block: HTMLElement | null = null;
  let start = 0;
  // The innermost block starting on the line or closest before it: blocks come in source order, nested
  // ones after the block around them.
  for (const el of Array.from(root.querySelectorAll<HTMLElement>('[data-line]'))) {
    const at = Number(el.dataset.line);
    if (at <= landing.line && at >= start) {
      block = el;
      start = at;
    }
  }
  if (block === null) return null;
  const inBlock: number[] = [];
  marks.forEach((mark, i) => {
    if (block.contains(mark)) inBlock.push(i);
  });
  const before = start < landing.line ? matchesOnLines(source.split('\n'), start, landing.line, query) : 0;
  const mark = inBlock[before];
  return mark === undefined ? { block } : { mark };
}

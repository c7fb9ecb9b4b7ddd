// Who last wrote each line: a walk over a file's versions, oldest first, where a line a version kept from
// the one before (by a line diff) keeps its author and every other line is the version's own. Pure CPU on
// texts already built, done once per history (memoryHistory.ts keeps it).

/** The longest middle (after the common head and tail) diffed line by line; past it, the middle is all new. */
const MAX_DIFF_CELLS = 4_000_000;

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * For each line of `after`, the index of the line of `before` it is kept from, or -1 when it is new:
 * the common head and tail, then a longest common subsequence of what is between.
 */
export function keptFrom(before: readonly string[], after: readonly string[]): number[] {
  const out = new Array<number>(after.length).fill(-1);
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) out[head] = head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) {
    out[after.length - 1 - tail] = before.length - 1 - tail;
    tail++;
  }
  const n = before.length - head - tail;
  const m = after.length - head - tail;
  if (n === 0 || m === 0 || n * m > MAX_DIFF_CELLS) return out;
  // lcs[i][j]: the longest common subsequence of before[head+i..] and after[head+j..], one row at a time.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = before[head + i] === after[head + j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  for (let i = 0, j = 0; i < n && j < m;) {
    if (before[head + i] === after[head + j]) {
      out[head + j] = head + i;
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) i++;
    else j++;
  }
  return out;
}

/** For each line of the last text, the index of the version that last wrote it. */
export function blameLines(texts: readonly string[]): number[] {
  let lines: string[] = [];
  let authors: number[] = [];
  texts.forEach((text, version) => {
    const next = splitLines(text);
    const kept = keptFrom(lines, next);
    authors = kept.map((from) => (from === -1 ? version : authors[from]!));
    lines = next;
  });
  return authors;
}

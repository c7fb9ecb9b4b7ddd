// "did you mean …?" for a mistyped flag: the known name nearest by edit distance, if near enough to be a typo.

/**
 * Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment):
 * `--prot` is one slip from `--port`, not two.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `typed`, or null when even the closest is not a plausible typo: at most one
 * edit per three letters (at least one), so `--nope` suggests nothing rather than `--open`.
 */
export function closest(typed: string, candidates: readonly string[]): string | null {
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(typed.toLowerCase(), c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= limit ? best : null;
}

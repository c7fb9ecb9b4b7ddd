// Case folding for the client-side filter and for highlighting. Same rule as the service
// (lowercase, final sigma as sigma), so a hit the service reports is also found here.

export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('ς') ? lower.replaceAll('ς', 'σ') : lower;
}

/**
 * Folds `text` and returns, for every folded code unit, the index of the original code unit it
 * came from (plus one trailing entry for the end), so match positions map back to the original.
 */
export function foldWithMap(text: string): { folded: string; map: number[] | null } {
  const folded = foldCase(text);
  if (folded.length === text.length) return { folded, map: null };
  const parts: string[] = [];
  const map: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    const f = foldCase(ch);
    parts.push(f);
    for (let k = 0; k < f.length; k += 1) map.push(i);
    i += ch.length;
  }
  map.push(text.length);
  return { folded: parts.join(''), map };
}

// Case folding for the client-side filter and for highlighting: the service's own rule, imported rather
// than copied, so a hit the service reports is always found (and highlighted) here too.
import { foldCase } from '../../../src/domain/fold';

export { foldCase };

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

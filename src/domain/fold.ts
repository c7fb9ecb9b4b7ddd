// Case folding for search: the same function folds the haystack once and every query, so any
// difference between the two cannot make a match disappear.

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** Whether `text` is all ASCII: the common case, where folding needs neither Unicode classes nor decomposition. */
export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

/**
 * Lowercases for case-insensitive matching across Unicode. `toLowerCase` gives Σ a final-sigma form
 * (ς) at word ends, so ς is mapped to σ afterwards: "ΟΔΟΣ" and "οδοσ" fold alike.
 */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('ς') ? lower.replaceAll('ς', 'σ') : lower;
}

// Which existing topic a dangling link most likely meant: the file was renamed (`deploy_notes.md` →
// `deploy-notes.md`), the link leaves out the `<type>_` prefix its file carries (`[[verify-before-asserting]]`
// for `feedback_verify-before-asserting.md`, as Claude Code often writes them), or the link has a typo (edit
// distance at most 2). Only a clear answer counts: one candidate, close enough.
import { foldCase } from '../../fold.js';
import type { MemoryEntry } from '../../types.js';

/** Past this many topics the edit-distance pass is skipped (its cost is per topic); exact matches still count. */
const MAX_CANDIDATES = 2000;
const MAX_NAME_CHARS = 120;
const MAX_DISTANCE = 2;
/** The memory types Claude Code prefixes file names with (`feedback_testing.md`). */
const TYPE_PREFIX = /^(?:user|feedback|project|reference)_/i;

/** Folded, without folders, `.md`, a `<type>_` prefix and everything that is not a letter or digit. */
function normal(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1).replace(/\.md$/i, '').replace(TYPE_PREFIX, '');
  return foldCase(base).replace(/[^\p{L}\p{N}]+/gu, '');
}

export function suggestTarget(target: string, entries: readonly MemoryEntry[]): MemoryEntry | null {
  const want = normal(target);
  if (want === '' || want.length > MAX_NAME_CHARS) return null;
  const topics = entries.filter((e) => !e.isIndex);
  const exact = topics.filter((e) => normal(e.filename) === want || normal(e.name) === want);
  if (exact.length === 1) return exact[0]!;
  if (exact.length > 1 || topics.length > MAX_CANDIDATES) return null;
  const limit = Math.min(MAX_DISTANCE, Math.max(1, Math.floor(want.length / 5)));
  let best: MemoryEntry | null = null;
  let bestDistance = Infinity;
  let tie = false;
  for (const e of topics) {
    const have = normal(e.filename);
    if (have.length > MAX_NAME_CHARS || Math.abs(have.length - want.length) > limit) continue;
    const d = distance(want, have, limit);
    if (d < bestDistance) {
      best = e;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) {
      tie = true;
    }
  }
  return best !== null && bestDistance <= limit && !tie ? best : null;
}

/** Levenshtein distance, or limit + 1 as soon as it must exceed `limit`. */
function distance(a: string, b: string, limit: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length]!;
}

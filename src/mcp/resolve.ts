// Forgiving arguments for the MCP tools: an agent names things as a person would (a plan without `.md`, a
// session by the 8 characters the UI shows, a memory source by its project), and a name that matches
// nothing is answered with the closest valid ones, so that the next call can be right.
import { editDistance } from '../config/closest.js';

/** The few candidates nearest `typed` (case-insensitive edit distance; a candidate containing it first). */
export function nearest(typed: string, candidates: Iterable<string>, count = 5): string[] {
  const t = typed.toLowerCase();
  const scored = [...new Set(candidates)].map((c) => {
    const lower = c.toLowerCase();
    return { c, d: lower.includes(t) || t.includes(lower) ? 0 : editDistance(t, lower.slice(0, t.length + 3)) };
  });
  return scored.sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : 1)).slice(0, count).map((s) => s.c);
}

/** A "not found" message that lists the nearest valid values. */
export function notFound(what: string, typed: string, candidates: Iterable<string>, hint: string): string {
  const near = nearest(typed, candidates);
  return `No ${what} ${typed}` + (near.length > 0 ? `; closest: ${near.join(', ')}` : '') + ` (${hint})`;
}

/** A plan file name from what was typed: as is when known, else with `.md` added. */
export function planName(typed: string, known: (filename: string) => boolean): string {
  if (known(typed)) return typed;
  return !typed.endsWith('.md') && known(`${typed}.md`) ? `${typed}.md` : typed;
}

/**
 * A full id from what was typed: itself, or the one id it starts (the UI shows a session's first 8
 * characters), or the one whose project name it is, in any case; null when none or several match.
 */
export function uniqueMatch(typed: string, ids: readonly string[], projectOf: (id: string) => string | null = () => null): string | null {
  if (ids.includes(typed)) return typed;
  const lower = typed.toLowerCase();
  const byProject = ids.filter((id) => projectOf(id)?.toLowerCase() === lower);
  if (byProject.length === 1) return byProject[0]!;
  const byPrefix = ids.filter((id) => id.toLowerCase().startsWith(lower));
  return lower.length >= 4 && byPrefix.length === 1 ? byPrefix[0]! : null;
}

// How bad each kind of memory problem is, worst first: the order of a source's problems and what
// "worst" means when sources are ranked. Shared with the UI (keep it free of Node APIs).
import type { MemoryProblem, ProblemKind } from '../../../contract/memoryCare.js';

/**
 * A credential first (it may already be in a repository); then what Claude Code does not see at all
 * (lines past the cut, topics only linked from there, memory in a folder it no longer reads); then what
 * it reads wrongly; then clutter.
 */
export const SEVERITY: readonly ProblemKind[] = [
  'secret', 'over-budget', 'unreachable', 'split-brain', 'bad-frontmatter', 'truncated-value', 'dangling', 'pinned-over-limit',
  'duplicate', 'orphan', 'stale',
];

/**
 * The kinds whose findings can be fixed all at once (POST /api/memory/fix-all): each fix touches what it
 * names and nothing else. A duplicate's trash would take both copies; the cut of an over-long index is one
 * fix already.
 */
export const FIX_ALL_KINDS = ['dangling', 'orphan', 'truncated-value', 'stale'] as const satisfies readonly ProblemKind[];
export type FixAllKind = (typeof FIX_ALL_KINDS)[number];

export function isFixAllKind(kind: string): kind is FixAllKind {
  return (FIX_ALL_KINDS as readonly string[]).includes(kind);
}

const RANK = new Map<ProblemKind, number>(SEVERITY.map((kind, i) => [kind, i]));

export function severityRank(kind: ProblemKind): number {
  return RANK.get(kind) ?? SEVERITY.length;
}

/** Worst kind first, then by file (the source as a whole first) and line. */
export function compareProblems(a: MemoryProblem, b: MemoryProblem): number {
  return severityRank(a.kind) - severityRank(b.kind) ||
    (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || a.message.localeCompare(b.message);
}

/**
 * A source's weight when sources are ranked worst first: each problem counts for more the worse its kind,
 * so one secret outweighs any number of stale topics.
 */
export function healthScore(problems: readonly Pick<MemoryProblem, 'kind'>[]): number {
  let score = 0;
  for (const p of problems) score += 4 ** (SEVERITY.length - severityRank(p.kind));
  return score;
}

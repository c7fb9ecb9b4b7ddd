// Words for the kinds of memory problems and fixes, as the health views show them.
import type { FixKind, MemoryProblem, ProblemKind } from '../api/types';

export const KIND_LABEL: Record<ProblemKind, string> = {
  'secret': 'secret',
  'over-budget': 'over budget',
  'unreachable': 'unreachable',
  'split-brain': 'split brain',
  'bad-frontmatter': 'bad frontmatter',
  'truncated-value': 'cut value',
  'dangling': 'dangling link',
  'pinned-over-limit': 'too many pinned',
  'duplicate': 'duplicate',
  'orphan': 'orphan',
  'stale': 'stale',
};

export const FIX_LABEL: Record<FixKind, string> = {
  'add-to-index': 'Add to MEMORY.md',
  'remove-link': 'Remove the link',
  'retarget-link': 'Point the link at the right file',
  'quote-value': 'Quote the value',
  'move-past-cut': 'Move the unloaded lines into a topic',
  'trash-topic': 'Move to the trash',
  'link-mention': 'Turn the mention into a link',
};

/** The fixes a problem offers: its own, and removing a link it could also retarget. */
export function fixesOf(problem: MemoryProblem): FixKind[] {
  if (problem.fix === null) return [];
  if (problem.fix === 'retarget-link') return ['retarget-link', 'remove-link'];
  // A topic MEMORY.md names without linking can also get an entry line of its own.
  if (problem.fix === 'link-mention') return ['link-mention', 'add-to-index'];
  return [problem.fix];
}

/** A stable key for a problem within its source. */
export function problemKey(p: MemoryProblem): string {
  return `${p.kind}\u0000${p.file ?? ''}\u0000${p.line ?? ''}\u0000${p.target ?? ''}\u0000${p.message}`;
}

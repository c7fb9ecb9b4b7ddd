// Every finding of one kind in a source fixed in one change: each finding's own fix (the planner of a
// single fix), planned in turn over the text the fixes before it left, merged into one change per file.
// Only the kinds of FIX_ALL_KINDS (kinds.ts) take part.
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import { planFix } from './plan.js';
import type { FileChange, FixInput } from './types.js';

export interface FixAllPlan {
  changes: FileChange[];
  /** The findings the change fixes. */
  fixed: MemoryProblem[];
}

/** The findings of `problems` with a fix, planned one after another; findings whose fix no longer applies are left out. */
export function planAll(problems: readonly MemoryProblem[], input: Omit<FixInput, 'file' | 'target'>): FixAllPlan {
  const original = new Map<string, string | null>();
  const now = new Map<string, string | null>();
  const read = (file: string): string | null => (now.has(file) ? now.get(file)! : input.read(file));
  const fixed: MemoryProblem[] = [];
  for (const problem of problems) {
    if (problem.fix === null || problem.file === null) continue;
    const plan = planFix(problem.fix, { ctx: input.ctx, file: problem.file, target: problem.target, read });
    // A fix an earlier one already made (or made moot) is not this change's to make.
    if (!('changes' in plan) || plan.changes.length === 0) continue;
    for (const change of plan.changes) {
      if (!original.has(change.file)) original.set(change.file, input.read(change.file));
      now.set(change.file, change.after);
    }
    fixed.push(problem);
  }
  const changes = [...original]
    .map(([file, before]) => ({ file, before, after: now.get(file)! }))
    .filter((c) => c.before !== c.after);
  return { changes, fixed };
}

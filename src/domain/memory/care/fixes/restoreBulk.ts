// Putting a bulk change back (POST /api/memory/changes/{id}/restore): each file gets its text from before
// the change (a changed one rewritten, a deleted one created again, a created one removed); a file whose
// earlier text is no longer kept is left as it is and named; one already as it was is left out.
import { joinNames } from '../undoState.js';
import type { FileChange } from './types.js';

export interface RestoreFile {
  file: string;
  /** Its text before the change; null: the change created it. */
  before: string | null;
  /** Its text from before is no longer kept. */
  pruned: boolean;
}

export function planRestore(
  files: readonly RestoreFile[], read: (file: string) => string | null,
): { changes: FileChange[]; skipped: string[] } | { conflict: string } {
  const changes: FileChange[] = [];
  const skipped: string[] = [];
  for (const f of files) {
    if (f.pruned) {
      skipped.push(f.file);
      continue;
    }
    const now = read(f.file);
    if (now !== f.before) changes.push({ file: f.file, before: now, after: f.before });
  }
  if (changes.length > 0) return { changes, skipped };
  const pruned = skipped.length > 0 ? ` (the earlier text of ${joinNames(skipped)} is no longer kept)` : '';
  return { conflict: `every file of this change that can be put back is as it was before it${pruned}` };
}

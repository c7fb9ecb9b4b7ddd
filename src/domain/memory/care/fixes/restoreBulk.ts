// Putting a bulk change back (POST /api/memory/changes/{id}/restore): each file gets its text from before
// the change (a changed one rewritten, a deleted one created again, a created one removed); a file whose
// earlier text is no longer kept, or whose folder is gone (a nested topic's), is left as it is and named;
// one already as it was is left out.
import { joinNames } from '../undoState.js';
import { UnsafePath } from '../writer.js';
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
    let now: string | null;
    try {
      now = read(f.file);
    } catch (error) {
      if (!(error instanceof UnsafePath)) throw error;
      skipped.push(f.file);
      continue;
    }
    if (now !== f.before) changes.push({ file: f.file, before: now, after: f.before });
  }
  if (changes.length > 0) return { changes, skipped };
  const pruned = skipped.length > 0 ? ` (${joinNames(skipped)} cannot be put back: its earlier text is no longer kept, or its folder is gone)` : '';
  return { conflict: `every file of this change that can be put back is as it was before it${pruned}` };
}

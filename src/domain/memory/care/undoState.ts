// Where an applied fix stands on disk now, and whether (and why not) it can be undone: what the undo
// endpoint refuses with and what the list of recent fixes says, in the same words.
import { readlinkSync } from 'node:fs';
import { INDEX_FILE } from '../scan.js';
import { type RecordedChange, type UndoRecord, sha256 } from './undoStore.js';
import { nameTaken, readFile, resolveInside } from './writer.js';

/** Where a recorded change stands on disk now: as the fix left it, as it was before, or neither. */
export type ChangeState = 'after' | 'before' | 'other';

export interface ChangeNow {
  change: RecordedChange;
  state: ChangeState;
}

/** Where a recorded change stands now (see ChangeState). */
export function changeState(dir: string, change: RecordedChange): ChangeState {
  try {
    if (change.after === null) {
      if (!nameTaken(dir, change.file)) return 'after';
      if (change.link !== undefined) return linkText(dir, change.file) === change.link ? 'before' : 'other';
    }
    const now = readFile(resolveInside(dir, change.file).real)?.bytes ?? null;
    if (change.after !== null && now !== null && sha256(now) === change.after) return 'after';
    if (change.before === null ? now === null : now !== null && now.equals(Buffer.from(change.before, 'base64'))) return 'before';
    return 'other';
  } catch {
    return 'other';
  }
}

export function changesNow(record: UndoRecord): ChangeNow[] {
  return record.changes.map((change) => ({ change, state: changeState(record.dir, change) }));
}

/** A trashed topic comes back whatever happened to other files since (see MemoryCare.undoNow). */
export function restoresTopic(record: Pick<UndoRecord, 'kind' | 'all'>): boolean {
  return record.kind === 'trash-topic' && !record.all;
}

/**
 * Why undoing the record now would do harm, in words for people, or null when it can go ahead. `listed`:
 * the record's folder is one the viewer lists now.
 */
export function undoBlocker(record: UndoRecord, states: ChangeNow[], listed: boolean): string | null {
  if (!listed) return 'that memory folder is not listed any more; undo writes only into folders the viewer lists';
  if (restoresTopic(record)) {
    const topic = states.find((s) => s.change.file === record.file && s.change.after === null);
    return topic?.state === 'other'
      ? `a file named ${record.file} exists in that memory folder now; move it away to restore the trashed one`
      : null;
  }
  const changed = states.filter((s) => s.state === 'other');
  if (changed.length === 0) return null;
  const names = changed.map((s) => s.change.file);
  const created = changed.every((s) => s.change.after === null);
  if (created) return `${joinNames(names)} ${names.length === 1 ? 'exists' : 'exist'} again since this fix removed ${names.length === 1 ? 'it' : 'them'}; undo would overwrite ${names.length === 1 ? 'it' : 'them'}`;
  return `${joinNames(names)} changed since this fix; undo would overwrite that change`;
}

/** Whether the record's MEMORY.md line of a restored topic comes back (MEMORY.md is as the fix left it). */
export function indexChanged(states: ChangeNow[]): boolean {
  return states.some((s) => s.state === 'other' && s.change.file === INDEX_FILE);
}

/** "a, b and c" (or "a, b or c"). */
export function joinNames(names: readonly string[], word: 'and' | 'or' = 'and'): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} ${word} ${names.at(-1)!}`;
}

function linkText(dir: string, rel: string): string | null {
  try {
    return readlinkSync(resolveInside(dir, rel).name);
  } catch {
    return null;
  }
}

// What a file-writing call changed, read from its line and its result's line again (the pass over every
// log keeps only where they are): lines added and removed, from the result's `structuredPatch` when Claude
// Code wrote one, else worked out from the call's input (and `originalFile`), and whether the person
// changed the proposed edit (`userModified`).
import { diffLines } from 'diff';
import { readLineJsonAt } from '../transcripts/lineReads.js';
import type { WorkCall } from '../transcripts/extractors/work.js';

export interface FileChange {
  added: number;
  removed: number;
  userModified: boolean;
}

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The call's input, found by its id in the line's content. */
export function callInput(file: string, call: WorkCall): Json | null {
  const line = readLineJsonAt(file, call.line.start, call.line.end);
  const content = isObject(line) && isObject(line.message) ? line.message.content : null;
  if (!Array.isArray(content)) return null;
  for (const item of content) {
    if (isObject(item) && item.type === 'tool_use' && item.id === call.id && isObject(item.input)) return item.input;
  }
  return null;
}

/** The line holding the call's result, parsed; null before its result is seen. */
export function resultLine(file: string, call: WorkCall): Json | null {
  if (call.result === null) return null;
  const line = readLineJsonAt(file, call.result.start, call.result.end);
  return isObject(line) ? line : null;
}

/** The result line's `toolUseResult` sidecar, when the line holds one. */
function sidecar(file: string, call: WorkCall): Json | null {
  const line = resultLine(file, call);
  return line !== null && isObject(line.toolUseResult) ? line.toolUseResult : null;
}

export function fileChange(file: string, call: WorkCall): FileChange | null {
  const input = callInput(file, call);
  if (input === null) return null;
  const result = sidecar(file, call);
  const userModified = result?.userModified === true;
  const patched = patchCounts(result?.structuredPatch);
  if (patched !== null && patched.added + patched.removed > 0) return { ...patched, userModified };
  if (call.name === 'Edit') return { ...counted(str(input.old_string) ?? '', str(input.new_string) ?? ''), userModified };
  if (call.name === 'MultiEdit' && Array.isArray(input.edits)) {
    const total = { added: 0, removed: 0 };
    for (const e of input.edits) {
      if (!isObject(e)) continue;
      const c = counted(str(e.old_string) ?? '', str(e.new_string) ?? '');
      total.added += c.added;
      total.removed += c.removed;
    }
    return { ...total, userModified };
  }
  if (call.name === 'Write') {
    const content = str(input.content) ?? '';
    return { ...counted(str(result?.originalFile) ?? '', content), userModified };
  }
  return { added: 0, removed: 0, userModified };
}

function counted(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before, after)) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}

/** Lines added and removed by a `structuredPatch` (its hunks' lines, as unified diff lines). */
function patchCounts(patch: unknown): { added: number; removed: number } | null {
  if (!Array.isArray(patch)) return null;
  let added = 0;
  let removed = 0;
  for (const hunk of patch) {
    if (!isObject(hunk) || !Array.isArray(hunk.lines)) continue;
    for (const l of hunk.lines) {
      if (typeof l !== 'string') continue;
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}

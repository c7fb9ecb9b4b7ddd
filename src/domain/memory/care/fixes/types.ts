// What a fix is given and what it gives back: the new text of every file it changes, or why not.
import type { SourceContext } from '../context.js';

export interface FileChange {
  /** File name inside the memory folder. */
  file: string;
  /** Its text now, null when it does not exist. */
  before: string | null;
  /** Its text after the fix, null when the fix removes it. */
  after: string | null;
}

export interface FixInput {
  ctx: SourceContext;
  /** The problem's file and target. */
  file: string;
  target: string | null;
  /** A file of the folder as text, null when it does not exist. */
  read(file: string): string | null;
}

export type FixPlan =
  | { changes: FileChange[] }
  /** The problem is not there (any more): the files changed since the check. */
  | { conflict: string }
  /** The fix does not apply to this file at all. */
  | { invalid: string };

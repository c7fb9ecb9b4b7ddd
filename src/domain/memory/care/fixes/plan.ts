// Which fix does what (one file per fix, each a pure function of the files' text and the listing).
import type { FixKind, RecordKind } from '../../../../contract/memoryCare.js';
import { addToIndex } from './addToIndex.js';
import { removeLink, retargetLink } from './linkFixes.js';
import { linkMention } from './linkMention.js';
import { moveOverflow } from './moveOverflow.js';
import { quoteValue } from './quoteValue.js';
import { trashTopic } from './trashTopic.js';
import type { FixInput, FixPlan } from './types.js';

const FIXES: Record<FixKind, (input: FixInput) => FixPlan> = {
  'add-to-index': addToIndex,
  'remove-link': removeLink,
  'retarget-link': retargetLink,
  'quote-value': quoteValue,
  'move-past-cut': moveOverflow,
  'trash-topic': trashTopic,
  'link-mention': linkMention,
};

/** Whether `kind` (read back from a file) names a fix. */
export function isFixKind(kind: string): kind is FixKind {
  return Object.hasOwn(FIXES, kind);
}

/** Whether `kind` (read back from an undo record) names a fix or a bulk change's restore. */
export function isRecordKind(kind: string): kind is RecordKind {
  return isFixKind(kind) || kind === 'restore-bulk';
}

export function planFix(kind: FixKind, input: FixInput): FixPlan {
  return FIXES[kind](input);
}

// A plan's story as its session's tool calls tell it: a Write of a draft, then Edits and MultiEdits (some
// with replace_all) that turn the draft into the text the plan ends with, sometimes an edit whose old text
// is not in the file (Claude Code answers it with an error: the story has a gap there), sometimes a Write of
// the whole plan (after such a gap, or instead of an edit), and ExitPlanMode calls approved or rejected with
// the user's words. Also what a correct history must show of it (HistoryFact), worked out from how the story
// was made, not by replaying the lines.
//
// Edits are made backwards from the final text, so that applying them forwards gives it exactly; each
// old_string is unique in the text it applies to, as Claude Code's Edit requires without replace_all.

import { createHash } from 'node:crypto';
import type { Rng } from './rng.js';
import { THING, VERB, WORDS, sentence } from './vocabulary.js';

export interface EditInput {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export type StoryStep =
  | { kind: 'write'; content: string; before: string | null }
  | { kind: 'edit'; edit: EditInput; before: string; after: string }
  | { kind: 'multi'; edits: EditInput[]; before: string; after: string }
  /** An edit whose old text is not in the file: Claude Code refuses it and the file stays as it was. */
  | { kind: 'gap'; edit: EditInput }
  | { kind: 'exit'; approved: boolean; feedback: string | null };

/** What GET /api/plans/{f}/history must show for a plan (see Facts.history). */
export interface HistoryFact {
  /** One letter per version, oldest first: w(rite), e(dit), d(isk: the file is none of the written versions). */
  sources: string;
  /** sha256 (first 16 hex digits) of each version's text, in the same order. */
  shas: string[];
  /** Index of the first version marked gapBefore, or null. */
  gapAt: number | null;
  /** Bytes of the plan's last text (the file on disk, or the last written version of an archived plan). */
  bytes: number;
  /** Plan-mode events the story must list; null when not checked (subagent plans share their session's). */
  events: { entered: number; exited: number; approved: number; rejected: number } | null;
}

export function shortSha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function lineAround(text: string, at: number): [number, number] {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  return [at === 0 ? 0 : start, nl === -1 ? text.length : nl];
}

function unique(text: string, part: string, at: number): boolean {
  return text.indexOf(part) === at && text.indexOf(part, at + 1) === -1;
}

/** An edit that turns `before` into `after`, made backwards from `after`: a word changed, a sentence dropped or a line added. */
export function backwardEdit(rng: Rng, after: string): { before: string; edit: EditInput } | null {
  for (let attempt = 0; attempt < 16 && after.length > 0; attempt++) {
    const [s, e] = lineAround(after, rng.int(0, after.length - 1));
    const line = after.slice(s, e);
    if (line.length < 16 || line.length > 4000) continue;
    let oldText: string;
    let newText = line;
    let end = e;
    const r = rng.next();
    if (r < 0.5) {
      const words = line.split(' ');
      const i = rng.int(0, words.length - 1);
      const word = rng.pick(WORDS);
      if (words[i] === word) continue;
      words[i] = word;
      oldText = words.join(' ');
    } else if (r < 0.75) {
      oldText = `${line} ${sentence(rng, 4, 10)}`;
    } else {
      const next = after.indexOf('\n', e + 1);
      end = next === -1 ? after.length : next;
      if (e >= after.length || end - e < 2) continue;
      newText = after.slice(s, end);
      oldText = line;
    }
    const before = after.slice(0, s) + oldText + after.slice(end);
    if (!unique(before, oldText, s)) continue;
    return { before, edit: { old_string: oldText, new_string: newText } };
  }
  return null;
}

/** A replace_all edit made backwards: a name used several times, renamed everywhere. */
export function backwardRename(rng: Rng, after: string): { before: string; edit: EditInput } | null {
  for (let attempt = 0; attempt < 8 && after.length > 0; attempt++) {
    const re = /\b[a-z]{5,}\b/g;
    re.lastIndex = rng.int(0, after.length - 1);
    const word = re.exec(after)?.[0];
    if (word === undefined) continue;
    const first = after.indexOf(word);
    if (after.indexOf(word, first + 1) === -1) continue;
    const oldName = `${rng.pick(['legacy', 'draft', 'tmp', 'old'])}${word.charAt(0).toUpperCase()}${word.slice(1)}`;
    if (after.includes(oldName)) continue;
    const before = after.split(word).join(oldName);
    if (before.split(oldName).join(word) !== after) continue;
    return { before, edit: { old_string: oldName, new_string: word, replace_all: true } };
  }
  return null;
}

/** An edit whose old text is nowhere in `text`. */
function gapEdit(rng: Rng, text: string): EditInput {
  const b = backwardEdit(rng, text);
  const oldText = b !== null && !text.includes(b.edit.old_string) ? b.edit.old_string : `${sentence(rng)} (${rng.hex(8)})`;
  return { old_string: oldText, new_string: sentence(rng) };
}

function oneEdit(rng: Rng, after: string): { before: string; edit: EditInput } | null {
  return rng.chance(0.15) ? backwardRename(rng, after) ?? backwardEdit(rng, after) : backwardEdit(rng, after);
}

export interface StoryOptions {
  /** A subagent's own plan: fewer edits, no plan-mode answers. */
  agent: boolean;
  /** A multi-MB plan: never written whole twice. */
  huge: boolean;
}

/** The steps that end with `finalText` in the file, except that some stories leave the disk changed by hand after them. */
export function buildStory(rng: Rng, finalText: string, o: StoryOptions): { steps: StoryStep[]; changedOutside: boolean } {
  // A hand edit after the last tool call: the story ends one change before the file.
  const outside = rng.chance(0.1) ? backwardEdit(rng, finalText) : null;
  const target = outside?.before ?? finalText;
  const changes: StoryStep[] = [];
  let current = target;
  for (let k = o.agent ? rng.int(0, 3) : o.huge ? rng.int(1, 3) : rng.int(1, 10); k > 0; k--) {
    if (rng.chance(0.3)) {
      const edits: EditInput[] = [];
      let text = current;
      for (let j = rng.int(2, 3); j > 0; j--) {
        const b = oneEdit(rng, text);
        if (b === null) break;
        edits.unshift(b.edit);
        text = b.before;
      }
      if (edits.length === 0) continue;
      changes.unshift({ kind: 'multi', edits, before: text, after: current });
      current = text;
    } else {
      const b = oneEdit(rng, current);
      if (b === null) continue;
      changes.unshift({ kind: 'edit', edit: b.edit, before: b.before, after: current });
      current = b.before;
    }
  }
  // Now and then Claude Code writes the plan whole again instead of editing it (never a multi-MB one).
  if (!o.huge) {
    changes.forEach((step, i) => {
      if ((step.kind === 'edit' || step.kind === 'multi') && rng.chance(0.15)) changes[i] = { kind: 'write', content: step.after, before: step.before };
    });
  }
  const steps: StoryStep[] = [{ kind: 'write', content: current, before: null }, ...changes];
  if (!o.agent && rng.chance(0.08)) {
    const at = rng.int(1, steps.length);
    const text = textAfter(steps[at - 1]!);
    const inserted: StoryStep[] = [{ kind: 'gap', edit: gapEdit(rng, text) }];
    // Claude Code reads the file again and writes it whole: the story resumes there.
    if (!o.huge && rng.chance(0.5)) inserted.push({ kind: 'write', content: text, before: text });
    steps.splice(at, 0, ...inserted);
  }
  if (!o.agent) {
    if (steps.length >= 3 && rng.chance(0.3)) steps.splice(rng.int(2, steps.length - 1), 0, exitStep(rng, false));
    steps.push(exitStep(rng, rng.chance(0.85)));
  }
  return { steps, changedOutside: outside !== null };
}

function textAfter(step: StoryStep): string {
  if (step.kind === 'write') return step.content;
  if (step.kind === 'edit' || step.kind === 'multi') return step.after;
  throw new Error('no text after a gap or an exit');
}

function exitStep(rng: Rng, approved: boolean): StoryStep {
  if (approved) return { kind: 'exit', approved, feedback: null };
  const feedback = rng.chance(0.8) ? `Please ${rng.pick(VERB)} the ${rng.pick(THING)} first, and ${sentence(rng, 4, 9).toLowerCase()}` : null;
  return { kind: 'exit', approved, feedback };
}

/**
 * What the plan's history must show: a version per Write, and per Edit or MultiEdit that follows a known
 * version; after a gap the edits cannot be rebuilt until the next Write; the file on disk (`disk`, null when
 * it is gone) is one more version when it is none of those.
 */
export function expectedHistory(steps: StoryStep[], disk: string | null, planModeEntered: number): HistoryFact {
  const versions: { source: string; text: string; gapBefore: boolean }[] = [];
  let known = false;
  let gap = false;
  let approved = 0;
  let rejected = 0;
  for (const step of steps) {
    if (step.kind === 'write') {
      versions.push({ source: 'w', text: step.content, gapBefore: gap });
      known = true;
      gap = false;
    } else if (step.kind === 'edit' || step.kind === 'multi') {
      if (!known) continue;
      versions.push({ source: 'e', text: step.after, gapBefore: gap });
      gap = false;
    } else if (step.kind === 'gap') {
      known = false;
      gap = true;
    } else if (step.approved) {
      approved++;
    } else {
      rejected++;
    }
  }
  if (disk !== null && !versions.some((v) => v.text === disk)) versions.push({ source: 'd', text: disk, gapBefore: gap });
  const gapAt = versions.findIndex((v) => v.gapBefore);
  const last = disk ?? versions.at(-1)?.text ?? '';
  return {
    sources: versions.map((v) => v.source).join(''),
    shas: versions.map((v) => shortSha(v.text)),
    gapAt: gapAt === -1 ? null : gapAt,
    bytes: Buffer.byteLength(last),
    events: planModeEntered < 0 ? null : { entered: planModeEntered, exited: lastExitApproved(steps) ? 1 : 0, approved, rejected },
  };
}

/** Whether the story ends with an approved ExitPlanMode (a plan_mode_exit attachment follows it). */
export function lastExitApproved(steps: StoryStep[]): boolean {
  const last = steps.at(-1);
  return last?.kind === 'exit' && last.approved;
}

/** About how many bytes of log lines the story's steps take (for the log's budget). */
export function storyBytes(steps: StoryStep[]): number {
  let bytes = 0;
  for (const step of steps) {
    bytes += 1800;
    if (step.kind === 'write') bytes += 2 * step.content.length + (step.before?.length ?? 0);
    else if (step.kind === 'edit') bytes += step.before.length + 3 * (step.edit.old_string.length + step.edit.new_string.length);
    else if (step.kind === 'multi') bytes += step.before.length + 3 * step.edits.reduce((n, e) => n + e.old_string.length + e.new_string.length, 0);
    else if (step.kind === 'gap') bytes += 3 * step.edit.old_string.length + step.edit.new_string.length;
  }
  return bytes;
}

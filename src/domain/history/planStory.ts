// A plan's story: every version of its text and the plan-mode events around them. Versions come from the
// transcripts (each Write gives the whole text; an Edit or MultiEdit applies to the version before it),
// from what the viewer itself saw of the file (observed), and from the file on disk when it differs from
// the last version rebuilt. An edit whose old text is not in the version before it leaves a gap: the story
// resumes at the next Write, at an observed version or at the file on disk.
import type { TextFacts } from '../largeFiles.js';
import { countLines } from '../markdown/text.js';
import type { NodeView } from '../transcripts/lineView.js';
import type { ModeChange } from '../transcripts/extractors/planEvents.js';
import { readLineAt } from '../transcripts/lineReads.js';
import { compareTimes, type HistoryIndex, type LoggedExit, type LoggedWrite } from './historyIndex.js';
import { contentHash, type ObservedVersions } from './observedVersions.js';
import type { PlanEvent, PlanVersion } from '../types.js';

type StoryVersion = PlanVersion;
type StoryEvent = PlanEvent;

export interface PlanStory {
  versions: StoryVersion[];
  events: StoryEvent[];
  /** Every session the plan belongs to: by its slug, by writing it, by plan mode naming it. */
  sessions: string[];
  /** The text of each version, by id; but a large file on disk's (largeDisk). */
  contents: Map<string, string>;
  /** The disk version when the file is too large to hold: its text is read from the file when asked for. */
  largeDisk: { id: string; facts: LargeDiskFacts } | null;
}

/** A large plan file as measured a chunk at a time (planHistory.ts), and the stat of the file measured. */
export interface LargeDiskFacts extends TextFacts {
  /** Its mtime, size and inode when measured: a read that finds the same is reading the same text. */
  stamp: string;
}

/** The file on disk: its text when small, else what was measured of it. */
export type DiskSource = { text: string; mtimeMs: number } | { facts: LargeDiskFacts; mtimeMs: number };

export interface StorySources {
  history: HistoryIndex;
  observed: ObservedVersions;
  /** The file on disk now, if it is there. */
  disk: DiskSource | null;
  /** Sessions whose lines carry the plan's slug (the session index's answer). */
  slugSessions: readonly string[];
  /** Earlier paths of the plan (a hook renamed it): their writes are its first versions. */
  earlierPaths?: readonly string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool_use items of a line's message. */
function toolUses(items: NodeView[]): NodeView[] {
  return items.filter((item) => item.get('type')?.str(16) === 'tool_use');
}

/** The input of the tool call in a write's line that wrote `filePath`. */
export function toolInput(write: Pick<LoggedWrite, 'log' | 'line' | 'tool' | 'filePath'>): Json | null {
  const line = readLineAt(write.log, write.line.start, write.line.end);
  for (const item of toolUses(line?.node('message')?.get('content')?.items() ?? [])) {
    if (item.get('name')?.str(16) !== write.tool) continue;
    const input = item.get('input');
    if (input?.get('file_path')?.str() === write.filePath) {
      const value = input.json();
      return isObject(value) ? value : null;
    }
  }
  return null;
}

const APPROVED_PLAN = '## Approved Plan:';

/** The exact text an ExitPlanMode call put before the person, where its log holds it (see ApprovedText). */
export function approvedText(exit: LoggedExit): string | null {
  if (exit.text === null) return null;
  const line = readLineAt(exit.log, exit.text.line.start, exit.text.line.end);
  if (line === null) return null;
  const items = line.node('message')?.get('content')?.items() ?? [];
  switch (exit.text.from) {
    case 'input':
      return toolUses(items).find((item) => item.get('id')?.str() === exit.toolUseId)?.get('input')?.get('plan')?.str() ?? null;
    case 'sidecar':
      return line.node('toolUseResult')?.get('plan')?.str() ?? null;
    case 'result': {
      const result = items.find((item) => item.get('type')?.str(16) === 'tool_result' && item.get('tool_use_id')?.str() === exit.toolUseId);
      const content = result?.get('content');
      const text = content?.kind === 'string' ? content.str() : content?.items().map((part) => part.get('text')?.str() ?? '').join('\n');
      const at = text?.indexOf(APPROVED_PLAN) ?? -1;
      return at === -1 ? null : text!.slice(at + APPROVED_PLAN.length).replace(/^\s*\n/, '');
    }
  }
}

/** `text` with one edit applied, or null when its old text is not there (a gap). */
export function applyEdit(text: string, edit: Json): string | null {
  const oldString = edit.old_string;
  const newString = edit.new_string;
  if (typeof oldString !== 'string' || typeof newString !== 'string' || oldString === '' || !text.includes(oldString)) return null;
  // split/join, not String.replace: `$&` and friends in new_string are text, not patterns.
  if (edit.replace_all === true) return text.split(oldString).join(newString);
  const at = text.indexOf(oldString);
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}

/** The text after a write, given the text before it (null: unknown, after a gap). */
export function applyWrite(tool: LoggedWrite['tool'], input: Json, before: string | null): string | null {
  if (tool === 'Write') return typeof input.content === 'string' ? input.content : null;
  if (before === null) return null;
  if (tool === 'Edit') return applyEdit(before, input);
  if (!Array.isArray(input.edits)) return null;
  let text: string | null = before;
  for (const edit of input.edits as unknown[]) {
    if (text === null || !isObject(edit)) return null;
    text = applyEdit(text, edit);
  }
  return text;
}

function versionOf(id: string, text: string, rest: Omit<StoryVersion, 'id' | 'size' | 'lineCount'>): StoryVersion {
  return { id, size: Buffer.byteLength(text), lineCount: countLines(text), ...rest };
}

/** The story of the plan file at `planPath`. */
export function planStory(planPath: string, sources: StorySources): PlanStory {
  const contents = new Map<string, string>();
  const versions: StoryVersion[] = [];
  const sessions = new Set<string>([...sources.slugSessions, ...sources.history.sessionsOf(planPath)]);

  // Transcript versions, in order; a gap leaves `current` unknown until the next Write.
  let current: string | null = null;
  let gap = false;
  // Texts are compared as strings; hashes (for the observed versions' shas) only when there are any to
  // compare with, since hashing a multi-MB plan's every version costs more than the rest of its story.
  const texts = new Set<string>();
  const writes = [planPath, ...(sources.earlierPaths ?? [])].flatMap((p) => sources.history.writesTo(p))
    .sort((a, b) => compareTimes(a.at, b.at) || (a.log < b.log ? -1 : a.log > b.log ? 1 : 0) || a.line.start - b.line.start);
  for (const write of writes) {
    if (write.sessionId) sessions.add(write.sessionId);
    const input = toolInput(write);
    const next: string | null = input === null ? null : applyWrite(write.tool, input, current);
    if (next === null) {
      gap = true;
      current = null;
      continue;
    }
    current = next;
    const id = `t${contentHash(`${write.log}\0${write.line.start}\0${write.tool}`).slice(0, 16)}`;
    contents.set(id, next);
    texts.add(next);
    versions.push(versionOf(id, next, {
      at: write.at, source: write.tool === 'Write' ? 'write' : 'edit', sessionId: write.sessionId, agentId: write.agentId, gapBefore: gap,
    }));
    gap = false;
  }

  // What the viewer saw of the file that no tool call explains (hand edits, other tools, earlier runs);
  // what is on disk now is the disk version below.
  const observed = sources.observed.of(planPath)?.versions ?? [];
  if (observed.length > 0) {
    const shas = new Set([...texts].map(contentHash));
    if (sources.disk !== null) shas.add('facts' in sources.disk ? sources.disk.facts.sha256 : contentHash(sources.disk.text));
    for (const version of observed) {
      if (shas.has(version.sha)) continue;
      const bytes = sources.observed.content(version.sha);
      if (bytes === null) continue;
      const text = bytes.toString('utf8');
      const id = `o${version.sha.slice(0, 16)}`;
      shas.add(version.sha);
      texts.add(text);
      contents.set(id, text);
      versions.push(versionOf(id, text, { at: version.at, source: 'observed', sessionId: null, agentId: null, gapBefore: false }));
    }
  }
  // The exact text a person approved, when the transcript holds it and it is none of the versions above.
  const { modes, exits } = sources.history.planModeEvents(planPath, sessions);
  for (const exit of exits) {
    if (exit.result !== 'approved') continue;
    const text = approvedText(exit);
    // A result's copy of the plan may differ from the file in its trailing newline only.
    if (text === null || [...texts].some((known) => known.trimEnd() === text.trimEnd())) continue;
    const id = `a${contentHash(`${exit.log}\0${exit.toolUseId}`).slice(0, 16)}`;
    texts.add(text);
    contents.set(id, text);
    versions.push(versionOf(id, text, { at: exit.at, source: 'approved', sessionId: exit.sessionId, agentId: null, gapBefore: false }));
  }
  versions.sort((a, b) => compareTimes(a.at, b.at));

  // The file on disk, when it is none of the versions above. A large one is known by its facts: a text of
  // another size cannot be it, and only one of the same size is hashed to tell.
  let largeDisk: PlanStory['largeDisk'] = null;
  const disk = sources.disk;
  const diskVersion = (id: string, size: number, lineCount: number): StoryVersion => ({
    id, size, lineCount, at: new Date(disk!.mtimeMs).toISOString(), source: 'disk', sessionId: null, agentId: null, gapBefore: gap,
  });
  if (disk !== null && 'facts' in disk) {
    const { facts } = disk;
    if (![...texts].some((text) => Buffer.byteLength(text) === facts.size && contentHash(text) === facts.sha256)) {
      largeDisk = { id: `d${facts.sha256.slice(0, 16)}`, facts };
      versions.push(diskVersion(largeDisk.id, facts.size, facts.lineCount));
    }
  } else if (disk !== null && !texts.has(disk.text)) {
    const id = `d${contentHash(disk.text).slice(0, 16)}`;
    contents.set(id, disk.text);
    versions.push(diskVersion(id, Buffer.byteLength(disk.text), countLines(disk.text)));
  }
  markGaps(versions);
  return { versions, events: storyEvents(modes, exits), sessions: [...sessions].sort(), contents, largeDisk };
}

/**
 * After sorting, a transcript version that follows a gap keeps its mark; an observed or disk version right
 * after it closes the gap (the story resumes there), so the mark moves to it.
 */
function markGaps(versions: StoryVersion[]): void {
  for (let i = 1; i < versions.length; i++) {
    const v = versions[i]!;
    if (v.gapBefore && versions[i - 1]!.source === 'observed') v.gapBefore = false;
  }
}

function storyEvents(modes: readonly ModeChange[], exits: readonly LoggedExit[]): StoryEvent[] {
  const events: StoryEvent[] = [
    ...modes.map((m): StoryEvent => ({ at: m.at, kind: m.kind === 'entered' ? 'plan-mode-entered' : 'plan-mode-exited', sessionId: m.sessionId, feedback: null })),
    ...exits.filter((e) => e.result !== null).map((e): StoryEvent => ({
      // The answer's time, not the call's: a person may read a plan for minutes before approving it.
      at: e.answeredAt ?? e.at, kind: e.result === 'approved' ? 'plan-approved' : 'plan-rejected', sessionId: e.sessionId, feedback: e.feedback,
    })),
  ];
  return events.sort((a, b) => compareTimes(a.at, b.at));
}

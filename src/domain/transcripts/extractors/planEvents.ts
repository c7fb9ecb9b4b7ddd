// What a plan's story needs from a transcript: the writes of markdown files (Write, Edit, MultiEdit: where
// the line is, not what it holds, which is read again when a story is asked for), ExitPlanMode calls and
// their answers (approved, or rejected with the person's words), where the exact approved text sits when
// the transcript holds it, and plan-mode attachments.
import { isSessionId } from '../../sessions/values.js';
import { isSpan, isText, readRows, type Extractor } from '../extractor.js';
import { K } from './keys.js';
import type { Key, LineView, NodeView, Span } from '../lineView.js';
import { contentItems, type LineHead } from './lineHead.js';

export type WriteTool = 'Write' | 'Edit' | 'MultiEdit';

/** A Write, Edit or MultiEdit of a `.md` file: its content is read from the line when needed. */
export interface FileWrite {
  tool: WriteTool;
  filePath: string;
  at: string | null;
  sessionId: string | null;
  agentId: string | null;
  line: Span;
}

/** Where the exact text a person approved sits. */
export interface ApprovedText {
  line: Span;
  /** ExitPlanMode's input `plan`, the approving line's `toolUseResult.plan`, or the result's `## Approved Plan:` text. */
  from: 'input' | 'sidecar' | 'result';
}

export interface ExitCall {
  toolUseId: string;
  at: string | null;
  sessionId: string | null;
  /** The plan file the call names (2.1.228 on), else null. */
  planFilePath: string | null;
  /** null until its result is seen. */
  result: 'approved' | 'rejected' | null;
  /** When the person answered: the result line's time (the call's is when the plan was put before them). */
  answeredAt: string | null;
  /** The words the user typed when rejecting, if any. */
  feedback: string | null;
  /** The text the call put before the person, when the transcript holds it. */
  text: ApprovedText | null;
}

export interface ModeChange {
  kind: 'entered' | 'exited';
  at: string | null;
  sessionId: string | null;
  planFilePath: string | null;
}

export interface PlanFacts {
  writes: FileWrite[];
  exits: ExitCall[];
  modes: ModeChange[];
}

export const planEvents: Extractor<PlanFacts> = {
  empty: () => ({ writes: [], exits: [], modes: [] }),
  line: planLine,
  save: ({ writes, exits, modes }) => ({
    w: writes.map((w) => [w.tool, w.filePath, w.at, w.sessionId, w.agentId, w.line.start, w.line.end]),
    x: exits.map((x) => [x.toolUseId, x.at, x.sessionId, x.planFilePath, x.result, x.feedback, x.text?.from ?? null, x.text?.line.start ?? 0, x.text?.line.end ?? 0, x.answeredAt]),
    m: modes.map((m) => [m.kind, m.at, m.sessionId, m.planFilePath]),
  }),
  restore(saved) {
    if (typeof saved !== 'object' || saved === null) return null;
    const { w, x, m } = saved as Record<string, unknown>;
    const writes = readRows(w, readWrite);
    const exits = readRows(x, readExit);
    const modes = readRows(m, readMode);
    return writes && exits && modes && { writes, exits, modes };
  },
};

const MAX_PATH_CHARS = 4096;
const MAX_FEEDBACK_CHARS = 2000;
/** How much of a tool result is read for the person's words: a rejection's answer is short. */
const MAX_RESULT_CHARS = 64 * 1024;
const APPROVED_PLAN = '## Approved Plan:';

function member(node: NodeView | null, key: Key, maxChars = MAX_PATH_CHARS): string | null {
  const text = node?.get(key)?.str(maxChars + 1) ?? null;
  return text === null || text === '' || text.length > maxChars ? null : text;
}

function planLine(facts: PlanFacts, line: LineView, head: LineHead): void {
  if (head.type === 'assistant') toolCalls(facts, line, head);
  else if (head.type === 'user') answers(facts, line, head);
  else if (head.type === 'attachment') attachment(facts, line, head);
}

function toolCalls(facts: PlanFacts, line: LineView, head: LineHead): void {
  for (const item of contentItems(line)) {
    if (member(item, K.type) !== 'tool_use') continue;
    const name = member(item, K.name);
    const input = item.get(K.input);
    if (name === 'Write' || name === 'Edit' || name === 'MultiEdit') {
      const filePath = member(input, K.file_path);
      if (filePath !== null && filePath.endsWith('.md')) {
        facts.writes.push({ tool: name satisfies WriteTool, filePath, at: head.at, sessionId: head.sessionId, agentId: head.agentId, line: head.line });
      }
    } else if (name === 'ExitPlanMode') {
      const toolUseId = member(item, K.id);
      if (toolUseId === null) continue;
      const plan = input?.get(K.plan)?.kind === 'string';
      facts.exits.push({
        toolUseId, at: head.at, sessionId: head.sessionId, planFilePath: member(input, K.planFilePath), result: null, answeredAt: null,
        feedback: null, text: plan ? { line: head.line, from: 'input' } : null,
      });
    }
  }
}

/** The tool results answering ExitPlanMode calls not answered yet. */
function answers(facts: PlanFacts, line: LineView, head: LineHead): void {
  if (!facts.exits.some((e) => e.result === null)) return;
  for (const item of contentItems(line)) {
    if (member(item, K.type) !== 'tool_result') continue;
    const id = member(item, K.tool_use_id);
    const exit = id === null ? undefined : facts.exits.find((e) => e.result === null && e.toolUseId === id);
    if (exit === undefined) continue;
    answer(exit, item, line, head);
  }
}

function answer(exit: ExitCall, item: NodeView, line: LineView, head: LineHead): void {
  const rejected = item.get(K.is_error)?.bool() === true;
  const text = resultText(item.get(K.content));
  exit.result = rejected ? 'rejected' : 'approved';
  exit.answeredAt = head.at;
  exit.feedback = rejected ? rejectionFeedback(text) : null;
  if (rejected) return;
  const sidecar = line.node(K.toolUseResult);
  // What the approving line carries is what the person approved, even if they changed it on the way.
  if (sidecar?.get(K.plan)?.kind === 'string') exit.text = { line: head.line, from: 'sidecar' };
  else if (text.includes(APPROVED_PLAN)) exit.text = { line: head.line, from: 'result' };
  exit.planFilePath ??= member(sidecar, K.filePath);
}

/** The words a user typed with a rejection: what follows "the user said:", else null. */
export function rejectionFeedback(result: string): string | null {
  const at = result.search(/the user said:\s*/i);
  if (at === -1) return null;
  const rest = result.slice(at).replace(/^the user said:\s*/i, '').trim();
  if (rest === '') return null;
  return rest.length > MAX_FEEDBACK_CHARS ? `${rest.slice(0, MAX_FEEDBACK_CHARS)}…` : rest;
}

function resultText(content: NodeView | null): string {
  if (content === null) return '';
  if (content.kind === 'string') return content.str(MAX_RESULT_CHARS) ?? '';
  return content.items().map((part) => member(part, K.text, MAX_RESULT_CHARS) ?? '').join('\n');
}

function attachment(facts: PlanFacts, line: LineView, head: LineHead): void {
  const node = line.node(K.attachment);
  const type = member(node, K.type);
  const kind = type === 'plan_mode' || type === 'plan_mode_reentry' ? 'entered' : type === 'plan_mode_exit' ? 'exited' : null;
  if (kind === null) return;
  facts.modes.push({ kind, at: head.at, sessionId: head.sessionId, planFilePath: member(node, K.planFilePath) });
}

function optSession(value: unknown): value is string | null {
  return value === null || (typeof value === 'string' && isSessionId(value));
}

function readWrite([tool, filePath, at, sessionId, agentId, start, end]: unknown[]): FileWrite | null {
  if (tool !== 'Write' && tool !== 'Edit' && tool !== 'MultiEdit') return null;
  if (typeof filePath !== 'string' || !isText(at) || !optSession(sessionId) || !isText(agentId) || !isSpan(start, end)) return null;
  return { tool, filePath, at, sessionId, agentId, line: { start: start as number, end: end as number } };
}

function readExit([toolUseId, at, sessionId, planFilePath, result, feedback, from, start, end, answeredAt]: unknown[]): ExitCall | null {
  if (typeof toolUseId !== 'string' || !isText(at) || !optSession(sessionId) || !isText(planFilePath) || !isText(feedback) || !isText(answeredAt)) return null;
  if (result !== null && result !== 'approved' && result !== 'rejected') return null;
  if (from !== null && from !== 'input' && from !== 'sidecar' && from !== 'result') return null;
  if (!isSpan(start, end)) return null;
  return { toolUseId, at, sessionId, planFilePath, result, feedback, answeredAt, text: from === null ? null : { from, line: { start: start as number, end: end as number } } };
}

function readMode([kind, at, sessionId, planFilePath]: unknown[]): ModeChange | null {
  if ((kind !== 'entered' && kind !== 'exited') || !isText(at) || !optSession(sessionId) || !isText(planFilePath)) return null;
  return { kind, at, sessionId, planFilePath };
}

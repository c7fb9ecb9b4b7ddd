// What the marked lines of a session log say about plans and sessions (see lineMarks.ts for which lines):
// the writes of markdown files (Write, Edit, MultiEdit: where the line is, not what it holds, which is
// read again when a plan's story is asked for), ExitPlanMode calls and their answers, plan-mode
// attachments, and each session's card facts. Lines are parsed with JSON.parse after bounds on size and
// nesting (docs/security.md, rule 18); anything of another shape is skipped, never an error.
import { jsonNestsDeeperThan } from '../../config/settings.js';
import type { LineRange } from './lineMarks.js';

/** Marked lines longer than this are not parsed (a plan written whole in one line is far smaller). */
export const MAX_PARSED_LINE_BYTES = 16 * 1024 * 1024;
const MAX_NESTING = 128;
const MAX_TEXT_CHARS = 2000;

export type WriteTool = 'Write' | 'Edit' | 'MultiEdit';

/** A Write, Edit or MultiEdit of a `.md` file: its content is read from the line when needed. */
export interface FileWrite {
  tool: WriteTool;
  filePath: string;
  at: string | null;
  sessionId: string | null;
  agentId: string | null;
  line: LineRange;
}

export interface ExitCall {
  toolUseId: string;
  at: string | null;
  sessionId: string | null;
  /** null until its result is seen. */
  result: 'approved' | 'rejected' | null;
  /** The words the user typed when rejecting, if any. */
  feedback: string | null;
}

export interface ModeChange {
  kind: 'entered' | 'exited';
  at: string | null;
  sessionId: string | null;
  planFilePath: string | null;
}

export interface SessionFacts {
  customTitle: string | null;
  aiTitle: string | null;
  summary: string | null;
  firstPrompt: string | null;
  lastPrompt: string | null;
  gitBranch: string | null;
  cwd: string | null;
  version: string | null;
  entrypoint: string | null;
  firstAt: string | null;
  lastAt: string | null;
  costUsd: number | null;
  linesAdded: number | null;
  linesRemoved: number | null;
}

/** The session texts a search can point into the log for. */
export type SessionText = 'customTitle' | 'aiTitle' | 'summary' | 'firstPrompt' | 'lastPrompt';

/** The 1-based line of this log each of a session's texts came from (a search result points there). */
export type SessionLines = Partial<Record<SessionText, number>>;

export interface TranscriptFacts {
  writes: FileWrite[];
  exits: ExitCall[];
  modes: ModeChange[];
  sessions: Record<string, SessionFacts>;
  lines: Record<string, SessionLines>;
}

export function emptyTranscriptFacts(): TranscriptFacts {
  return { writes: [], exits: [], modes: [], sessions: {}, lines: {} };
}

export function emptySessionFacts(): SessionFacts {
  return {
    customTitle: null, aiTitle: null, summary: null, firstPrompt: null, lastPrompt: null, gitBranch: null, cwd: null,
    version: null, entrypoint: null, firstAt: null, lastAt: null, costUsd: null, linesAdded: null, linesRemoved: null,
  };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function clip(value: string | null): string | null {
  return value === null ? null : value.length > MAX_TEXT_CHARS ? `${value.slice(0, MAX_TEXT_CHARS)}…` : value;
}

/** A marked line as an object, or null when it is too large, too deep, torn or not an object. */
export function parseLine(bytes: Buffer): Json | null {
  if (bytes.length > MAX_PARSED_LINE_BYTES) return null;
  const line = bytes.toString('utf8');
  if (jsonNestsDeeperThan(line, MAX_NESTING)) return null;
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Where a log's lines belong when they do not say: its session, and its subagent when it is one's. */
export interface LogOwner {
  sessionId: string | null;
  agentId: string | null;
}

/** A session's facts and the lines its texts came from, with the number of the line being folded in. */
interface SessionAt {
  facts: SessionFacts;
  lines: SessionLines;
  number: number;
}

/** Folds one parsed line, the `number`th of its log, into the facts of its log. */
export function applyLine(facts: TranscriptFacts, line: Json, range: LineRange, number: number, owner: LogOwner): void {
  const sessionId = text(line.sessionId) ?? owner.sessionId;
  const at = text(line.timestamp);
  const session: SessionAt | null = sessionId === null ? null
    : { facts: (facts.sessions[sessionId] ??= emptySessionFacts()), lines: (facts.lines[sessionId] ??= {}), number };
  if (session !== null) noteSession(session, line, at);
  const type = line.type;
  if (type === 'assistant') noteToolCalls(facts, line, range, { at, sessionId, agentId: text(line.agentId) ?? owner.agentId });
  else if (type === 'user') noteUserLine(facts, session, line);
  else if (type === 'attachment') noteAttachment(facts, line, at, sessionId);
}

/** Sets one of the session's texts when the line holds one, and notes the line it came from. */
function setText(session: SessionAt, key: SessionText, value: unknown): void {
  const found = clip(text(value));
  if (found === null) return;
  session.facts[key] = found;
  session.lines[key] = session.number;
}

function noteSession(where: SessionAt, line: Json, at: string | null): void {
  const session = where.facts;
  switch (line.type) {
    case 'custom-title':
      setText(where, 'customTitle', line.customTitle);
      return;
    case 'ai-title':
      setText(where, 'aiTitle', line.aiTitle);
      return;
    case 'summary':
      setText(where, 'summary', line.summary);
      return;
    case 'last-prompt':
      setText(where, 'lastPrompt', line.lastPrompt);
      return;
    case 'cost-state':
      if (typeof line.totalCostUSD === 'number') session.costUsd = line.totalCostUSD;
      if (typeof line.totalLinesAdded === 'number') session.linesAdded = line.totalLinesAdded;
      if (typeof line.totalLinesRemoved === 'number') session.linesRemoved = line.totalLinesRemoved;
      return;
  }
  if (at !== null) {
    if (session.firstAt === null || at < session.firstAt) session.firstAt = at;
    if (session.lastAt === null || at > session.lastAt) session.lastAt = at;
  }
  session.gitBranch = text(line.gitBranch) ?? session.gitBranch;
  session.cwd = text(line.cwd) ?? session.cwd;
  session.version = text(line.version) ?? session.version;
  session.entrypoint = text(line.entrypoint) ?? session.entrypoint;
}

function contentItems(line: Json): unknown[] {
  const message = line.message;
  if (!isObject(message)) return [];
  return Array.isArray(message.content) ? message.content : [];
}

function noteToolCalls(facts: TranscriptFacts, line: Json, range: LineRange, where: { at: string | null; sessionId: string | null; agentId: string | null }): void {
  for (const item of contentItems(line)) {
    if (!isObject(item) || item.type !== 'tool_use') continue;
    const name = item.name;
    const input = isObject(item.input) ? item.input : {};
    if (name === 'Write' || name === 'Edit' || name === 'MultiEdit') {
      const filePath = text(input.file_path);
      if (filePath !== null && filePath.endsWith('.md')) facts.writes.push({ tool: name, filePath, ...where, line: range });
    } else if (name === 'ExitPlanMode' && typeof item.id === 'string') {
      facts.exits.push({ toolUseId: item.id, at: where.at, sessionId: where.sessionId, result: null, feedback: null });
    }
  }
}

/** The words a user typed with a rejection: what follows "the user said:", else null. */
export function rejectionFeedback(result: string): string | null {
  const at = result.search(/the user said:\s*/i);
  if (at === -1) return null;
  const rest = result.slice(at).replace(/^the user said:\s*/i, '').trim();
  return rest === '' ? null : clip(rest);
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('\n');
}

function noteUserLine(facts: TranscriptFacts, session: SessionAt | null, line: Json): void {
  const message = line.message;
  if (!isObject(message)) return;
  if (typeof message.content === 'string') {
    if (session !== null && session.facts.firstPrompt === null && !line.isMeta) setText(session, 'firstPrompt', message.content);
    return;
  }
  for (const item of contentItems(line)) {
    if (!isObject(item)) continue;
    if (item.type === 'text' && session !== null && session.facts.firstPrompt === null && !line.isMeta) {
      setText(session, 'firstPrompt', item.text);
    } else if (item.type === 'tool_result' && typeof item.tool_use_id === 'string') {
      const exit = facts.exits.find((e) => e.toolUseId === item.tool_use_id);
      if (exit === undefined) continue;
      const rejected = item.is_error === true;
      exit.result = rejected ? 'rejected' : 'approved';
      exit.feedback = rejected ? rejectionFeedback(resultText(item.content)) : null;
    }
  }
}

function noteAttachment(facts: TranscriptFacts, line: Json, at: string | null, sessionId: string | null): void {
  const attachment = line.attachment;
  if (!isObject(attachment)) return;
  const kind = attachment.type === 'plan_mode' || attachment.type === 'plan_mode_reentry' ? 'entered'
    : attachment.type === 'plan_mode_exit' ? 'exited' : null;
  if (kind === null) return;
  facts.modes.push({ kind, at, sessionId, planFilePath: text(attachment.planFilePath) });
}

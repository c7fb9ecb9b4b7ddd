// The work a session did, as its lines say: every tool call (which tool, when, which file or command, where
// the line is), whether its result was an error, the tokens each model answer used, the time each turn
// took, pull requests opened, and `task_status` attachments (kept as calls of that name). What a call changed (its diff, its lines added and removed) and a task
// list's states are read from the call's line again when an outcome is asked for (domain/outcome/), so the
// pass over every log keeps only what places the work in time.
import { isSessionId } from '../../sessions/values.js';
import { isCount, isSpan, isText, readRows, type Extractor } from '../extractor.js';
import { fieldKey, type LineView, type NodeView, type Span } from '../lineView.js';
import { K } from './keys.js';
import { contentItems, shortString, type LineHead } from './lineHead.js';

/** A command longer than this is kept cut (the whole command is in its line). */
const MAX_COMMAND_CHARS = 2000;
const MAX_PATH_CHARS = 4096;

const W = {
  usage: fieldKey('usage'),
  model: fieldKey('model'),
  input_tokens: fieldKey('input_tokens'),
  output_tokens: fieldKey('output_tokens'),
  cache_read_input_tokens: fieldKey('cache_read_input_tokens'),
  cache_creation_input_tokens: fieldKey('cache_creation_input_tokens'),
  subtype: fieldKey('subtype'),
  durationMs: fieldKey('durationMs'),
  command: fieldKey('command'),
  notebook_path: fieldKey('notebook_path'),
  prNumber: fieldKey('prNumber'),
  prUrl: fieldKey('prUrl'),
  prRepository: fieldKey('prRepository'),
  requestId: fieldKey('requestId'),
} as const;

/** One tool call. `target` is the file an edit wrote or the command a shell ran. */
export interface WorkCall {
  id: string;
  name: string;
  at: string | null;
  sessionId: string | null;
  agentId: string | null;
  target: string | null;
  line: Span;
  /** null until its result is seen. */
  error: boolean | null;
  /** The line holding its result (the diff Claude Code applied, the command's output). */
  result: Span | null;
}

/** The tokens of one model answer (counted once, though Claude Code writes one line per content block). */
export interface WorkUsage {
  at: string | null;
  sessionId: string | null;
  agentId: string | null;
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface WorkTurn {
  at: string | null;
  sessionId: string | null;
  ms: number;
}

export interface PullRequest {
  at: string | null;
  sessionId: string | null;
  number: number | null;
  url: string;
  repository: string | null;
}

export interface WorkFacts {
  calls: WorkCall[];
  usage: WorkUsage[];
  turns: WorkTurn[];
  prs: PullRequest[];
  /**
   * The last model answers whose usage is counted, so a later line of the same answer is not (its lines
   * follow each other, with at most the results of its own calls between them).
   */
  answers: string[];
}

const ANSWERS_KEPT = 16;

/** The attachment type of a task list's change, kept among the calls under this name. */
export const TASK_STATUS = 'task_status';

/** Tools that write a file, and the input member naming it. */
const FILE_TOOLS = new Map([['Write', K.file_path], ['Edit', K.file_path], ['MultiEdit', K.file_path], ['NotebookEdit', W.notebook_path]]);

export const work: Extractor<WorkFacts> = {
  empty: () => ({ calls: [], usage: [], turns: [], prs: [], answers: [] }),
  line: workLine,
  save: (facts) => ({
    c: facts.calls.map((c) => [c.id, c.name, c.at, c.sessionId, c.agentId, c.target, c.line.start, c.line.end, c.error, c.result?.start ?? -1, c.result?.end ?? -1]),
    u: facts.usage.map((u) => [u.at, u.sessionId, u.agentId, u.model, u.input, u.output, u.cacheRead, u.cacheWrite]),
    t: facts.turns.map((t) => [t.at, t.sessionId, t.ms]),
    p: facts.prs.map((p) => [p.at, p.sessionId, p.number, p.url, p.repository]),
    a: facts.answers,
  }),
  restore(saved) {
    if (typeof saved !== 'object' || saved === null) return null;
    const { c, u, t, p, a } = saved as Record<string, unknown>;
    const calls = readRows(c, readCall);
    const usage = readRows(u, readUsage);
    const turns = readRows(t, ([at, sessionId, ms]) => (isText(at) && optSession(sessionId) && isCount(ms) ? { at, sessionId, ms } : null));
    const prs = readRows(p, readPr);
    if (!Array.isArray(a) || a.length > ANSWERS_KEPT || !a.every((id) => typeof id === 'string')) return null;
    return calls && usage && turns && prs && { calls, usage, turns, prs, answers: a as string[] };
  },
};

function workLine(facts: WorkFacts, line: LineView, head: LineHead): void {
  switch (head.type) {
    case 'assistant':
      return assistant(facts, line, head);
    case 'user':
      return results(facts, line, head);
    case 'system':
      if (shortString(line, W.subtype) === 'turn_duration') {
        const ms = line.num(W.durationMs);
        if (ms !== null && Number.isFinite(ms) && ms >= 0) facts.turns.push({ at: head.at, sessionId: head.sessionId, ms: Math.round(ms) });
      }
      return;
    case 'attachment':
      // A task list's change Claude Code reported (read whole when an outcome asks: domain/outcome/tasks.ts).
      if (line.node(K.attachment)?.get(K.type)?.str(TASK_STATUS.length + 1) === TASK_STATUS) {
        facts.calls.push({
          id: `${TASK_STATUS}@${head.line.start}`, name: TASK_STATUS, at: head.at, sessionId: head.sessionId, agentId: head.agentId,
          target: null, line: head.line, error: false, result: null,
        });
      }
      return;
    case 'pr-link': {
      const url = line.str(W.prUrl, MAX_PATH_CHARS + 1);
      if (url === null || url === '' || url.length > MAX_PATH_CHARS) return;
      const number = line.num(W.prNumber);
      facts.prs.push({ at: head.at, sessionId: head.sessionId, number: number !== null && Number.isSafeInteger(number) ? number : null, url, repository: shortString(line, W.prRepository) });
      return;
    }
  }
}

function text(node: NodeView | null, key: typeof K.id, maxChars: number): string | null {
  const value = node?.get(key)?.str(maxChars + 1) ?? null;
  return value === null || value === '' ? null : value.length > maxChars ? value.slice(0, maxChars) : value;
}

function assistant(facts: WorkFacts, line: LineView, head: LineHead): void {
  const message = line.node(K.message);
  if (message === null) return;
  const usage = message.get(W.usage);
  if (usage !== null && usage.kind === 'object') {
    // One answer is written as one line per content block, each with the answer's usage.
    const answer = text(message, K.id, 256) ?? shortString(line, W.requestId);
    if (answer === null || !facts.answers.includes(answer)) {
      if (answer !== null) {
        facts.answers.push(answer);
        if (facts.answers.length > ANSWERS_KEPT) facts.answers.shift();
      }
      const count = (key: typeof K.id): number => {
        const n = usage.get(key)?.num() ?? null;
        return n !== null && Number.isSafeInteger(n) && n > 0 ? n : 0;
      };
      const row: WorkUsage = {
        at: head.at, sessionId: head.sessionId, agentId: head.agentId, model: text(message, W.model, 128) ?? 'unknown',
        input: count(W.input_tokens), output: count(W.output_tokens), cacheRead: count(W.cache_read_input_tokens), cacheWrite: count(W.cache_creation_input_tokens),
      };
      // Claude Code's own notes (model `<synthetic>`) cost nothing.
      if (row.input + row.output + row.cacheRead + row.cacheWrite > 0) facts.usage.push(row);
    }
  }
  for (const item of contentItems(line)) {
    if (text(item, K.type, 32) !== 'tool_use') continue;
    const id = text(item, K.id, 256);
    const name = text(item, K.name, 128);
    if (id === null || name === null) continue;
    const input = item.get(K.input);
    const fileKey = FILE_TOOLS.get(name);
    const target = fileKey !== undefined ? text(input, fileKey, MAX_PATH_CHARS) : name === 'Bash' ? text(input, W.command, MAX_COMMAND_CHARS) : null;
    const call: WorkCall = { id, name, at: head.at, sessionId: head.sessionId, agentId: head.agentId, target, line: head.line, error: null, result: null };
    facts.calls.push(call);
    pending(facts).set(id, call);
  }
}

/** Calls not answered yet, by id: made again from the calls after a restore or a copy of the facts. */
const pendingOf = new WeakMap<WorkFacts, Map<string, WorkCall>>();

function pending(facts: WorkFacts): Map<string, WorkCall> {
  let calls = pendingOf.get(facts);
  if (calls === undefined) {
    calls = new Map();
    for (const call of facts.calls) if (call.error === null) calls.set(call.id, call);
    pendingOf.set(facts, calls);
  }
  return calls;
}

function results(facts: WorkFacts, line: LineView, head: LineHead): void {
  const waiting = pending(facts);
  if (waiting.size === 0) return;
  for (const item of contentItems(line)) {
    if (text(item, K.type, 32) !== 'tool_result') continue;
    const id = text(item, K.tool_use_id, 256);
    const call = id === null ? undefined : waiting.get(id);
    if (call === undefined) continue;
    call.error = item.get(K.is_error)?.bool() === true;
    call.result = head.line;
    waiting.delete(call.id);
  }
}

function optSession(value: unknown): value is string | null {
  return value === null || (typeof value === 'string' && isSessionId(value));
}

function readCall([id, name, at, sessionId, agentId, target, start, end, error, resultStart, resultEnd]: unknown[]): WorkCall | null {
  if (typeof id !== 'string' || typeof name !== 'string' || !isText(at) || !optSession(sessionId) || !isText(agentId) || !isText(target)) return null;
  if (!isSpan(start, end) || (error !== null && typeof error !== 'boolean')) return null;
  const result = resultStart === -1 && resultEnd === -1 ? null : isSpan(resultStart, resultEnd) ? { start: resultStart as number, end: resultEnd as number } : undefined;
  if (result === undefined) return null;
  return { id, name, at, sessionId, agentId, target, line: { start: start as number, end: end as number }, error, result };
}

function readUsage([at, sessionId, agentId, model, input, output, cacheRead, cacheWrite]: unknown[]): WorkUsage | null {
  if (!isText(at) || !optSession(sessionId) || !isText(agentId) || typeof model !== 'string') return null;
  if (!isCount(input) || !isCount(output) || !isCount(cacheRead) || !isCount(cacheWrite)) return null;
  return { at, sessionId, agentId, model, input, output, cacheRead, cacheWrite };
}

function readPr([at, sessionId, number, url, repository]: unknown[]): PullRequest | null {
  if (!isText(at) || !optSession(sessionId) || (number !== null && !isCount(number)) || typeof url !== 'string' || !isText(repository)) return null;
  return { at, sessionId, number, url, repository };
}

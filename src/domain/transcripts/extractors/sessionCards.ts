// A session card's facts, per session a log names: its titles, the first and last prompts the person
// typed, its first and last times, branch, version, entrypoint and cost. Prompts come only from the
// session's own transcript (a subagent's log starts with the task its parent gave it) and only from lines
// the person typed: not meta lines, compaction summaries, slash-command echoes or interruptions.
import { isSessionId } from '../../sessions/values.js';
import { isCount, readRows, type Extractor } from '../extractor.js';
import { K } from './keys.js';
import type { LineView, NodeView } from '../lineView.js';
import { shortString, type LineHead } from './lineHead.js';

export interface SessionFacts {
  customTitle: string | null;
  aiTitle: string | null;
  summary: string | null;
  firstPrompt: string | null;
  lastPrompt: string | null;
  gitBranch: string | null;
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
export const SESSION_TEXTS: readonly SessionText[] = ['customTitle', 'aiTitle', 'summary', 'firstPrompt', 'lastPrompt'];

/** The 1-based line of this log each of a session's texts came from (a search result points there). */
export type SessionLines = Partial<Record<SessionText, number>>;

/** Per session the log names: its facts, and where its texts came from. */
export interface CardFacts {
  sessions: Map<string, SessionFacts>;
  lines: Map<string, SessionLines>;
}

export function emptySessionFacts(): SessionFacts {
  return {
    customTitle: null, aiTitle: null, summary: null, firstPrompt: null, lastPrompt: null, gitBranch: null,
    version: null, entrypoint: null, firstAt: null, lastAt: null, costUsd: null, linesAdded: null, linesRemoved: null,
  };
}

const SESSION_FIELDS = Object.keys(emptySessionFacts()) as (keyof SessionFacts)[];
const NUMBER_FIELDS = new Set<keyof SessionFacts>(['costUsd', 'linesAdded', 'linesRemoved']);

export const sessionCards: Extractor<CardFacts> = {
  empty: () => ({ sessions: new Map(), lines: new Map() }),
  line: cardLine,
  save: (facts) => [...facts.sessions].map(([id, s]) => [id, SESSION_FIELDS.map((k) => s[k]), SESSION_TEXTS.map((k) => facts.lines.get(id)?.[k] ?? 0)]),
  restore(saved) {
    const rows = readRows(saved, ([id, values, lines]) => {
      if (typeof id !== 'string' || !isSessionId(id)) return null;
      const facts = readSession(values);
      const numbers = readLines(lines);
      return facts && numbers && ([id, facts, numbers] as const);
    });
    if (rows === null) return null;
    const cards: CardFacts = { sessions: new Map(), lines: new Map() };
    for (const [id, facts, lines] of rows) {
      if (cards.sessions.has(id)) return null;
      cards.sessions.set(id, facts);
      cards.lines.set(id, lines);
    }
    return cards;
  },
};

const MAX_TEXT_CHARS = 2000;

/**
 * What Claude Code writes as a user line but the person did not type: slash commands and their output,
 * `!` shell runs, hook and system notes. Such a text starts with one of these tags.
 */
const NOT_TYPED_TAGS = [
  'command-name', 'command-message', 'command-args', 'local-command-stdout', 'local-command-stderr',
  'local-command-caveat', 'bash-input', 'bash-stdout', 'bash-stderr', 'user-prompt-submit-hook',
  'system-reminder', 'task-notification', 'command-contents',
];
const NOT_TYPED_PREFIXES = NOT_TYPED_TAGS.map((tag) => `<${tag}>`);
const INTERRUPTED = '[Request interrupted';

interface SessionAt {
  facts: SessionFacts;
  lines: SessionLines;
  number: number;
}

function clip(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}…` : text;
}

function setText(session: SessionAt, key: SessionText, text: string | null): void {
  const found = clip(text);
  if (found === null) return;
  session.facts[key] = found;
  session.lines[key] = session.number;
}

function cardLine(facts: CardFacts, line: LineView, head: LineHead): void {
  const sessionId = head.sessionId;
  if (sessionId === null) return;
  let sessionFacts = facts.sessions.get(sessionId);
  if (sessionFacts === undefined) facts.sessions.set(sessionId, (sessionFacts = emptySessionFacts()));
  let lines = facts.lines.get(sessionId);
  if (lines === undefined) facts.lines.set(sessionId, (lines = {}));
  const session: SessionAt = { facts: sessionFacts, lines, number: head.number };
  const at = head.at;
  if (at !== null) {
    if (sessionFacts.firstAt === null || at < sessionFacts.firstAt) sessionFacts.firstAt = at;
    if (sessionFacts.lastAt === null || at > sessionFacts.lastAt) sessionFacts.lastAt = at;
  }
  switch (head.type) {
    case 'custom-title':
      return setText(session, 'customTitle', line.str(K.customTitle, MAX_TEXT_CHARS + 1));
    case 'ai-title':
      return setText(session, 'aiTitle', line.str(K.aiTitle, MAX_TEXT_CHARS + 1));
    case 'summary':
      return setText(session, 'summary', line.str(K.summary, MAX_TEXT_CHARS + 1));
    case 'last-prompt':
      return setText(session, 'lastPrompt', line.str(K.lastPrompt, MAX_TEXT_CHARS + 1));
    case 'cost-state':
      sessionFacts.costUsd = line.num(K.totalCostUSD) ?? sessionFacts.costUsd;
      sessionFacts.linesAdded = line.num(K.totalLinesAdded) ?? sessionFacts.linesAdded;
      sessionFacts.linesRemoved = line.num(K.totalLinesRemoved) ?? sessionFacts.linesRemoved;
      return;
  }
  sessionFacts.gitBranch = shortString(line, K.gitBranch) ?? sessionFacts.gitBranch;
  sessionFacts.version = shortString(line, K.version) ?? sessionFacts.version;
  sessionFacts.entrypoint = shortString(line, K.entrypoint) ?? sessionFacts.entrypoint;
  if (head.type === 'user' && head.owner.main) {
    const prompt = typedPrompt(line);
    if (prompt !== null) {
      if (sessionFacts.firstPrompt === null) setText(session, 'firstPrompt', prompt);
      setText(session, 'lastPrompt', prompt);
    }
  }
}

/** The text of a user line the person typed, or null when it is none (see the top of this file). */
export function typedPrompt(line: LineView): string | null {
  if (line.bool(K.isMeta) === true || line.bool(K.isCompactSummary) === true || line.bool(K.isSidechain) === true) return null;
  if (line.bool(K.isVisibleInTranscriptOnly) === true) return null;
  const content = line.node(K.message)?.get(K.content) ?? null;
  const text = content === null ? null : contentText(content);
  if (text === null) return null;
  const start = text.trimStart();
  if (start === '' || start.startsWith(INTERRUPTED) || NOT_TYPED_PREFIXES.some((p) => start.startsWith(p))) return null;
  return text;
}

/** A prompt's text: a string, or the text parts of a list that holds no tool result. */
function contentText(content: NodeView): string | null {
  if (content.kind === 'string') return content.str(MAX_TEXT_CHARS + 1);
  const texts: string[] = [];
  for (const part of content.items()) {
    const type = part.get(K.type)?.str(32);
    if (type === 'tool_result') return null;
    if (type === 'text') {
      const text = part.get(K.text)?.str(MAX_TEXT_CHARS + 1);
      if (text) texts.push(text);
    }
  }
  return texts.length === 0 ? null : texts.join('\n');
}

function readSession(value: unknown): SessionFacts | null {
  if (!Array.isArray(value) || value.length !== SESSION_FIELDS.length) return null;
  const facts = emptySessionFacts() as unknown as Record<string, unknown>;
  for (let i = 0; i < SESSION_FIELDS.length; i++) {
    const key = SESSION_FIELDS[i]!;
    const v: unknown = value[i];
    if (v !== null && (NUMBER_FIELDS.has(key) ? typeof v !== 'number' || !Number.isFinite(v) : typeof v !== 'string')) return null;
    facts[key] = v;
  }
  return facts as unknown as SessionFacts;
}

function readLines(value: unknown): SessionLines | null {
  if (!Array.isArray(value) || value.length !== SESSION_TEXTS.length) return null;
  const lines: SessionLines = {};
  for (let i = 0; i < SESSION_TEXTS.length; i++) {
    const v: unknown = value[i];
    if (!isCount(v)) return null;
    if (v > 0) lines[SESSION_TEXTS[i]!] = v;
  }
  return lines;
}

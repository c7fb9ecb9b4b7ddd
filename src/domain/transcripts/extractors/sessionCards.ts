// A session card's facts, per session a log names: its titles, the first and last prompts the person
// typed, its first and last times, branch, version, entrypoint and cost. Prompts come only from the
// session's own transcript (a subagent's log starts with the task its parent gave it) and only from lines
// the person typed: not meta lines, compaction summaries, slash-command echoes or interruptions.
import { K } from './keys.js';
import type { LineView, NodeView } from '../lineView.js';
import { emptySessionFacts, type CardFacts, type SessionFacts, type SessionLines, type SessionText } from '../logFacts.js';
import { shortString, type LineHead } from './lineHead.js';

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

export function cardLine(facts: CardFacts, line: LineView, head: LineHead): void {
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

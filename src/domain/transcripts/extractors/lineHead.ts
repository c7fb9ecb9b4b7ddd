// What every extractor asks of a line first, decoded once: its type, session, time and subagent.
import { isSessionId } from '../../sessions/values.js';
import { K } from './keys.js';
import type { Key, LineView, NodeView, Span } from '../lineView.js';
import type { LogOwner } from '../logFacts.js';

export interface LineHead {
  type: string | null;
  /** The line's own sessionId when it is a valid one. */
  ownSessionId: string | null;
  /** Its session: its own, or the log's when it names none (a summary line); null when it names no valid one. */
  sessionId: string | null;
  agentId: string | null;
  at: string | null;
  owner: LogOwner;
  /** Where the line is in its log, its `\n` excluded. */
  line: Span;
  /** Its 1-based number in the log. */
  number: number;
}

const MAX_SHORT_CHARS = 256;

/** `check` with its last answer kept: consecutive lines repeat one session id, cwd or slug. */
export function lastAnswerOf(check: (value: string) => boolean): (value: string) => boolean {
  let last: string | null = null;
  let answer = false;
  return (value) => {
    if (value !== last) {
      last = value;
      answer = check(value);
    }
    return answer;
  };
}

const sessionIdOk = lastAnswerOf(isSessionId);

/** A short string member (a type, an id, a time), or null when absent, empty or too long to be one. */
export function shortString(line: LineView, key: Key): string | null {
  const text = line.str(key, MAX_SHORT_CHARS + 1);
  return text === null || text === '' || text.length > MAX_SHORT_CHARS ? null : text;
}

export function lineHead(line: LineView, owner: LogOwner, span: Span, number: number): LineHead {
  const own = shortString(line, K.sessionId);
  const ownSessionId = own !== null && sessionIdOk(own) ? own : null;
  return {
    type: shortString(line, K.type),
    ownSessionId,
    // A line that names no session is its log's; one that names something else than a session id, nobody's.
    sessionId: line.has(K.sessionId) ? ownSessionId : owner.sessionId,
    agentId: shortString(line, K.agentId) ?? owner.agentId,
    at: shortString(line, K.timestamp),
    owner,
    line: span,
    number,
  };
}

/** A line's `message.content` items ([] when it has none). */
export function contentItems(line: LineView): NodeView[] {
  return line.node(K.message)?.get(K.content)?.items() ?? [];
}

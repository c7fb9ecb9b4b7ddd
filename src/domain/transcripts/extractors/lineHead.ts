// What every extractor asks of a line first, decoded once: its type, session, time and subagent.
import { isSessionId } from '../../sessions/values.js';
import type { LineView, Span } from '../lineView.js';
import type { LogOwner } from '../logFacts.js';

export interface LineHead {
  type: string | null;
  /** The line's own sessionId when it is a valid one. */
  ownSessionId: string | null;
  /** Its session: its own, else the log's. */
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

/** A short string member (a type, an id, a time), or null when absent, empty or too long to be one. */
export function shortString(line: LineView, key: string): string | null {
  const text = line.str(key, MAX_SHORT_CHARS + 1);
  return text === null || text === '' || text.length > MAX_SHORT_CHARS ? null : text;
}

export function lineHead(line: LineView, owner: LogOwner, span: Span, number: number): LineHead {
  const own = shortString(line, 'sessionId');
  const ownSessionId = own !== null && isSessionId(own) ? own : null;
  return {
    type: shortString(line, 'type'),
    ownSessionId,
    sessionId: ownSessionId ?? owner.sessionId,
    agentId: shortString(line, 'agentId') ?? owner.agentId,
    at: shortString(line, 'timestamp'),
    owner,
    line: span,
    number,
  };
}

// What one session log says, as of its last read: the plan list's links, the reader's counts, and the
// facts each extractor keeps (extractors/index.ts). Everything derived from a transcript comes from here;
// the reader (transcriptReader.ts) is the only code that fills it. Keys that come from files (session ids,
// slugs) only ever go into Maps.
import { emptyExtracted, type LogFacts } from './extractors/index.js';

export type { LogFacts } from './extractors/index.js';

/** Where a log's lines belong when they do not say: its session, and its subagent when it is one's. */
export interface LogOwner {
  sessionId: string | null;
  agentId: string | null;
  /** A session's own transcript (`<uuid>.jsonl`), not a subagent's. */
  main: boolean;
  /** The project folder the log is in (named after the cwd the session started in). */
  folder: string;
}

/**
 * How sure a session's cwd is to be the one it started in (see links.ts): 2, a cwd whose encoding is the
 * project folder's name (the one Claude Code named the folder after); 1, the first cwd of the session's own
 * transcript; 0, the first cwd of a subagent's log.
 */
export type CwdRank = 0 | 1 | 2;

export interface SessionCwd {
  cwd: string;
  rank: CwdRank;
}

/** What the plan list needs: which session carries a slug, and where each session started. */
export interface LinkFacts {
  /** slug -> sessionId of the last line carrying the slug. */
  slugs: Map<string, string>;
  /** sessionId -> the cwd it started in. */
  sessions: Map<string, SessionCwd>;
  /** The cwd the project folder stands for: the last one named like it (rank 2), else the last one seen (rank 0). */
  folderCwd: SessionCwd | null;
}

/** Lines the reader could not hand to the extractors, so an answer built on this log can say it is incomplete. */
export interface ReadCounts {
  /** Lines that are no JSON object (torn by a crash, or not Claude Code's). */
  unreadable: number;
  /** Lines longer than the reader's per-line limit (transcriptReader.ts): their facts are not known. */
  oversized: number;
}

export function emptyFacts(): LogFacts {
  return {
    links: { slugs: new Map(), sessions: new Map(), folderCwd: null },
    counts: { unreadable: 0, oversized: 0 },
    ...emptyExtracted(),
  };
}

/** A copy to go on reading into, leaving `facts` as they were (a read that fails leaves the old ones). */
export function cloneFacts(facts: LogFacts): LogFacts {
  return structuredClone(facts);
}

/** Whether the log links anything (a slug or a session's cwd). */
export function hasLinks(facts: LogFacts): boolean {
  return facts.links.slugs.size > 0 || facts.links.sessions.size > 0;
}

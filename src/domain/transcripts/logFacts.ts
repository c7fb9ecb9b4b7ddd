// What one session log says, as of its last read, in the facts each extractor keeps (extractors/): the
// plan list's links, plan stories' writes and plan-mode events, session cards. Everything derived from a
// transcript comes from here; the reader (logReader.ts) is the only code that fills it. Keys that come
// from files (session ids, slugs) only ever go into Maps.
import type { Span } from './lineView.js';

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

/** Where the exact text a person approved sits (see planEvents.ts). */
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

export interface CardFacts {
  sessions: Map<string, SessionFacts>;
  lines: Map<string, SessionLines>;
}

/** Lines the reader could not hand to the extractors, so an answer built on this log can say it is incomplete. */
export interface ReadCounts {
  /** Lines that are no JSON object (torn by a crash, or not Claude Code's). */
  unreadable: number;
  /** Lines longer than the reader's per-line limit (logReader.ts): their facts are not known. */
  oversized: number;
}

export interface LogFacts {
  links: LinkFacts;
  plans: PlanFacts;
  cards: CardFacts;
  counts: ReadCounts;
}

export function emptySessionFacts(): SessionFacts {
  return {
    customTitle: null, aiTitle: null, summary: null, firstPrompt: null, lastPrompt: null, gitBranch: null,
    version: null, entrypoint: null, firstAt: null, lastAt: null, costUsd: null, linesAdded: null, linesRemoved: null,
  };
}

export function emptyFacts(): LogFacts {
  return {
    links: { slugs: new Map(), sessions: new Map(), folderCwd: null },
    plans: { writes: [], exits: [], modes: [] },
    cards: { sessions: new Map(), lines: new Map() },
    counts: { unreadable: 0, oversized: 0 },
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

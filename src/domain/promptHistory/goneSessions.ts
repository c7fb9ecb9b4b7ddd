// Sessions whose transcripts are gone (deleted by Claude Code's cleanup, before or after the viewer ran) but
// whose prompts history.jsonl still holds: their cards, filled from what that file tells, and their list.
import { projectName } from '../files.js';
import { shellQuote } from '../history/planHistory.js';
import type { SessionIndex } from '../sessions/sessionIndex.js';
import type { SessionCard } from '../types.js';
import type { PromptFacts, PromptHistory } from './promptHistory.js';
import type { GoneSession } from '../../contract/promptHistory.js';

export interface GonePage {
  sessions: GoneSession[];
  total: number;
  nextCursor: string | null;
}

/** Every session id some log the index reads names (its cards' sessions). */
export function knownSessionIds(sessions: SessionIndex): Set<string> {
  const ids = new Set<string>();
  for (const [, facts] of sessions.logs()) for (const id of facts.cards.sessions.keys()) ids.add(id);
  return ids;
}

function goneOf(f: PromptFacts): GoneSession {
  return {
    sessionId: f.sessionId, cwd: f.project, project: f.project === null ? null : projectName(f.project),
    firstPrompt: f.firstPrompt, lastPrompt: f.lastPrompt, firstAt: f.firstAt, lastAt: f.lastAt, promptCount: f.promptCount,
  };
}

/** A gone session's card: what history.jsonl tells, the rest null or empty. */
export function goneCard(f: PromptFacts): SessionCard {
  const g = goneOf(f);
  return {
    sessionId: g.sessionId, title: null, firstPrompt: g.firstPrompt, lastPrompt: g.lastPrompt, gitBranch: null,
    cwd: g.cwd, project: g.project, version: null, entrypoint: null, firstAt: g.firstAt, lastAt: g.lastAt,
    costUsd: null, linesAdded: null, linesRemoved: null, subagents: [], plans: [], unreadLines: 0,
    resumeCommand: `cd ${shellQuote(g.cwd ?? '.')} && claude --resume ${g.sessionId}`,
    source: 'prompt-history', promptCount: g.promptCount, kept: false,
  };
}

/**
 * The sessions history.jsonl knows and no log does, newest (last prompt) first; `cursor` is how many were
 * on the pages before (a decimal string).
 */
export function gonePage(history: PromptHistory, known: Set<string>, limit: number, cursor: number): GonePage {
  const all = history.sessions().filter((s) => !known.has(s.sessionId)).map(goneOf)
    .sort((a, b) => compareDesc(a.lastAt, b.lastAt) || (a.sessionId < b.sessionId ? -1 : 1));
  const sessions = all.slice(cursor, cursor + limit);
  const next = cursor + sessions.length;
  return { sessions, total: all.length, nextCursor: next < all.length ? String(next) : null };
}

/** Newest first; no time last. */
function compareDesc(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}

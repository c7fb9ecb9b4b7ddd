// The MCP `search` tool's one function: the ranked search (domain/find, what GET /api/find answers) over
// plans, archived plans, memory entries and sessions, as compact records an agent can fetch one of next:
// the id for get_plan, get_memory or get_session, the file to read, and the matched lines.
import path from 'node:path';
import type { FindResult } from '../domain/find/finder.js';
import type { Viewer } from '../viewer.js';
import { masked } from './masking.js';

export interface SearchSnippet {
  /** 1-based line in the raw file (for a session, in its log). */
  line: number;
  /** A short window of that line around the match. */
  text: string;
}

export interface SearchResult {
  kind: FindResult['kind'];
  /** A plan's file name (get_plan), a memory entry's id (get_memory) or a session id (get_session). */
  id: string;
  title: string;
  project: string | null;
  modified: string;
  /** The file on disk, or null for a plan that is only in the archive. */
  path: string | null;
  snippets: SearchSnippet[];
}

export interface SearchAnswer {
  total: number;
  results: SearchResult[];
}

/**
 * The best `limit` results for `query` (the find query language: words, "phrases", project:, type:,
 * in:plans|memory|sessions, after:, before:). An agent asks once and reads what it gets, so this waits for
 * the index's first build instead of answering from part of it as the browser's palette does. Throws
 * FindQueryError for a query that cannot mean anything (the caller answers it as a tool error).
 */
export async function searchEverything(viewer: Viewer, query: string, limit: number): Promise<SearchAnswer> {
  await viewer.finder.built;
  const answer = await viewer.finder.find(query, { limit });
  const needsEntries = answer.results.some((r) => r.kind === 'memory');
  const entries = needsEntries ? new Map((await viewer.memory.list()).entries.map((e) => [e.id, e.filepath])) : new Map<string, string>();
  const needsLogs = answer.results.some((r) => r.kind === 'session');
  const logs = needsLogs ? new Map(viewer.sessions.logFiles().map((file) => [path.basename(file, '.jsonl'), file])) : new Map<string, string>();
  const pathOf = (r: FindResult): string | null =>
    r.kind === 'plan' ? viewer.plans.find(r.id)?.filepath ?? null : r.kind === 'memory' ? entries.get(r.id) ?? null : logs.get(r.id) ?? null;
  return {
    total: answer.total,
    results: answer.results.map((r) => ({
      kind: r.kind, id: r.id, title: masked(r.title), project: r.project, modified: r.modified, path: pathOf(r),
      snippets: r.snippets.map(({ line, text }) => ({ line, text: masked(text) })),
    })),
  };
}

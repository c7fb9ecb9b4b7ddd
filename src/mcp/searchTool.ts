// The MCP `search` tool's one function: what it searches and how results are shaped, behind one seam. Today
// it runs the spec's literal searches (GET /api/search and /api/memory/search: plans' and memory entries'
// content, case-insensitively) and cuts snippets around the matches; the ranked search over plans, memory
// and sessions replaces the inside of this function, not its callers.
import { foldCase } from '../domain/fold.js';
import { openRegularFile, readOpenedText } from '../domain/files.js';
import { LARGE_FILE_BYTES } from '../domain/largeFiles.js';
import type { Viewer } from '../viewer.js';

export interface SearchSnippet {
  /** 1-based line in the raw file. */
  line: number;
  /** A short window of that line around the match. */
  text: string;
}

export interface SearchResult {
  kind: 'plan' | 'memory';
  /** A plan's file name (for get_plan) or a memory entry's id (for get_memory). */
  id: string;
  title: string;
  project: string | null;
  modified: string;
  path: string;
  snippets: SearchSnippet[];
}

export interface SearchAnswer {
  total: number;
  results: SearchResult[];
}

const SNIPPETS_PER_RESULT = 3;
const SNIPPET_CONTEXT = 60;

/** Plans first (newest first), then memory entries, as the literal searches order them; `limit` of them. */
export async function searchEverything(viewer: Viewer, query: string, limit: number): Promise<SearchAnswer> {
  const [planNames, memoryIds, listing] = await Promise.all([
    viewer.plans.search(query), viewer.memory.search(query), viewer.memory.list(),
  ]);
  const entries = new Map(listing.entries.map((entry) => [entry.id, entry]));
  const sources = new Map(listing.sources.map((source) => [source.id, source]));
  const candidates: Omit<SearchResult, 'snippets'>[] = [];
  for (const filename of planNames) {
    const plan = viewer.plans.find(filename);
    if (plan) candidates.push({ kind: 'plan', id: filename, title: plan.title, project: plan.project, modified: plan.modified, path: plan.filepath });
  }
  for (const id of memoryIds) {
    const entry = entries.get(id);
    if (entry) {
      candidates.push({
        kind: 'memory', id, title: entry.name, project: sources.get(entry.sourceId)?.project ?? null, modified: entry.modified, path: entry.filepath,
      });
    }
  }
  const results: SearchResult[] = [];
  for (const candidate of candidates.slice(0, limit)) {
    results.push({ ...candidate, snippets: snippetsOf(await readSmall(candidate.path), query) });
  }
  return { total: candidates.length, results };
}

/** The text of a file small enough to cut snippets from; null for a large or unreadable one. */
async function readSmall(file: string): Promise<string | null> {
  const opened = await openRegularFile(file);
  if (opened === null) return null;
  if (opened.stats.size > LARGE_FILE_BYTES) {
    await opened.handle.close().catch(() => undefined);
    return null;
  }
  return readOpenedText(opened);
}

/** Up to three lines holding the query, each cut to a window around its first match. */
export function snippetsOf(text: string | null, query: string): SearchSnippet[] {
  if (text === null || query === '') return [];
  const needle = foldCase(query);
  const snippets: SearchSnippet[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && snippets.length < SNIPPETS_PER_RESULT; i++) {
    const line = lines[i]!;
    // Folding keeps the length of nearly every text; where it does not, the window is only approximate.
    const at = foldCase(line).indexOf(needle);
    if (at < 0) continue;
    const start = Math.max(0, at - SNIPPET_CONTEXT);
    const end = Math.min(line.length, at + needle.length + SNIPPET_CONTEXT);
    snippets.push({ line: i + 1, text: `${start > 0 ? '…' : ''}${line.slice(start, end).trim()}${end < line.length ? '…' : ''}` });
  }
  return snippets;
}

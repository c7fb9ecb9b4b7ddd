// Where a palette result leads: a plan or memory entry opens in its reader with the snippet's matched text
// as the reader's search (marked), at the snippet's line, a plan gone from disk in the Archive view; a
// session opens in the session view.
import type { MemoryEntry, PlanMetadata } from '../api/types';
import type { UrlUpdate } from '../state/useUrlState';
import { landingQuery, type FindHit, type FindSnippetView } from './found';

/** Open the plan or memory entry `id` at `line` of its file (the reader starts at the match there). */
export type LandAt = (view: 'plans' | 'memory', id: string, line: number) => void;

export interface OpenFoundDeps {
  plans: readonly PlanMetadata[];
  entryById: ReadonlyMap<string, MemoryEntry>;
  setUrl(update: UrlUpdate, mode?: 'push' | 'replace'): void;
  toast(text: string, kind?: 'success' | 'error'): void;
  landAt?: LandAt;
}

export function openFound(deps: OpenFoundDeps, hit: FindHit, snippet: FindSnippetView | undefined, query = ''): void {
  const q = landingQuery(query, snippet);
  if (hit.kind === 'plan') {
    // A plan find knows but the list does not has left the disk: its versions are read in the Archive view.
    if (!deps.plans.some((p) => p.filename === hit.id)) return deps.setUrl({ view: 'archive', plan: hit.id, planTab: null, from: null, to: null, full: false }, 'push');
    deps.setUrl({ view: 'plans', plan: hit.id, q, projects: [], full: false }, 'push');
    if (snippet) deps.landAt?.('plans', hit.id, snippet.line);
    return;
  }
  if (hit.kind === 'memory') {
    const entry = deps.entryById.get(hit.id);
    if (entry === undefined) return deps.toast('That memory entry is gone', 'error');
    // The project picker is cleared: a picker that leaves the entry's source out would show another source's file.
    deps.setUrl({ view: 'memory', source: entry.sourceId, entry: entry.id, tab: 'entry', q, types: [], pick: '' }, 'push');
    if (snippet) deps.landAt?.('memory', entry.id, snippet.line);
    return;
  }
  deps.setUrl({ view: 'session', session: hit.id, at: null, q: '' }, 'push');
}

// Everything the plans view loads and derives: the plan list, its lookups, the search box's two searches
// (the server's literal search of the text, and find's ranked snippets), the rows they select, and the
// open plan's content. The archive and the memory view read parts of it too (the list's version, the
// plans by session), so the shell calls it whichever view is shown.
import { useCallback, useMemo, useState } from 'react';
import { api } from '../api/client';
import { firstPlans, loadPlans } from '../api/firstPlans';
import type { PlanMetadata } from '../api/types';
import { useBoxFind, type BoxFind } from '../find/useBoxFind';
import type { UrlState } from '../state/url';
import { useContent, useRemote, useServerSearch, type ContentState, type Remote } from '../state/useRemote';
import { projectCounts, selectPlans, type PlanSelection } from './planQuery';

const NO_PLANS: PlanMetadata[] = [];

export interface PlansData {
  remote: Remote<PlanMetadata[]>;
  reload(): void;
  plans: PlanMetadata[];
  planByFile: Map<string, PlanMetadata>;
  planFiles: ReadonlySet<string>;
  /** Per session, the plan it made: the main one over subagents', then the newest. */
  plansBySession: Map<string, PlanMetadata>;
  /** The server's search of the plans' text, for the box's query. */
  search: ReturnType<typeof useServerSearch>;
  /** Find's results for the box's query, by file name (snippets, and the "Best match" order). */
  find: BoxFind;
  selection: PlanSelection;
  projectCounts: { project: string; count: number }[];
  /** The open plan's markdown (none in the archive, which reads the plan's versions). */
  content: ContentState;
  /** Bumps when the open plan should be read again (it changed on disk, or everything was reloaded). */
  bump: number;
  bumpContent(): void;
}

export function usePlansData(url: UrlState): PlansData {
  const [remote, reload] = useRemote(loadPlans, true, firstPlans);
  const [bump, setBump] = useState(0);
  const bumpContent = useCallback(() => setBump((b) => b + 1), []);

  const plans = remote.data ?? NO_PLANS;
  const planByFile = useMemo(() => new Map(plans.map((p) => [p.filename, p])), [plans]);
  const planFiles = useMemo(() => new Set(planByFile.keys()) as ReadonlySet<string>, [planByFile]);
  const plansBySession = useMemo(() => {
    const map = new Map<string, PlanMetadata>();
    for (const p of plans) {
      if (!p.sessionId) continue;
      const prev = map.get(p.sessionId);
      // Prefer the main plan over subagent plans, then the newest.
      if (!prev || (prev.filename.includes('-agent-') && !p.filename.includes('-agent-')) || (prev.modified < p.modified && !p.filename.includes('-agent-'))) {
        map.set(p.sessionId, p);
      }
    }
    return map;
  }, [plans]);
  const query = url.view === 'plans' ? url.q : '';
  const search = useServerSearch(query, remote.version, (q, signal) => api.searchPlans(q, signal));
  const find = useBoxFind(query, 'plans', remote.version);
  const selection = useMemo(
    () => selectPlans({ plans, query, contentHits: search.hits, projects: url.projects, sort: url.sort, dir: url.dir, found: find.found }),
    [plans, query, search.hits, url.projects, url.sort, url.dir, find.found],
  );
  const counts = useMemo(() => projectCounts(plans), [plans]);
  // An archived plan has no /content: the Archive reads its versions.
  const content = useContent(url.view === 'archive' ? null : url.plan, bump, (key, signal) => api.planContent(key, signal));

  return {
    remote, reload, plans, planByFile, planFiles, plansBySession, search, find, selection, projectCounts: counts, content, bump, bumpContent,
  };
}

// The Plans view: filter bar and counts, the virtualized list, and the reader of the open plan.
// The reader (markdown, highlighting, sanitizing) is a chunk of its own, fetched when a plan is
// first opened: the list, the first screen, does not wait for it.
import { Reading, usePlansDirLabel } from '../ui/Reading';
import { lazy } from 'react';
import { LazyView } from '../ui/LazyView';
import type { MemorySource } from '../api/types';
import { describeError } from '../api/client';
import type { UrlState } from '../state/url';
import type { UrlUpdate } from '../state/useUrlState';
import { openInEditor } from '../ui/actions';
import { formatCount } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { SplitHandle, useSplit } from '../ui/SplitHandle';
import { PlanList } from './PlanList';
import { ProjectFilter } from './ProjectFilter';
import { shownSort } from './planQuery';
import type { PlansData } from './usePlansData';
import { defaultDir, type SortKey } from '../state/url';
import type { FindSnippetView } from '../find/found';
import type { Landing } from '../reader/landing';
import { useRetentionPolicy } from '../history/useHistory';

export const loadPlanReader = () => import('./PlanReader');
const PlanReader = lazy(() => loadPlanReader().then((m) => ({ default: m.PlanReader })));

interface Props {
  data: PlansData;
  url: UrlState;
  setUrl(update: UrlUpdate, mode?: 'push' | 'replace'): void;
  /** Plans that just appeared (highlighted for a while). */
  fresh: ReadonlySet<string>;
  now: number;
  sources: MemorySource[];
  onOpenSnippet(filename: string, snippet: FindSnippetView): void;
  /** The line to land on when the open plan was opened from a snippet. */
  landing: Landing | null;
  dark: boolean;
  onNavigate(nav: string): void;
}

export function PlansView(props: Props) {
  const { data, url, setUrl } = props;
  const { remote, selection, search } = data;
  const toast = useToast();
  const onOpenInEditor = (filename: string) => {
    const p = data.planByFile.get(filename);
    if (p) void openInEditor(p.filepath, toast);
  };
  const total = remote.data?.length ?? 0;
  const q = url.q.trim();
  const filtered = url.projects.length > 0;
  const retention = useRetentionPolicy(total > 0);
  const split = useSplit('plans');

  const shown = shownSort(url.sort, url.dir, q);
  const best = shown.sort === 'best';
  const onSort = (key: SortKey) => setUrl({ sort: key, dir: shown.sort === key ? (shown.dir === 'asc' ? 'desc' : 'asc') : defaultDir(key) });

  const plansDir = usePlansDirLabel();
  let listBody;
  if (remote.status === 'loading' && !remote.data) {
    listBody = <Reading what="plans" />;
  } else if (remote.status === 'error' && !remote.data) {
    listBody = (
      <div className="state-panel error">
        <h2>Could not load plans</h2>
        <p>{describeError(remote.error)}</p>
        <button type="button" onClick={data.reload}>Retry</button>
      </div>
    );
  } else if (total === 0) {
    listBody = (
      <div className="state-panel empty">
        <h2>No plans yet</h2>
        <p>
          Claude Code saves a plan as markdown in <code>{plansDir}</code> whenever you use plan mode (Shift+Tab until
          “plan mode on”). New plans show up here by themselves.
        </p>
        <p className="muted">
          Looking at the wrong folder? Start the viewer with <code>--claude-dir</code>, or try it with <code>--demo</code>.
        </p>
      </div>
    );
  } else if (selection.rows.length === 0 && q && search.failed) {
    listBody = (
      <div className="state-panel error">
        <h2>The search failed</h2>
        <p>
          Nothing has “{q}” in its title, file name or project, and the search of the plans’ text did not answer, so plans that
          mention it may be missing here.
        </p>
        <button type="button" onClick={search.retry}>Retry</button>
      </div>
    );
  } else if (selection.rows.length === 0) {
    listBody = (
      <div className="state-panel empty">
        <h2>No plans match</h2>
        <p>
          {q ? <>Nothing has “{q}” in its title, file name, project or text</> : 'No plan is in the selected projects'}
          {q && filtered ? ' within the selected projects' : ''}.
        </p>
        <button type="button" onClick={() => setUrl({ q: '', projects: [] })}>Clear search and filters</button>
      </div>
    );
  } else {
    listBody = (
      <PlanList
        rows={selection.rows}
        selected={url.plan}
        query={q}
        sort={shown.sort}
        dir={shown.dir}
        fresh={props.fresh}
        now={props.now}
        retention={retention}
        viewKey={`${q}\u0000${url.projects.join('\u0000')}\u0000${shown.sort}\u0000${shown.dir}`}
        found={data.find.found}
        onOpenSnippet={props.onOpenSnippet}
        projectChars={data.projectCounts.reduce((n, c) => Math.max(n, c.project.length), 0)}
        onSort={onSort}
        onSelect={(filename) => setUrl({ plan: filename, from: null, to: null }, 'push')}
        onOpenInEditor={onOpenInEditor}
      />
    );
  }

  const plan = url.plan ? data.planByFile.get(url.plan) ?? null : null;
  return (
    <div ref={split.ref} style={split.style} className={`split plans-split${url.full && url.plan ? ' fullscreen' : ''}${url.plan ? ' has-reader' : ''}`}>
      <section className="pane-list" id="plans-list" aria-label="Plans list">
        <div className="list-toolbar">
          <ProjectFilter counts={data.projectCounts} selected={url.projects} onChange={(projects) => setUrl({ projects })} />
          {q && (
            <button
              type="button"
              className={`chip sort-chip${best ? ' on' : ''}`}
              aria-pressed={best}
              title={best ? 'Ordered by relevance; press for the newest first' : 'Order by relevance to the search'}
              onClick={() => setUrl(best ? { sort: 'modified', dir: 'desc' } : { sort: 'best', dir: 'desc' })}
            >
              Best match
            </button>
          )}
          <div className="list-counts" role="status" aria-live="polite" data-testid="plan-counts">
            {!remote.data ? null : q ? (
              <>
                <strong>{formatCount(selection.rows.length)}</strong> {selection.rows.length === 1 ? 'match' : 'matches'}{' '}
                <span className="muted">
                  ({formatCount(selection.metaHits)} in title/file/project, {formatCount(selection.contentHits)} in text)
                </span>
                {search.pending && <span className="muted"> · searching contents…</span>}
                {data.find.failed && <span className="muted"> · snippets unavailable</span>}
                {search.failed && (
                  <span className="error-text">
                    {' '}· the search of the text failed{' '}
                    <button type="button" className="link-button" onClick={search.retry}>Retry</button>
                  </span>
                )}
              </>
            ) : (
              <>
                <strong>{formatCount(selection.rows.length)}</strong>
                {filtered ? ` of ${formatCount(total)}` : ''} {total === 1 ? 'plan' : 'plans'}
              </>
            )}
          </div>
        </div>
        {listBody}
        <SplitHandle split={split} controls="plans-list" label="Width of the plans list" />
      </section>
      <main className="pane-main" id="main">
        {url.plan ? (
          <LazyView what="plan reader">
          <PlanReader
            filename={url.plan}
            plan={plan}
            content={data.content}
            planFiles={data.planFiles}
            sources={props.sources}
            query={q}
            landing={props.landing}
            dark={props.dark}
            fullscreen={url.full}
            onToggleFullscreen={() => setUrl((s) => ({ full: !s.full }))}
            onOpenPlan={(filename) => setUrl({ plan: filename }, 'push')}
            onOpenProjectMemory={(sourceId) => setUrl({ view: 'memory', source: sourceId, entry: null, tab: 'entry', q: '', types: [] }, 'push')}
            onNavigate={props.onNavigate}
            onClose={() => setUrl({ plan: null, full: false }, 'push')}
            bump={data.bump}
            now={props.now}
            tab={url.planTab ?? 'document'}
            onTab={(planTab) => setUrl({ planTab }, 'replace')}
            compare={url}
            onCompare={(update) => setUrl(update, 'replace')}
          />
          </LazyView>
        ) : (
          total > 0 && (
            <div className="state-panel empty">
              <h2>Pick a plan</h2>
              <p>Click a row, or press j / k (↓ / ↑) to move through the list. Press ? for all shortcuts.</p>
            </div>
          )
        )}
      </main>
    </div>
  );
}

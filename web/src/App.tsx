// The application shell: data loading, live updates, URL state, keyboard, and the two views.
import { lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from './api/client';
import { connectEvents, type LiveStatus } from './api/events';
import { firstPlans, loadPlans } from './api/firstPlans';
import type { PlanMetadata } from './api/types';
import { FindPalette } from './find/FindPalette';
import { openFound } from './find/openFound';
import { useBoxFind } from './find/useBoxFind';
import { useLanding } from './find/useLanding';
import { useMemoryModel } from './memory/useMemoryModel';
import { projectCounts, selectPlans } from './plans/planQuery';
import { loadPlanReader, PlansView } from './plans/PlansView';
import type { View } from './state/url';
import { useContent, useRemote, useServerSearch } from './state/useRemote';
import { useUrlState } from './state/useUrlState';
import { openInEditor } from './ui/actions';
import { plural } from './ui/format';
import { emitCommand } from './ui/commands';
import { DemoBanner } from './ui/DemoBanner';
import { HelpDialog } from './ui/HelpDialog';
import { LazyView, prefetchViews } from './ui/LazyView';
import { useGlobalKeys } from './ui/keyboard';
import { useTheme } from './ui/theme';
import { useToast } from './ui/Toasts';
import { TopBar } from './ui/TopBar';

// The memory view (with the link graph and the frontmatter parser) is fetched when first shown: the
// first screen is the plans list, and it should not wait for code it does not run.
const loadMemoryView = () => import('./memory/MemoryView');
const MemoryView = lazy(() => loadMemoryView().then((m) => ({ default: m.MemoryView })));
// The archive view brings the history panel and its diff and markdown renderers: fetched when first shown.
const loadArchiveView = () => import('./history/ArchiveView');
const ArchiveView = lazy(() => loadArchiveView().then((m) => ({ default: m.ArchiveView })));

const NO_PLANS: PlanMetadata[] = [];
const FRESH_MS = 8000;

export function App() {
  const [url, setUrl] = useUrlState();
  const theme = useTheme();
  const toast = useToast();
  const searchRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [demoDismissed, setDemoDismissed] = useState(false);
  const [serverDemo, setServerDemo] = useState(false);
  const [plansR, reloadPlans] = useRemote(loadPlans, true, firstPlans);
  // On the plans view the memory listing waits for the plans: its parsing and indexing would otherwise
  // compete with the first screen's (it fills only a count there).
  const [memoryR, reloadMemory] = useRemote(
    useCallback((signal: AbortSignal) => api.memory(signal), []),
    url.view === 'memory' || plansR.status !== 'loading',
  );
  const [live, setLive] = useState<LiveStatus>('connecting');
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [planBump, setPlanBump] = useState(0);
  const [memoryBump, setMemoryBump] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(t);
  }, []);

  // Once the plans are on screen, the code of the other views comes in the background.
  const firstScreenUp = plansR.status !== 'loading';
  useEffect(() => (firstScreenUp ? prefetchViews([loadPlanReader, loadMemoryView, loadArchiveView]) : undefined), [firstScreenUp]);

  // Plans
  const plans = plansR.data ?? NO_PLANS;
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
  const planSearch = useServerSearch(url.view === 'plans' ? url.q : '', plansR.version, (q, signal) => api.searchPlans(q, signal));
  const planFind = useBoxFind(url.view === 'plans' ? url.q : '', 'plans', plansR.version);
  const selection = useMemo(
    () => selectPlans({
      plans, query: url.view === 'plans' ? url.q : '', contentHits: planSearch.hits, projects: url.projects, sort: url.sort, dir: url.dir,
      found: planFind.found,
    }),
    [plans, url.view, url.q, planSearch.hits, url.projects, url.sort, url.dir, planFind.found],
  );
  const counts = useMemo(() => projectCounts(plans), [plans]);
  // An archived plan has no /content: the Archive reads its versions.
  const planContent = useContent(url.view === 'archive' ? null : url.plan, planBump, (key, signal) => api.planContent(key, signal));

  // Memory
  const memSearch = useServerSearch(url.view === 'memory' ? url.q : '', memoryR.version, (q, signal) => api.searchMemory(q, signal));
  const memFind = useBoxFind(url.view === 'memory' ? url.q : '', 'memory', memoryR.version);
  const memUrl = url.view === 'memory' ? url : { ...url, q: '', types: [] };
  const model = useMemoryModel(memoryR.data, memUrl, memSearch.hits, memFind.found);
  // An entry named in the URL that the listing no longer has was deleted: the reader says so (MemoryView)
  // rather than showing the folder's MEMORY.md in its place.
  const entryGone = url.entry !== null && memoryR.data !== null && model.activeEntry === null;
  const shownEntry = entryGone
    ? null
    : model.activeEntry ?? (model.activeSource ? model.entriesBySource.get(model.activeSource.id)?.find((e) => e.isIndex) ?? null : null);
  const entryContent = useContent(url.view === 'memory' || url.entry ? shownEntry?.id ?? null : null, memoryBump, (key, signal) =>
    api.memoryContent(key, signal),
  );

  // Opened from a search snippet: the reader starts at the snippet's line.
  const { landAt, planLanding, entryLanding, openPlanSnippet, openEntrySnippet } = useLanding(url, shownEntry?.id ?? null, setUrl);

  // Live updates
  const openPlan = useRef(url.plan);
  openPlan.current = url.plan;
  const known = useRef<ReadonlySet<string> | null>(null);
  known.current = plansR.status === 'ready' ? planFiles : null;
  useEffect(() => {
    let reloadTimer: number | undefined;
    const stop = connectEvents({
      onPlans(changed, removed) {
        const k = known.current;
        if (k) {
          const added = changed.filter((f) => !k.has(f));
          if (added.length) {
            setFresh((s) => new Set([...s, ...added]));
            window.setTimeout(() => setFresh((s) => new Set([...s].filter((f) => !added.includes(f)))), FRESH_MS);
          }
        }
        window.clearTimeout(reloadTimer);
        reloadTimer = window.setTimeout(reloadPlans, 60);
        const open = openPlan.current;
        if (open && (changed.includes(open) || removed.includes(open))) setPlanBump((b) => b + 1);
      },
      onMemory() {
        reloadMemory();
        setMemoryBump((b) => b + 1);
      },
      onResync() {
        reloadPlans();
        reloadMemory();
        setPlanBump((b) => b + 1);
        setMemoryBump((b) => b + 1);
      },
      onStatus: setLive,
      onDemo: setServerDemo,
    });
    return () => {
      window.clearTimeout(reloadTimer);
      stop();
    };
  }, [reloadPlans, reloadMemory]);

  // Title of the tab follows what is open.
  useEffect(() => {
    const plan = url.plan ? planByFile.get(url.plan) : undefined;
    const what = url.view === 'plans' ? plan?.title || url.plan : url.view === 'archive' ? url.plan : shownEntry?.isIndex ? `MEMORY.md · ${model.activeSource?.project ?? ''}` : shownEntry?.name;
    document.title = what ? `${what} · Plans & Memory` : 'Plans & Memory';
  }, [url.view, url.plan, planByFile, shownEntry, model.activeSource]);

  const navigate = useCallback(
    (nav: string) => {
      if (nav.startsWith('plan:')) setUrl({ view: 'plans', plan: nav.slice(5) }, 'push');
      else if (nav.startsWith('entry:')) {
        const entry = model.entryById.get(nav.slice(6));
        if (entry) setUrl({ view: 'memory', source: entry.sourceId, entry: entry.id, tab: 'entry' }, 'push');
      }
    },
    [model.entryById, setUrl],
  );

  // A plan name means a listed plan in one view and an archived one in the other: it does not carry over.
  const switchView = (view: View) =>
    setUrl((s) => (s.view === view || (s.view !== 'archive' && view !== 'archive') ? { view } : { view, plan: null, planTab: null, from: null, to: null, full: false }), 'push');

  const focusList = () => {
    if (url.view === 'plans') {
      const first = selection.rows[0];
      if (!url.plan && first) setUrl({ plan: first.plan.filename }, 'push');
      document.querySelector<HTMLElement>('.grid-body')?.focus();
    } else {
      const first = model.flat[0];
      if (!url.entry && first) setUrl({ entry: first.id, source: first.sourceId, tab: 'entry' }, 'push');
      window.setTimeout(() => document.querySelector<HTMLElement>('.entry-button.selected, .entry-button')?.focus(), 0);
    }
  };

  const move = (delta: number | 'first' | 'last') => {
    if (url.view === 'archive') {
      emitCommand(delta === 'first' ? 'listFirst' : delta === 'last' ? 'listLast' : delta > 0 ? 'listNext' : 'listPrev');
    } else if (url.view === 'plans') {
      const rows = selection.rows;
      if (!rows.length) return;
      const at = url.plan ? rows.findIndex((r) => r.plan.filename === url.plan) : -1;
      const next =
        delta === 'first' ? 0 : delta === 'last' ? rows.length - 1 : at < 0 ? (delta > 0 ? 0 : rows.length - 1) : Math.max(0, Math.min(rows.length - 1, at + delta));
      // Opening a plan is a step Back returns from, by keyboard as by click.
      setUrl({ plan: rows[next]!.plan.filename }, 'push');
    } else {
      const list = model.flat;
      if (!list.length) return;
      const at = shownEntry ? list.findIndex((e) => e.id === shownEntry.id) : -1;
      const next =
        delta === 'first' ? 0 : delta === 'last' ? list.length - 1 : at < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.max(0, Math.min(list.length - 1, at + delta));
      const entry = list[next]!;
      setUrl({ entry: entry.id, source: entry.sourceId, tab: 'entry' }, 'push');
      window.setTimeout(() => document.querySelector(`[data-entry-id="${CSS.escape(entry.id)}"]`)?.scrollIntoView({ block: 'nearest' }), 0);
    }
  };

  useGlobalKeys({
    focusSearch: () => {
      searchRef.current?.focus();
      searchRef.current?.select();
    },
    switchView: (n) => switchView(n === 1 ? 'plans' : n === 2 ? 'memory' : 'archive'),
    help: () => setHelpOpen(true),
    escape: () => {
      if (helpOpen) return false;
      const input = searchRef.current;
      if (input && document.activeElement === input) {
        if (url.q) setUrl({ q: '' });
        else input.blur();
        return true;
      }
      if (url.full) {
        setUrl({ full: false });
        return true;
      }
      if (url.q) {
        setUrl({ q: '' });
        return true;
      }
      if ((url.view === 'plans' || url.view === 'archive') && url.plan) {
        setUrl({ plan: null }, 'push');
        return true;
      }
      if (url.view === 'memory' && url.tab === 'graph') {
        setUrl({ tab: 'entry' }, 'push');
        return true;
      }
      return false;
    },
    move: (d) => move(d),
    moveTo: (w) => move(w),
    enter: () => emitCommand(url.view === 'archive' ? 'listOpen' : 'openInEditor'),
    nextMatch: () => emitCommand('nextMatch'),
    prevMatch: () => emitCommand('prevMatch'),
    fullscreen: () => {
      if (url.view === 'plans' && url.plan) setUrl({ full: !url.full });
    },
    graph: () => {
      if (url.view === 'memory') setUrl({ tab: url.tab === 'graph' ? 'entry' : 'graph' }, 'push');
    },
    copyMarkdown: () => emitCommand('copyMarkdown'),
    copyPath: () => emitCommand('copyPath'),
  });

  const refresh = async () => {
    try {
      const res = await api.refresh();
      toast(`Reloaded from disk: ${plural(res.after, 'plan')}`, 'success');
    } catch {
      toast('Could not reach the service to reload', 'error');
    }
    reloadPlans();
    reloadMemory();
    setPlanBump((b) => b + 1);
    setMemoryBump((b) => b + 1);
  };

  const sources = memoryR.data?.sources ?? [];
  const demo = !demoDismissed && serverDemo;

  return (
    <div className={`app view-${url.view}`}>
      <TopBar
        view={url.view}
        planCount={plansR.data ? plansR.data.length : null}
        memoryCount={memoryR.data ? memoryR.data.entries.filter((e) => !e.isIndex).length : null}
        query={url.q}
        searchRef={searchRef}
        live={live}
        themeMode={theme.mode}
        dark={theme.dark}
        onView={switchView}
        onQuery={(q) => setUrl({ q })}
        onSearchEnter={focusList}
        onRefresh={() => void refresh()}
        onTheme={theme.cycle}
        onHelp={() => setHelpOpen(true)}
      />
      {demo && <DemoBanner onDismiss={() => setDemoDismissed(true)} />}
      {url.view === 'plans' ? (
        <PlansView
          remote={plansR}
          reload={reloadPlans}
          selection={selection}
          projectCounts={counts}
          planByFile={planByFile}
          planFiles={planFiles}
          url={url}
          setUrl={setUrl}
          content={planContent}
          fresh={fresh}
          now={now}
          sources={sources}
          searchPending={planSearch.pending}
          searchFailed={planSearch.failed}
          onRetrySearch={planSearch.retry}
          found={planFind.found}
          findFailed={planFind.failed}
          onOpenSnippet={openPlanSnippet}
          landing={planLanding}
          dark={theme.dark}
          onOpenInEditor={(filename) => {
            const p = planByFile.get(filename);
            if (p) void openInEditor(p.filepath, toast);
          }}
          onNavigate={navigate}
          planBump={planBump}
        />
      ) : url.view === 'archive' ? (
        <LazyView what="archive view">
        <ArchiveView
          url={url}
          setUrl={setUrl}
          bump={planBump}
          listBump={plansR.version}
          dark={theme.dark}
          onOpenPlan={(filename) => setUrl({ view: 'plans', plan: filename, q: '', from: null, to: null }, 'push')}
        />
        </LazyView>
      ) : (
        <LazyView what="memory view">
        <MemoryView
          remote={memoryR}
          reload={reloadMemory}
          model={model}
          url={url}
          setUrl={setUrl}
          entryContent={entryContent}
          shownEntry={shownEntry}
          plansBySession={plansBySession}
          searchPending={memSearch.pending}
          searchFailed={memSearch.failed}
          onRetrySearch={memSearch.retry}
          found={memFind.found}
          findFailed={memFind.failed}
          onOpenSnippet={openEntrySnippet}
          landing={entryLanding}
          dark={theme.dark}
          onOpenPlan={(filename) => setUrl({ view: 'plans', plan: filename, q: '' }, 'push')}
          onNavigate={navigate}
        />
        </LazyView>
      )}
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      <FindPalette onOpen={(hit, snippet, query) => openFound({ plans, entryById: model.entryById, setUrl, toast, landAt }, hit, snippet, query)} />
    </div>
  );
}

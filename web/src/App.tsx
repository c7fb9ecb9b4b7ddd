// The application shell: URL state, live updates, keyboard, the top bar and the palette around the three
// views, each of which gets its data from its own hook (usePlansData, useMemoryData; the archive loads its own).
import { lazy, useCallback, useEffect, useRef, useState } from 'react';
import { api } from './api/client';
import { connectEvents, type LiveStatus } from './api/events';
import { FindPalette } from './find/FindPalette';
import { openFound } from './find/openFound';
import { useLanding } from './find/useLanding';
import { useMemoryData } from './memory/useMemoryData';
import { loadPlanReader, PlansView } from './plans/PlansView';
import { usePlansData } from './plans/usePlansData';
import type { View } from './state/url';
import { useUrlState } from './state/useUrlState';
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

// The session view (a conversation, with the markdown renderer) is fetched when first opened.
const loadSessionView = () => import('./session/SessionView');
const SessionView = lazy(() => loadSessionView().then((m) => ({ default: m.SessionView })));

// The Costs view brings the charting library (its own chunk, imported when a chart is drawn).
const loadCostsView = () => import('./costs/CostsView');
const CostsView = lazy(() => loadCostsView().then((m) => ({ default: m.CostsView })));

const FRESH_MS = 8000;

export function App() {
  const [url, setUrl] = useUrlState();
  const theme = useTheme();
  const toast = useToast();
  const searchRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [demoDismissed, setDemoDismissed] = useState(false);
  const [serverDemo, setServerDemo] = useState(false);
  const plansData = usePlansData(url);
  const memoryData = useMemoryData(url, plansData.remote.status !== 'loading');
  const { remote: plansR, reload: reloadPlans, bumpContent: bumpPlan, plans, planByFile, planFiles, selection } = plansData;
  const { remote: memoryR, reload: reloadMemory, bumpContent: bumpEntry, model, shownEntry } = memoryData;
  const [live, setLive] = useState<LiveStatus>('connecting');
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(t);
  }, []);

  // Once the plans are on screen, the code of the other views comes in the background.
  const firstScreenUp = plansR.status !== 'loading';
  useEffect(() => (firstScreenUp ? prefetchViews([loadPlanReader, loadMemoryView, loadArchiveView]) : undefined), [firstScreenUp]);

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
        if (open && (changed.includes(open) || removed.includes(open))) bumpPlan();
      },
      onMemory() {
        reloadMemory();
        bumpEntry();
      },
      onResync() {
        reloadPlans();
        reloadMemory();
        bumpPlan();
        bumpEntry();
      },
      onStatus: setLive,
      onDemo: setServerDemo,
    });
    return () => {
      window.clearTimeout(reloadTimer);
      stop();
    };
  }, [reloadPlans, reloadMemory, bumpPlan, bumpEntry]);

  // Title of the tab follows what is open.
  useEffect(() => {
    const plan = url.plan ? planByFile.get(url.plan) : undefined;
    const what = url.view === 'plans' ? plan?.title || url.plan : url.view === 'archive' ? url.plan : url.view === 'session' ? `Session ${url.session?.slice(0, 8) ?? ''}` : url.view === 'costs' ? 'Costs' : shownEntry?.isIndex ? `MEMORY.md · ${model.activeSource?.project ?? ''}` : shownEntry?.name;
    document.title = what ? `${what} · Plans & Memory` : 'Plans & Memory';
  }, [url.view, url.plan, url.session, planByFile, shownEntry, model.activeSource]);

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
    // The session and costs views have no list to move in: the keys scroll the page as usual.
    if (url.view === 'session' || url.view === 'costs') return;
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
    bumpPlan();
    bumpEntry();
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
        // The session and costs views have no list to search: typing there searches the plans.
        onQuery={(q) => (url.view === 'session' || url.view === 'costs' ? setUrl({ q, view: 'plans' }, 'push') : setUrl({ q }))}
        onSearchEnter={focusList}
        onRefresh={() => void refresh()}
        onTheme={theme.cycle}
        onHelp={() => setHelpOpen(true)}
      />
      {demo && <DemoBanner onDismiss={() => setDemoDismissed(true)} />}
      {url.view === 'plans' ? (
        <PlansView
          data={plansData}
          url={url}
          setUrl={setUrl}
          fresh={fresh}
          now={now}
          sources={sources}
          onOpenSnippet={openPlanSnippet}
          landing={planLanding}
          dark={theme.dark}
          onNavigate={navigate}
        />
      ) : url.view === 'session' ? (
        <LazyView what="session view">
          <SessionView url={url} setUrl={setUrl} onOpenPlan={(filename) => setUrl({ view: 'plans', plan: filename, q: '', at: null }, 'push')} />
        </LazyView>
      ) : url.view === 'costs' ? (
        <LazyView what="costs view">
          <CostsView dark={theme.dark} />
        </LazyView>
      ) : url.view === 'archive' ? (
        <LazyView what="archive view">
        <ArchiveView
          url={url}
          setUrl={setUrl}
          bump={plansData.bump}
          listBump={plansR.version}
          dark={theme.dark}
          onOpenPlan={(filename) => setUrl({ view: 'plans', plan: filename, q: '', from: null, to: null }, 'push')}
        />
        </LazyView>
      ) : (
        <LazyView what="memory view">
        <MemoryView
          data={memoryData}
          url={url}
          setUrl={setUrl}
          plansBySession={plansData.plansBySession}
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

// The Memory view: the project picker, sources and entries on the left; on the right the open source
// with its entry reader (MEMORY.md health and cut included), its link graph or its health check with
// fixes, or the health overview of every source. A phone shows the reader only once an entry, the
// graph or the health view is open ('has-reader'), and the list otherwise.
import { Reading } from '../ui/Reading';
import { useCallback } from 'react';
import type { MemoryEntry, PlanMetadata } from '../api/types';
import { describeError } from '../api/client';
import type { UrlState } from '../state/url';
import type { UrlUpdate } from '../state/useUrlState';
import { copyWithToast } from '../ui/actions';
import { useToast } from '../ui/Toasts';
import { plural } from '../ui/format';
import { SplitHandle, useSplit } from '../ui/SplitHandle';
import { EntryReader } from './EntryReader';
import { HealthOverview } from './HealthOverview';
import { kindLabel } from './healthSummary';
import { LinkGraph } from './LinkGraph';
import { ProjectPicker } from './ProjectPicker';
import { SourceList } from './SourceList';
import { SourceProblems } from './SourceProblems';
import { TypeChips } from './TypeChips';
import { useFixFlow } from './useFixFlow';
import { useMemoryHealth } from './useMemoryHealth';
import type { MemoryData } from './useMemoryData';
import type { FindSnippetView } from '../find/found';
import type { Landing } from '../reader/landing';

/** Stable empties, so the reader's memoised orphans are not recomputed on every render. */
const EMPTY_ENTRIES: MemoryEntry[] = [];
const EMPTY_PINNED: string[] = [];

interface Props {
  data: MemoryData;
  url: UrlState;
  setUrl(update: UrlUpdate, mode?: 'push' | 'replace'): void;
  plansBySession: Map<string, PlanMetadata>;
  onOpenSnippet(entry: MemoryEntry, snippet: FindSnippetView): void;
  /** The line of the shown entry's file to land on when it was opened from a snippet. */
  landing: Landing | null;
  dark: boolean;
  onOpenPlan(filename: string): void;
  onNavigate(nav: string): void;
}

export function MemoryView(props: Props) {
  const { data, url, setUrl } = props;
  const { remote, model, shownEntry, search } = data;
  const toast = useToast();
  const split = useSplit('memory');
  const health = useMemoryHealth(remote.version);
  const { reload } = data;
  const reloadHealth = health.reload;
  const changed = useCallback(() => {
    reload();
    reloadHealth();
  }, [reload, reloadHealth]);
  const fixes = useFixFlow(changed, toast);

  if (remote.status === 'loading' && !remote.data) {
    return <Reading what="memory" />;
  }
  if (remote.status === 'error' && !remote.data) {
    return (
      <div className="state-panel error">
        <h2>Could not load memory</h2>
        <p>{describeError(remote.error)}</p>
        <button type="button" onClick={reload}>Retry</button>
      </div>
    );
  }
  if (model.sources.length === 0) {
    return (
      <div className="state-panel empty">
        <h2>No auto memory yet</h2>
        <p>
          Claude Code keeps auto memory in <code>~/.claude/projects/&lt;project&gt;/memory/</code> (or in the folder an{' '}
          <code>autoMemoryDirectory</code> setting names). It appears here as soon as a session writes a memory.
        </p>
        <p className="muted">Auto memory is on by default; <code>autoMemoryEnabled: false</code> turns it off.</p>
      </div>
    );
  }

  const overview = url.tab === 'health' && !url.source;
  const source = overview ? null : model.activeSource;
  // Another file opens on its document.
  const openEntry = (entry: MemoryEntry) => setUrl({ view: 'memory', source: entry.sourceId, entry: entry.id, tab: 'entry', entryTab: null }, 'push');
  const openSourceHealth = (id: string) => setUrl({ view: 'memory', source: id, entry: null, tab: 'health' }, 'push');
  const entryOf = (sourceId: string, file: string) => model.entryById.get(`${sourceId}/${file}`) ?? null;
  const totalShown = [...model.visible.values()].reduce((n, list) => n + list.length, 0);
  const checked = source ? health.bySource.get(source.id) : undefined;
  const problemCount = checked?.problems.length ?? 0;

  return (
    <div ref={split.ref} style={split.style} className={`split memory-split${url.entry || url.tab !== 'entry' ? ' has-reader' : ''}`}>
      <aside className="pane-list memory-sidebar" id="memory-list" aria-label="Memory list">
        <ProjectPicker
          value={url.pick}
          matches={model.picked.length}
          total={model.sources.length}
          onChange={(pick) => setUrl({ pick })}
          onChooseFirst={() => {
            const first = model.groups[0]?.sources[0];
            if (first) setUrl({ source: first.id, entry: null, tab: url.tab === 'health' ? 'health' : url.tab }, 'push');
          }}
        />
        <div className="list-toolbar">
          <button
            type="button"
            className={`health-overview-button${overview ? ' on' : ''}`}
            aria-pressed={overview}
            onClick={() => setUrl({ source: null, entry: null, tab: 'health' }, 'push')}
          >
            Health overview
          </button>
          <TypeChips counts={model.counts} all={model.matched} selected={url.types} onChange={(types) => setUrl({ types })} />
          {url.q.trim() && (
            <button
              type="button"
              className={`chip sort-chip${model.ranked ? ' on' : ''}`}
              aria-pressed={model.ranked}
              title={model.ranked ? 'Ordered by relevance; press for the usual order' : 'Order by relevance to the search'}
              onClick={() => setUrl({ memorySort: model.ranked ? 'name' : 'best' })}
            >
              Best match
            </button>
          )}
          <div className="list-counts" role="status" aria-live="polite">
            {model.searching ? (
              <>
                {plural(totalShown, 'match', 'matches')}
                {search.pending && <span className="muted"> · searching contents…</span>}
                {data.find.failed && url.q.trim() && <span className="muted"> · snippets unavailable</span>}
                {search.failed && (
                  <span className="error-text">
                    {' '}· the search of the text failed{' '}
                    <button type="button" className="link-button" onClick={search.retry}>Retry</button>
                  </span>
                )}
              </>
            ) : (
              <>
                {plural(model.sources.length, 'source')} ·{' '}
                {plural(model.entries.filter((e) => !e.isIndex).length, 'topic')}
              </>
            )}
          </div>
        </div>
        <div className="memory-scroll">
          {model.searching && totalShown === 0 && search.failed ? (
            <div className="state-panel error small">
              <p>The search failed: memory that mentions “{url.q.trim()}” in its text may be missing.</p>
              <button type="button" onClick={search.retry}>Retry</button>
            </div>
          ) : model.searching && totalShown === 0 ? (
            <div className="state-panel empty small">
              <p>No memory matches {url.q ? <>“{url.q}”</> : 'these filters'}.</p>
              <button type="button" onClick={() => setUrl({ q: '', types: [] })}>Clear search and filters</button>
            </div>
          ) : (
            <SourceList
              model={model}
              health={health.bySource}
              query={url.q}
              found={data.find.found}
              onSelectSource={(id) => setUrl({ source: id, entry: null, tab: url.tab }, 'push')}
              onSelectEntry={openEntry}
              onOpenSnippet={props.onOpenSnippet}
            />
          )}
        </div>
        <SplitHandle split={split} controls="memory-list" label="Width of the memory list" />
      </aside>
      <main className="pane-main" id="main">
        {overview ? (
          <HealthOverview
            sources={model.picked}
            health={health}
            fixes={fixes}
            entryOf={entryOf}
            onOpenEntry={openEntry}
            onOpenSource={openSourceHealth}
            onChanged={changed}
          />
        ) : !source ? (
          <div className="state-panel empty">
            <h2>Pick a memory source</h2>
            <p>Each project has its own memory folder. Choose one on the left, or press j / k to move through entries.</p>
          </div>
        ) : (
          <div className="source-view">
            <div className="source-header">
              {/* Narrow screens show the list or the reader, not both: this is the way back. */}
              <button
                type="button"
                className="back-button"
                onClick={() => setUrl({ entry: null, tab: 'entry' }, 'push')}
                aria-label="Back to the memory list"
              >
                ← Memory
              </button>
              <div className="source-titles">
                <h1 className="source-title">{source.project}</h1>
                <div className="reader-meta">
                  <span className={`kind kind-${source.kind}`}>{kindLabel(source)}</span>
                  {!source.active && <span className="badge badge-inactive">not read by Claude Code</span>}
                  <button type="button" className="path-button" title="Copy the folder path" onClick={() => void copyWithToast(source.dir, 'the folder path', toast)}>
                    {source.dir}
                  </button>
                </div>
              </div>
              <div className="tabs" role="tablist" aria-label="Source views">
                <button type="button" role="tab" aria-selected={url.tab === 'entry'} onClick={() => setUrl({ tab: 'entry' }, 'push')}>
                  Document
                </button>
                <button type="button" role="tab" aria-selected={url.tab === 'graph'} onClick={() => setUrl({ tab: 'graph' }, 'push')} title="Link graph (g)">
                  Link graph
                </button>
                <button type="button" role="tab" aria-selected={url.tab === 'health'} onClick={() => setUrl({ source: source.id, tab: 'health' }, 'push')}>
                  Health{problemCount > 0 && <span className="count"> {problemCount}</span>}
                </button>
              </div>
            </div>
            {url.tab === 'health' ? (
              <SourceProblems
                source={source}
                health={checked}
                loading={health.remote.status === 'loading'}
                readOnly={health.readOnly}
                readOnlyReason={health.readOnlyReason}
                memoryVersion={remote.version}
                fixes={fixes}
                entryOf={(file) => entryOf(source.id, file)}
                onOpenEntry={openEntry}
                onOpenSource={openSourceHealth}
              />
            ) : url.tab === 'graph' ? (
              <LinkGraph
                source={source}
                entries={model.entriesBySource.get(source.id) ?? []}
                selectedId={shownEntry?.id ?? null}
                onOpen={openEntry}
                onDangling={(label) => toast(`${label} does not exist: a link points to a missing file`)}
                health={checked}
              />
            ) : url.entry && !model.activeEntry ? (
              <div className="state-panel">
                <h2>This memory file is gone</h2>
                <p>{url.entry.slice(url.entry.lastIndexOf('/') + 1)} was deleted or renamed on disk. Pick another entry on the left.</p>
              </div>
            ) : shownEntry ? (
              <EntryReader
                key={shownEntry.id}
                entry={shownEntry}
                source={source}
                content={data.entryContent}
                resolver={model.resolverFor(source.id)}
                entryById={model.entryById}
                sourceEntries={model.entriesBySource.get(source.id) ?? EMPTY_ENTRIES}
                pinned={checked?.pinned ?? EMPTY_PINNED}
                plansBySession={props.plansBySession}
                query={url.q}
                landing={props.landing}
                dark={props.dark}
                tab={url.entryTab ?? 'document'}
                onTab={(tab) => setUrl({ entryTab: tab === 'document' ? null : tab }, 'push')}
                onOpenEntry={openEntry}
                onOpenPlan={props.onOpenPlan}
                onNavigate={props.onNavigate}
              />
            ) : (
              <div className="state-panel empty">
                <h2>No MEMORY.md in this folder</h2>
                <p>
                  Claude Code writes one when it saves the first memory; until then nothing from this folder is loaded at session
                  start. Pick a topic on the left.
                </p>
              </div>
            )}
          </div>
        )}
      </main>
    </div>
  );
}

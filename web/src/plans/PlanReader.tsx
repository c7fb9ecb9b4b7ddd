// The open plan: title, project badge (→ that project's memory), session chip, dates, actions
// (copy markdown, copy path, open in editor, full screen), the sessions behind it and an "at risk"
// badge; then two tabs: the rendered document and its history (versions compared).
import { useCallback, useMemo } from 'react';
import type { MemorySource, PlanMetadata } from '../api/types';
import { describeError } from '../api/client';
import type { ContentState } from '../state/useRemote';
import { planHref, sessionHref } from '../state/url';
import { DocumentView, type RenderOptions } from '../reader/DocumentView';
import type { Landing } from '../reader/landing';
import type { ResolvedLink } from '../reader/markdown';
import { Highlight } from '../search/Highlight';
import { copyWithToast, openInEditor } from '../ui/actions';
import { useCommand } from '../ui/commands';
import { exactTime, formatBytes, formatCount, plural, relativeTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { SessionChip } from './SessionChip';
import { followInApp } from '../state/inAppLink';
import { HistoryPanel, type Compare } from '../history/HistoryPanel';
import { OutcomePanel } from '../outcome/OutcomePanel';
import { HistoryState, RiskBadge, usePlanStory } from '../history/PlanStory';
import { SessionCards } from '../history/SessionCards';
import { shownTitle } from '../history/shownTitle';
import { sessionCard, useSessionCard } from '../history/useHistory';
import { downloadShareHtml, shareBody } from './sharePlan';
import { tabIds, Tabs } from '../history/Tabs';

interface Props {
  filename: string;
  plan: PlanMetadata | null;
  content: ContentState;
  planFiles: ReadonlySet<string>;
  sources: MemorySource[];
  query: string;
  /** Opened from a search snippet: the line to start at. */
  landing: Landing | null;
  dark: boolean;
  fullscreen: boolean;
  onToggleFullscreen(): void;
  onOpenPlan(filename: string): void;
  onOpenProjectMemory(sourceId: string): void;
  onNavigate(nav: string): void;
  onClose(): void;
  /** Changes with every live change of the open plan: its history is fetched again. */
  bump: number;
  now: number;
  tab: 'document' | 'history' | 'outcome';
  onTab(tab: 'document' | 'history' | 'outcome'): void;
  compare: Compare;
  onCompare(update: Partial<Compare>): void;
}

export function projectSource(sources: MemorySource[], project: string | null): MemorySource | null {
  if (!project) return null;
  const matches = sources.filter((s) => s.project === project);
  return matches.find((s) => s.active) ?? matches[0] ?? null;
}

export function PlanReader(props: Props) {
  const { filename, plan, content, planFiles, sources, query, dark } = props;
  const toast = useToast();
  const source = projectSource(sources, plan?.project ?? null);
  const cwd = source?.cwd ?? null;

  const options = useMemo<RenderOptions>(
    () => ({
      resolveHref: (href: string): ResolvedLink | null => {
        let name = href.split('#')[0]!.split('?')[0]!.replace(/^\.\//, '');
        try {
          name = decodeURIComponent(name);
        } catch {
          // keep it as written
        }
        if (planFiles.has(name)) return { kind: 'nav', href: planHref(name), nav: `plan:${name}`, title: `Open plan ${name}` };
        return null;
      },
    }),
    [planFiles],
  );

  const text = content.key === filename ? content.text : null;
  const copyMarkdown = useCallback(() => {
    if (text !== null) void copyWithToast(text, 'the markdown', toast);
  }, [text, toast]);
  const copyPath = useCallback(() => {
    if (plan) void copyWithToast(plan.filepath, 'the path', toast);
  }, [plan, toast]);
  const open = useCallback(() => {
    if (plan) void openInEditor(plan.filepath, toast);
  }, [plan, toast]);
  useCommand('copyMarkdown', copyMarkdown);
  useCommand('copyPath', copyPath);
  useCommand('openInEditor', open);

  const story = usePlanStory(filename, props.bump);
  const history = story.history.data;
  const sessionIds = history?.sessions.length ? history.sessions : plan?.sessionId ? [plan.sessionId] : [];
  const localLink = (t: string) => toast(t || 'That link points to a file on disk, which the viewer does not serve');

  // A plan without a heading is shown under its session's title.
  const untitled = plan !== null && plan.title === filename.replace(/\.md$/i, '');
  const sessionTitle = useSessionCard(untitled ? plan.sessionId : null).card?.title ?? null;
  const title = plan ? shownTitle(plan.title, filename, text, sessionTitle) : filename;
  const ids = tabIds('plan', props.tab);
  const cardId = sessionIds[0] ?? null;
  const downloadHtml = useCallback(async () => {
    if (text === null) return;
    // The reader's article, when the document tab shows it: its mermaid diagrams as drawn.
    const shown = document.querySelector('.reader .reader-article');
    const bodyHtml = shareBody(text, options, shown);
    const card = cardId ? await sessionCard(cardId).catch(() => null) : null;
    downloadShareHtml({ title, filename, project: plan?.project ?? null, modified: plan?.modified ?? null, card, bodyHtml, exportedAt: new Date().toISOString() });
  }, [text, options, cardId, title, filename, plan]);
  return (
    <section className="reader" aria-label={`Plan ${title}`}>
      <header className="reader-header">
        {/* Narrow screens show the list or the reader, not both: this is the way back. */}
        <button type="button" className="back-button" onClick={props.onClose} aria-label="Back to the plans list">
          ← Plans
        </button>
        <div className="reader-titles">
          <h1 className="reader-title">
            <Highlight text={title} query={query} />
          </h1>
          <div className="reader-meta">
            <span className="filename" title={plan?.filepath}>
              <Highlight text={filename} query={query} />
            </span>
            {plan?.project && (
              <button
                type="button"
                className="chip project-chip"
                disabled={!source}
                onClick={() => source && props.onOpenProjectMemory(source.id)}
                title={source ? `Show the memory of ${plan.project}` : `No auto memory found for ${plan.project}`}
                aria-label={`Project ${plan.project}${source ? ': show its memory' : ''}`}
              >
                <Highlight text={plan.project} query={query} />
              </button>
            )}
            {plan?.sessionId && <SessionChip sessionId={plan.sessionId} cwd={cwd} />}
            {sessionIds.map((id, i) => (
              <a key={id} className="chip open-session-link" href={sessionHref(id)} onClick={followInApp} title={`Read session ${id}`}>
                {sessionIds.length === 1 ? 'Open session' : `Open session ${i + 1}`} <code>{id.slice(0, 8)}</code>
              </a>
            ))}
            {history && (
              <RiskBadge deletesAt={history.retention.deletesAt} cleanupPeriodDays={history.retention.cleanupPeriodDays} now={props.now} />
            )}
            {plan && (
              <span className="muted" title={exactTime(plan.modified)}>
                edited {relativeTime(plan.modified)}
              </span>
            )}
            {plan && (
              <span className="muted">
                {plural(plan.lineCount, 'line')} · {plural(plan.wordCount, 'word')} · {formatBytes(plan.size)}
              </span>
            )}
          </div>
          <SessionCards sessionIds={sessionIds} onOpenPlan={props.onOpenPlan} />
        </div>
        <div className="reader-actions" role="toolbar" aria-label="Plan actions">
          <button type="button" onClick={copyMarkdown} disabled={text === null} title="Copy markdown (c)">
            Copy markdown
          </button>
          <button type="button" onClick={copyPath} disabled={!plan} title="Copy path (p)">
            Copy path
          </button>
          <button type="button" onClick={() => void downloadHtml()} disabled={text === null} title="Download this plan as one self-contained HTML file, its session card on top">
            Download HTML
          </button>
          <button type="button" onClick={open} disabled={!plan} title="Open in editor (Enter)">
            Open in editor
          </button>
          <button type="button" className="fullscreen-button" onClick={props.onToggleFullscreen} aria-pressed={props.fullscreen} title="Full screen (f)">
            {props.fullscreen ? 'Exit full screen' : 'Full screen'}
          </button>
          <button type="button" className="icon-button close-button" onClick={props.onClose} aria-label="Close the plan" title="Close (Esc)">
            ✕
          </button>
        </div>
      </header>
      <Tabs
        tabs={[
          { key: 'document', label: 'Document' },
          { key: 'history', label: history ? `History (${formatCount(history.versions.length)})` : 'History', title: 'Every version of this plan, compared' },
          { key: 'outcome', label: 'Outcome', title: 'What happened after the plan was approved' },
        ]}
        selected={props.tab}
        label="Plan"
        idBase="plan"
        onSelect={props.onTab}
        className="reader-tabs"
      />
      <div className="tab-panel" role="tabpanel" id={ids.panel} aria-labelledby={ids.tab}>
      {props.tab === 'outcome' ? (
        <OutcomePanel filename={filename} bump={props.bump} />
      ) : props.tab === 'history' ? (
        history && story.texts ? (
          <HistoryPanel
            history={history}
            texts={story.texts}
            compare={props.compare}
            onCompare={props.onCompare}
            options={options}
            onNavigate={props.onNavigate}
            onLocalLink={localLink}
          />
        ) : (
          <HistoryState history={story.history} />
        )
      ) : content.status === 'missing' ? (
        <div className="state-panel">
          <h2>This plan is gone</h2>
          <p>{filename} was deleted or renamed on disk. Pick another plan from the list.</p>
        </div>
      ) : content.status === 'error' ? (
        <div className="state-panel error">
          <h2>Could not load this plan</h2>
          <p>{describeError(content.error)}</p>
          <button type="button" onClick={content.retry}>Retry</button>
        </div>
      ) : text === null ? (
        <div className="state-panel loading" aria-busy="true">
          Loading plan…
        </div>
      ) : (
        <DocumentView
          docKey={filename}
          markdown={text}
          options={options}
          query={query}
          landing={props.landing}
          dark={dark}
          onNavigate={props.onNavigate}
          onLocalLink={localLink}
        />
      )}
      </div>
    </section>
  );
}

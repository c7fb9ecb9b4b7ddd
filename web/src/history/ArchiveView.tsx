// The Archive: plans whose file is gone from disk (Claude Code's cleanup, or by hand) but whose versions
// survive in the transcripts or the viewer's own cache. The list, and a reader of the chosen plan: its
// last version (copied, downloaded, or restored into its plans folder), its history and the sessions behind it.
import { useCallback, useMemo, useState } from 'react';
import { api, describeError } from '../api/client';
import type { ArchivedPlan } from '../api/types';
import type { RenderOptions } from '../reader/DocumentView';
import { DocumentView } from '../reader/DocumentView';
import type { UrlState } from '../state/url';
import type { UrlUpdate } from '../state/useUrlState';
import { useReloadOn, useRemote } from '../state/useRemote';
import { exactTime, formatCount, relativeTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { HistoryPanel } from './HistoryPanel';
import { HistoryState, usePlanStory } from './PlanStory';
import { SessionCards } from './SessionCards';
import { tabIds, Tabs } from './Tabs';
import { shownTitle } from './shownTitle';
import { useSessionCard, useVersionText } from './useHistory';
import { ArchiveActions } from './ArchiveActions';
import { useListKeys } from './useListKeys';
import { RetentionPanel } from './RetentionPanel';

/** Rows drawn before a "show more" button. */
const ROWS_PER_PAGE = 300;
const NO_OPTIONS: RenderOptions = { resolveHref: () => null };

interface Props {
  url: UrlState;
  setUrl(update: UrlUpdate, mode?: 'push' | 'replace'): void;
  /** Changes with live changes of the open plan: its history is fetched again. */
  bump: number;
  /** Changes whenever the plan list does: a plan leaving the disk joins the archive. */
  listBump: number;
  dark: boolean;
  onOpenPlan(filename: string): void;
}

function matches(plan: ArchivedPlan, q: string): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return [plan.title, plan.filename, plan.project ?? ''].some((s) => s.toLowerCase().includes(needle));
}

export function ArchiveView({ url, setUrl, bump, listBump, dark, onOpenPlan }: Props) {
  const [remote, reload] = useRemote(useCallback((signal: AbortSignal) => api.archive(signal), []));
  const [limit, setLimit] = useState(ROWS_PER_PAGE);
  useReloadOn(listBump, reload);
  const q = url.q.trim();
  const rows = useMemo(() => (remote.data ?? []).filter((p) => matches(p, q)), [remote.data, q]);
  const selected = url.plan ? remote.data?.find((p) => p.filename === url.plan) ?? null : null;
  useListKeys(rows.slice(0, limit), url.plan, (filename) => setUrl({ plan: filename, planTab: null, from: null, to: null }, 'push'));

  let list;
  if (!remote.data) {
    list =
      remote.status === 'error' ? (
        <div className="state-panel error">
          <h2>Could not load the archive</h2>
          <p>{describeError(remote.error)}</p>
          <button type="button" onClick={reload}>Retry</button>
        </div>
      ) : (
        <div className="state-panel loading" aria-busy="true">Loading the archive…</div>
      );
  } else if (remote.data.length === 0) {
    list = (
      <div className="state-panel empty">
        <h2>Nothing archived</h2>
        <p>When a plan leaves the disk (Claude Code deletes plans older than its cleanup period), it stays readable here from its versions.</p>
      </div>
    );
  } else {
    list = (
      <ul className="archive-list" aria-label="Archived plans">
        {rows.slice(0, limit).map((p) => (
          <ArchiveRow key={p.filename} plan={p} selected={p.filename === url.plan} onSelect={() => setUrl({ plan: p.filename, from: null, to: null }, 'push')} />
        ))}
        {rows.length > limit && (
          <li>
            <button type="button" onClick={() => setLimit((l) => l + ROWS_PER_PAGE)}>
              Show more ({formatCount(rows.length - limit)} left)
            </button>
          </li>
        )}
      </ul>
    );
  }

  return (
    <div className={`split archive-split${url.plan ? ' has-reader' : ''}`}>
      <section className="pane-list" aria-label="Archive">
        <div className="list-toolbar">
          <div className="list-counts" role="status" aria-live="polite" data-testid="archive-counts">
            {remote.data && (
              <>
                <strong>{formatCount(rows.length)}</strong>
                {q ? ` of ${formatCount(remote.data.length)}` : ''} archived {remote.data.length === 1 ? 'plan' : 'plans'}
              </>
            )}
          </div>
        </div>
        <RetentionPanel listBump={listBump} onOpenSession={(session) => setUrl({ view: 'session', session, at: null }, 'push')} />
        {list}
      </section>
      <main className="pane-main" id="main">
        {url.plan ? (
          <ArchiveReader
            key={url.plan}
            filename={url.plan}
            plan={selected}
            url={url}
            setUrl={setUrl}
            bump={bump}
            dark={dark}
            onOpenPlan={onOpenPlan}
          />
        ) : (
          remote.data &&
          remote.data.length > 0 && (
            <div className="state-panel empty">
              <h2>Pick an archived plan</h2>
              <p>Its last version, its history and the sessions that wrote it are still here.</p>
            </div>
          )
        )}
      </main>
    </div>
  );
}

function ArchiveRow({ plan: p, selected, onSelect }: { plan: ArchivedPlan; selected: boolean; onSelect(): void }) {
  // A title taken from the file name says little: the session's title is asked for, after a short wait
  // so rows scrolled past ask nothing.
  const untitled = p.title === p.filename.replace(/\.md$/i, '');
  const { card } = useSessionCard(untitled ? p.sessionId : null, 150);
  return (
    <li>
      <button type="button" className={`archive-row${selected ? ' selected' : ''}`} aria-current={selected ? 'true' : undefined} data-filename={p.filename} onClick={onSelect}>
        <span className="row-title">
          <span className="row-title-text">{p.title}</span>
        </span>
        <span className="archive-row-meta muted">
          {card?.title && <>from “{card.title}” · </>}
          {p.filename}
          {p.project && ` · ${p.project}`}
          {p.lastVersionAt && ` · last version ${relativeTime(p.lastVersionAt)}`}
          {p.deletedAt && ` · gone ${relativeTime(p.deletedAt)}`}
        </span>
      </button>
    </li>
  );
}

function ArchiveReader({ filename, plan, url, setUrl, bump, dark, onOpenPlan }: {
  filename: string;
  plan: ArchivedPlan | null;
  url: UrlState;
  setUrl(update: UrlUpdate, mode?: 'push' | 'replace'): void;
  bump: number;
  dark: boolean;
  onOpenPlan(filename: string): void;
}) {
  const toast = useToast();
  const story = usePlanStory(filename, bump);
  const history = story.history.data;
  const last = history?.versions.at(-1)?.id ?? null;
  const lastText = useVersionText(story.texts, last);
  // Opened on its last version: what would be restored, and a plan of one version has nothing to compare.
  const tab = url.planTab ?? 'document';
  const ids = tabIds('archive', tab);
  const sessionIds = history?.sessions.length ? history.sessions : plan?.sessionId ? [plan.sessionId] : [];
  const localLink = (t: string) => toast(t || 'That link points to a file on disk, which the viewer does not serve');
  const card = useSessionCard(sessionIds[0] ?? null).card;
  const title = shownTitle(plan?.title ?? filename.replace(/\.md$/i, ''), filename, lastText.text, card?.title ?? null);

  return (
    <section className="reader archive-reader" aria-label={`Archived plan ${title}`}>
      <header className="reader-header">
        <button type="button" className="back-button" onClick={() => setUrl({ plan: null }, 'push')} aria-label="Back to the archive">
          ← Archive
        </button>
        <div className="reader-titles">
          <h1 className="reader-title">{title}</h1>
          <div className="reader-meta">
            <span className="filename" title={plan?.filepath}>{filename}</span>
            <span className="chip archived-chip">Archived: no longer on disk</span>
            {plan?.project && <span className="chip project-chip">{plan.project}</span>}
            {plan?.deletedAt && (
              <span className="muted" title={exactTime(plan.deletedAt)}>
                gone {relativeTime(plan.deletedAt)}
              </span>
            )}
          </div>
          <SessionCards sessionIds={sessionIds} onOpenPlan={onOpenPlan} />
        </div>
        <div className="reader-actions">
          <ArchiveActions filename={filename} plan={plan} title={title} lastId={last} text={lastText.text} cardId={sessionIds[0] ?? null} onRestored={onOpenPlan} />
          <button type="button" className="icon-button close-button" onClick={() => setUrl({ plan: null }, 'push')} aria-label="Close the plan" title="Close (Esc)">
            ✕
          </button>
        </div>
      </header>
      <Tabs
        tabs={[
          { key: 'document', label: 'Last version' },
          { key: 'history', label: history ? `History (${formatCount(history.versions.length)})` : 'History' },
        ]}
        selected={tab}
        label="Archived plan"
        idBase="archive"
        onSelect={(planTab) => setUrl({ planTab }, 'replace')}
        className="reader-tabs"
      />
      <div className="tab-panel" role="tabpanel" id={ids.panel} aria-labelledby={ids.tab} tabIndex={-1}>
        {!history || !story.texts ? (
          <HistoryState history={story.history} />
        ) : tab === 'history' ? (
          <HistoryPanel
            history={history}
            texts={story.texts}
            compare={url}
            onCompare={(update) => setUrl(update, 'replace')}
            options={NO_OPTIONS}
            onNavigate={() => undefined}
            onLocalLink={localLink}
          />
        ) : lastText.text !== null ? (
          <DocumentView docKey={`archive:${filename}`} markdown={lastText.text} options={NO_OPTIONS} query={url.q} dark={dark} onNavigate={() => undefined} onLocalLink={localLink} />
        ) : (
          <div className="state-panel loading" aria-busy="true">Loading the last version…</div>
        )}
      </div>
    </section>
  );
}

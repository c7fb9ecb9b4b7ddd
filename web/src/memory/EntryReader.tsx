// One memory file: description as the lead (the full text as written, with a warning when Claude Code
// reads only part of a frontmatter value), body without frontmatter, links and [[wikilinks]] navigating
// inside the app (broken ones marked), "linked from", the session that wrote it and that session's plan.
// For MEMORY.md: the health panel and the cut point drawn into the document. Secrets masked until revealed.
import { useCallback, useMemo } from 'react';
import type { MemoryEntry, MemorySource, PlanMetadata } from '../api/types';
import { describeError } from '../api/client';
import { SessionChip } from '../plans/SessionChip';
import { DocumentView, type RenderOptions } from '../reader/DocumentView';
import type { Landing } from '../reader/landing';
import { Highlight } from '../search/Highlight';
import { entryHref, planHref } from '../state/url';
import type { ContentState } from '../state/useRemote';
import { copyWithToast, openInEditor } from '../ui/actions';
import { useCommand } from '../ui/commands';
import { exactTime, formatBytes, formatCount, plural, relativeTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { findOrphans, indexMentions } from '../../../src/domain/memory/orphans';
import { computeCut, utf8Length } from './cutPoint';
import { CommentCutWarning } from './CommentCutWarning';
import { IndexHealth } from './IndexHealth';
import { indexReach, linkRenderOptions, splitMemoryFile, type EntryResolver } from './links';
import { maskedLine, SecretNotice, useMaskedText } from './SecretNotice';
import { MemoryTimeline } from './MemoryTimeline';
import { tabIds, Tabs } from '../history/Tabs';
import './timeline.css';

interface Props {
  entry: MemoryEntry;
  source: MemorySource;
  content: ContentState;
  resolver: EntryResolver;
  entryById: Map<string, MemoryEntry>;
  /** Every entry of the source, and its pinned memories (the health check's): what decides the orphans. */
  sourceEntries: readonly MemoryEntry[];
  pinned: readonly string[];
  plansBySession: Map<string, PlanMetadata>;
  query: string;
  /** Opened from a search snippet: the line of the file (frontmatter included) to start at. */
  landing: Landing | null;
  dark: boolean;
  /** The tab shown (kept in the URL, so a link or the back button lands on it). */
  tab: EntryTab;
  onTab(tab: EntryTab): void;
  onOpenEntry(entry: MemoryEntry): void;
  onOpenPlan(filename: string): void;
  onNavigate(nav: string): void;
}

function flash(el: Element | null): void {
  if (!el) return;
  el.scrollIntoView({ block: 'center' });
  el.classList.remove('flash');
  void (el as HTMLElement).offsetWidth;
  el.classList.add('flash');
}

export type EntryTab = 'document' | 'history' | 'blame';
const ENTRY_TABS: { key: EntryTab; label: string; title?: string }[] = [
  { key: 'document', label: 'Document' },
  { key: 'history', label: 'History', title: 'Every version: who wrote it, when, answering which prompt' },
  { key: 'blame', label: 'Blame', title: 'Who last wrote each line' },
];

export function EntryReader({ entry, source, content, resolver, sourceEntries, pinned, plansBySession, query, landing, dark, tab: shownTab, onTab, onOpenEntry, onOpenPlan, onNavigate }: Props) {
  const toast = useToast();
  // `raw` measures the file (cut point, sizes); `text`, masked until revealed, is what is shown and copied.
  const raw = content.key === entry.id ? content.text : null;
  const masked = useMaskedText(raw, entry.id);
  const text = masked.shown;
  const doc = useMemo(() => (text === null ? null : splitMemoryFile(text)), [text]);
  // The reader shows the body: a line of the frontmatter (name, description) has nothing to land on there.
  const bodyLanding = useMemo(() => {
    const line = landing && doc ? landing.line - doc.bodyStartLine : 0;
    return landing && line >= 1 ? { key: landing.key, line } : null;
  }, [landing, doc]);

  const cut = useMemo(() => (entry.isIndex && raw !== null ? computeCut(raw) : null), [entry.isIndex, raw]);
  const reach = useMemo(
    () => (cut && doc ? indexReach(doc, cut.keptEnd, resolver, entry.filename) : null),
    [cut, doc, resolver, entry.filename],
  );

  // The one definition of an orphan (orphans.ts), as the health check and the sidebar use it.
  const orphans = useMemo(
    () => findOrphans(sourceEntries, pinned, resolver, entry.isIndex && raw !== null ? indexMentions(raw) : []),
    [sourceEntries, pinned, resolver, entry.isIndex, raw],
  );
  const isOrphan = orphans.some((o) => o.file === entry.filename);

  const options = useMemo<RenderOptions>(() => {
    let cutMarker: RenderOptions['cut'] = null;
    if (cut?.truncated && doc && cut.firstUnreadLine !== null) {
      const unread = cut.totalLines - cut.keptLines;
      cutMarker = {
        line: Math.max(0, cut.firstUnreadLine - doc.bodyStartLine),
        midLine: cut.midLine,
        label: `Claude Code stops reading here: ${formatCount(unread)} more ${unread === 1 ? 'line is' : 'lines are'} not loaded`,
      };
    }
    return { ...linkRenderOptions(resolver, entry.filename), cut: cutMarker };
  }, [resolver, entry.filename, cut, doc]);

  const copyMarkdown = useCallback(() => {
    if (text !== null) void copyWithToast(text, 'the markdown', toast);
  }, [text, toast]);
  const copyPath = useCallback(() => void copyWithToast(entry.filepath, 'the path', toast), [entry.filepath, toast]);
  const open = useCallback(() => void openInEditor(entry.filepath, toast), [entry.filepath, toast]);
  useCommand('copyMarkdown', copyMarkdown);
  useCommand('copyPath', copyPath);
  useCommand('openInEditor', open);

  const linkedFrom = entry.linkedFrom.map((name) => ({ name, target: resolver.entry(name) }));
  const sessionPlan = entry.sessionId ? plansBySession.get(entry.sessionId) ?? null : null;

  const written = doc?.written ?? null;
  const description = written?.description ?? (entry.description === null ? null : maskedLine(entry.description, masked.revealed));
  const commentCut = written && doc ? <CommentCutWarning written={written} read={doc.data} /> : null;

  let before = null;
  if (entry.isIndex && cut && reach && raw !== null) {
    const orphanEntries: { entry: MemoryEntry; named: boolean }[] = [];
    for (const o of orphans) {
      const e = resolver.entry(o.file);
      if (e) orphanEntries.push({ entry: e, named: o.named !== null });
    }
    before = (
      <IndexHealth
        source={source}
        cut={cut}
        measured={{ lines: raw.split('\n').length, bytes: utf8Length(raw) }}
        reach={reach}
        orphans={orphanEntries}
        dangling={source.index?.danglingLinks ?? []}
        onOpenEntry={onOpenEntry}
        onShowCut={() => flash(document.querySelector('.reader .cut-marker'))}
        onShowLink={(target) => {
          const links = Array.from(document.querySelectorAll<HTMLElement>('.reader .markdown-body [data-target]'));
          const hit =
            links.find((l) => l.dataset.target === target) ??
            links.find((l) => (l.dataset.target ?? '').endsWith(target) || target.endsWith(l.dataset.target ?? '\u0000'));
          if (hit) flash(hit);
          else toast(`The link to ${target} is not in the rendered index (it may sit in code)`);
        }}
      />
    );
  } else if (description) {
    before = (
      <p className="lead">
        <Highlight text={description} query={query} />
      </p>
    );
  }
  if (commentCut) {
    before = (
      <>
        {before}
        {commentCut}
      </>
    );
  }

  // Above everything the document shows: what it hides, and the one control that shows it.
  before = (
    <>
      <SecretNotice masked={masked} />
      {before}
    </>
  );

  const after = (
    <footer className="entry-footer">
      <section aria-label="Linked from">
        <h2>Linked from</h2>
        {linkedFrom.length === 0 ? (
          <p className="muted">No other memory links here.</p>
        ) : (
          <ul className="link-list">
            {linkedFrom.map(({ name, target }) => (
              <li key={name}>
                {target ? (
                  <a href={entryHref(target.sourceId, target.id)} onClick={(e) => { e.preventDefault(); onOpenEntry(target); }}>
                    {target.isIndex ? 'MEMORY.md' : target.name}
                  </a>
                ) : (
                  <span>{name}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </footer>
  );

  return (
    <section className="reader entry-reader" aria-label={`Memory ${entry.name}`}>
      <header className="reader-header">
        <div className="reader-titles">
          <h1 className="reader-title">
            {entry.isIndex ? 'MEMORY.md' : <Highlight text={entry.name} query={query} />}
          </h1>
          <div className="reader-meta">
            {!entry.isIndex && <span className="filename"><Highlight text={entry.filename} query={query} /></span>}
            {entry.type && <span className={`type-chip type-${entry.type}`}>{entry.type}</span>}
            {isOrphan && <span className="badge badge-warn">not linked from MEMORY.md</span>}
            <span className="muted" title={exactTime(entry.modified)}>
              edited {relativeTime(entry.modified)}
            </span>
            <span className="muted">
              {plural(entry.lineCount, 'line')} · {formatBytes(entry.size)}
            </span>
            {entry.sessionId && <SessionChip sessionId={entry.sessionId} cwd={source.cwd} label="Written in session" />}
            {sessionPlan && (
              <a
                className="chip plan-link"
                href={planHref(sessionPlan.filename)}
                onClick={(e) => {
                  e.preventDefault();
                  onOpenPlan(sessionPlan.filename);
                }}
                title="The plan of the session that wrote this memory"
              >
                Plan: {sessionPlan.title || sessionPlan.filename}
              </a>
            )}
          </div>
        </div>
        <div className="reader-actions" role="toolbar" aria-label="Memory actions">
          <button type="button" onClick={copyMarkdown} disabled={text === null} title="Copy markdown (c)">Copy markdown</button>
          <button type="button" onClick={copyPath} title="Copy path (p)">Copy path</button>
          <button type="button" onClick={open} title="Open in editor (Enter)">Open in editor</button>
        </div>
      </header>
      <Tabs tabs={ENTRY_TABS} selected={shownTab} label="Memory views" idBase="entry" onSelect={onTab} className="entry-tabs" />
      {/* The panel the selected tab controls; the document's keeps the reader's own layout (display: contents). */}
      <div role="tabpanel" id={tabIds('entry', shownTab).panel} aria-labelledby={tabIds('entry', shownTab).tab} className={shownTab === 'document' ? 'entry-document-panel' : 'entry-timeline'}>
      {shownTab !== 'document' ? (
        <MemoryTimeline id={entry.id} source={source} view={shownTab} stamp={`${entry.modified}\0${entry.size}`} />
      ) : content.status === 'missing' ? (
        <div className="state-panel">
          <h2>This memory file is gone</h2>
          <p>{entry.filename} was deleted or renamed on disk.</p>
        </div>
      ) : content.status === 'error' ? (
        <div className="state-panel error">
          <h2>Could not load this memory file</h2>
          <p>{describeError(content.error)}</p>
          <button type="button" onClick={content.retry}>Retry</button>
        </div>
      ) : doc === null ? (
        <div className="state-panel loading" aria-busy="true">Loading…</div>
      ) : (
        <DocumentView
          docKey={entry.id}
          markdown={doc.body}
          options={options}
          query={query}
          landing={bodyLanding}
          dark={dark}
          onNavigate={onNavigate}
          onLocalLink={(t) => toast(t || 'That link points to a file on disk, which the viewer does not serve')}
          before={before}
          after={after}
          className={entry.isIndex ? 'index-document' : ''}
        />
      )}
      </div>
    </section>
  );
}

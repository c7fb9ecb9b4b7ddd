// A memory file's History and Blame (GET /api/memory/history, /versions, /blame): every version with the
// session, time and prompt that wrote it, or "changed outside Claude Code" with the time the viewer saw
// it; any two versions compared with the plan history's line diff; each line of the file with the
// version that last wrote it. Texts and prompts are masked as the Document tab masks them, until revealed.
// Above the versions, the sessions that wrote the file and those a relevant_memories attachment handed it to,
// each a link to its session view. A version a bulk change outside Claude Code left (GET /api/memory/changes)
// says so, with a link to the folder's Health tab where the change is listed and can be restored.
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import type { BlameLine, MemoryBlameBody, MemoryChangesBody, MemoryHistoryBody, MemorySource, MemoryVersion, SessionLoad } from '../api/types';
import { api, describeError } from '../api/client';
import { diffTexts } from '../history/lineDiff';
import { RawDiff } from '../history/RawDiff';
import { exactTime, relativeTime } from '../ui/format';
import { DEFAULT_STATE, serializeUrlState, sessionHref } from '../state/url';
import { followInApp } from '../state/inAppLink';
import { useLoaded } from '../state/useLoaded';
import { maskSecrets } from '../../../src/domain/memory/care/secrets';

export type TimelineView = 'history' | 'blame';

interface Props {
  id: string;
  /** The file's memory folder: its bulk changes are looked up by its project. */
  source: MemorySource;
  view: TimelineView;
  /** Changes when the file does: the answers are fetched again. */
  stamp: string;
}

const SOURCE = { write: 'Written', edit: 'Edited', outside: 'Changed outside Claude Code' } as const;

function Who({ source, sessionId, at }: { source: MemoryVersion['source']; sessionId: string | null; at: string | null }) {
  return (
    <>
      <span className={`who who-${source}`}>{source === 'outside' ? SOURCE.outside : `${SOURCE[source]} in session ${sessionId?.slice(0, 8) ?? '?'}`}</span>
      {at && <span className="muted" title={exactTime(at)}> · {source === 'outside' ? 'seen ' : ''}{relativeTime(at)}</span>}
    </>
  );
}

export function MemoryTimeline({ id, source, view, stamp }: Props) {
  const [revealed, setRevealed] = useState(false);
  const show = useCallback((text: string): string => (revealed ? text : maskSecrets(text).text), [revealed]);
  const history = useLoaded<MemoryHistoryBody>((signal) => api.memoryHistory(id, signal), [id, stamp]);
  const changes = useLoaded<MemoryChangesBody | null>((signal) => (view === 'history' ? api.memoryChanges(source.project, signal) : Promise.resolve(null)), [source.project, stamp, view]);
  const blame = useLoaded<MemoryBlameBody | null>((signal) => (view === 'blame' ? api.memoryBlame(id, signal) : Promise.resolve(null)), [id, stamp, view]);
  const reveal = (
    <p className="secret-notice" role="note">
      {revealed ? 'Showing secrets in clear.' : 'What looks like a credential is hidden.'}{' '}
      <button type="button" className="link-button" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>{revealed ? 'Hide' : 'Reveal'}</button>
    </p>
  );
  if (history.status === 'error') return <div className="state-panel error"><p>{describeError(history.error)}</p></div>;
  if (history.status === 'loading') return <div className="state-panel loading" aria-busy="true">Loading…</div>;
  const versions = history.value.versions;
  if (versions.length === 0) return <p className="muted">No version of this file is known.</p>;
  if (view === 'history') {
    return (
      <>
        <FileSessions versions={versions} loadedBy={history.value.loadedBy ?? []} />
        <HistoryList id={id} versions={versions} show={show} reveal={reveal} sourceId={source.id} bulk={bulkOf(id, source.id, changes.status === 'ready' ? changes.value : null)} />
      </>
    );
  }
  if (blame.status === 'error') return <div className="state-panel error"><p>{describeError(blame.error)}</p></div>;
  if (blame.status === 'loading' || blame.value === null) return <div className="state-panel loading" aria-busy="true">Loading…</div>;
  return <BlameTable lines={blame.value.lines} versions={versions} show={show} reveal={reveal} />;
}

/** The versions of file `id` that a bulk change left: how many files it changed, and when. */
function bulkOf(id: string, sourceId: string, body: MemoryChangesBody | null): Map<string, { count: number; at: string }> {
  const byVersion = new Map<string, { count: number; at: string }>();
  for (const change of body?.changes ?? []) {
    if (change.sourceId !== sourceId) continue;
    for (const f of change.files) if (f.id === id && f.afterVersionId !== null) byVersion.set(f.afterVersionId, { count: change.files.length, at: change.lastAt });
  }
  return byVersion;
}

function SessionLink({ sessionId }: { sessionId: string }) {
  return <a href={sessionHref(sessionId)} onClick={followInApp} className="session-link" title={sessionId}><code>{sessionId.slice(0, 8)}</code></a>;
}

/** Who wrote the file (its versions' sessions, oldest first) and who was handed it (newest first). */
function FileSessions({ versions, loadedBy }: { versions: MemoryVersion[]; loadedBy: SessionLoad[] }) {
  const writers = [...new Set(versions.map((v) => v.sessionId).filter((id): id is string => id !== null))];
  return (
    <div className="file-sessions" data-testid="file-sessions">
      <p className="written-by">
        Written by: {writers.length === 0 ? <span className="muted">no session (only changes outside Claude Code)</span> : writers.map((id, i) => <span key={id}>{i > 0 && ', '}<SessionLink sessionId={id} /></span>)}
      </p>
      <p className="loaded-by">
        Loaded by these sessions: {loadedBy.length === 0 ? <span className="muted">none handed it as a relevant memory</span> : loadedBy.map((l, i) => (
          <span key={l.sessionId}>
            {i > 0 && ', '}<SessionLink sessionId={l.sessionId} />
            {l.lastAt && <span className="muted" title={exactTime(l.lastAt)}> {relativeTime(l.lastAt)}{l.times > 1 ? ` (${l.times} times)` : ''}</span>}
          </span>
        ))}
      </p>
    </div>
  );
}

interface HistoryProps {
  id: string;
  sourceId: string;
  versions: MemoryVersion[];
  show(text: string): string;
  reveal: ReactNode;
  bulk: Map<string, { count: number; at: string }>;
}

function HistoryList({ id, sourceId, versions, show, reveal, bulk }: HistoryProps) {
  const healthHref = serializeUrlState({ ...DEFAULT_STATE, view: 'memory', source: sourceId, tab: 'health' });
  const [from, setFrom] = useState(versions.length > 1 ? versions.at(-2)!.id : versions[0]!.id);
  const [to, setTo] = useState(versions.at(-1)!.id);
  const texts = useLoaded<[string, string]>((signal) => Promise.all([api.memoryVersion(id, from, signal), api.memoryVersion(id, to, signal)]), [id, from, to]);
  const diff = useMemo(() => (texts.status === 'ready' ? diffTexts(show(texts.value[0]), show(texts.value[1])) : null), [texts, show]);
  const label = (v: MemoryVersion, i: number): string => `v${i + 1} · ${v.source === 'outside' ? 'outside Claude Code' : SOURCE[v.source]}`;
  return (
    <div className="memory-timeline" data-testid="memory-history">
      {reveal}
      <ol className="memory-versions">
        {versions.map((v, i) => (
          <li key={v.id} className={`memory-version source-${v.source}`} data-version={v.id}>
            <span className="version-name">{label(v, i)}</span> <Who source={v.source} sessionId={v.sessionId} at={v.at} />
            {v.prompt && <blockquote className="version-prompt" title="The prompt this write was answering">{show(v.prompt)}</blockquote>}
            {v.gapBefore && <p className="notice">A change before this version could not be rebuilt.</p>}
            {bulk.has(v.id) && (
              <p className="bulk-note">
                One of {bulk.get(v.id)!.count} files changed outside Claude Code at once (Auto Dream or another tool):{' '}
                <a href={healthHref} onClick={followInApp}>see the whole change, and restore it</a>
              </p>
            )}
          </li>
        ))}
      </ol>
      <div className="compare-pickers">
        <label>From <select value={from} onChange={(e) => setFrom(e.currentTarget.value)} aria-label="Compare from">
          {versions.map((v, i) => <option key={v.id} value={v.id}>{label(v, i)}</option>)}
        </select></label>{' '}
        <label>To <select value={to} onChange={(e) => setTo(e.currentTarget.value)} aria-label="Compare to">
          {versions.map((v, i) => <option key={v.id} value={v.id}>{label(v, i)}</option>)}
        </select></label>
      </div>
      <div data-testid="memory-diff">
        {texts.status === 'error' ? <p>{describeError(texts.error)}</p> : diff === null ? <p aria-busy="true">Loading…</p> : <RawDiff diff={diff} layout="inline" />}
      </div>
    </div>
  );
}

function BlameTable({ lines, versions, show, reveal }: { lines: BlameLine[]; versions: MemoryVersion[]; show(text: string): string; reveal: ReactNode }) {
  const number = new Map(versions.map((v, i) => [v.id, i + 1]));
  return (
    <div className="memory-blame" data-testid="memory-blame">
      {reveal}
      <table className="blame-table">
        <thead><tr><th scope="col">Line</th><th scope="col">Last written by</th><th scope="col">Text</th></tr></thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.line} className={`blame-line source-${l.source}`} title={l.prompt ? `Answering: ${show(l.prompt)}` : undefined}>
              <td className="ln">{l.line}</td>
              <td className="blame-who">v{number.get(l.versionId) ?? '?'} · <Who source={l.source} sessionId={l.sessionId} at={l.at} /></td>
              <td className="line-text"><code>{show(l.text)}</code></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// A log as a thread: the entries loaded so far (a call's result shown with its call), more on scroll
// or with the button, and for the main log its subagents, each a nested thread loaded when opened.
import { useEffect, useMemo, useRef, useState } from 'react';
import { describeError } from '../api/client';
import type { SessionCard, TranscriptEntry } from '../api/types';
import { formatBytes, formatCount } from '../ui/format';
import { EntryRow } from './EntryRow';
import { useTranscript } from './useTranscript';

interface Props {
  sessionId: string;
  /** '' for the main log. */
  agent: string;
  start: number;
  highlight: number | null;
  onLink?: ((cursor: number) => void) | undefined;
  card?: SessionCard | null;
}

function agentLabel(id: string, card: SessionCard | null | undefined): string {
  const a = card?.subagents.find((s) => s.agentId === id);
  return [a?.type, a?.description].filter(Boolean).join(': ') || `Subagent ${id.slice(0, 8)}`;
}

export function Subagent({ sessionId, agentId, card }: { sessionId: string; agentId: string; card?: SessionCard | null | undefined }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="subagent" data-agent-id={agentId}>
      <button type="button" className="subagent-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> {agentLabel(agentId, card)} <code>{agentId.slice(0, 8)}</code>
      </button>
      {open && <Thread sessionId={sessionId} agent={agentId} start={0} highlight={null} />}
    </div>
  );
}

export function Thread({ sessionId, agent, start, highlight, onLink, card }: Props) {
  const [retry, setRetry] = useState(0);
  const t = useTranscript(sessionId, agent, start, retry);
  const more = useRef<HTMLButtonElement>(null);
  const { loadMore } = t;

  const results = useMemo(() => {
    const byCall = new Map<string, TranscriptEntry>();
    for (const e of t.entries) if (e.kind === 'tool-result' && e.toolUseId) byCall.set(e.toolUseId, e);
    return byCall;
  }, [t.entries]);
  const calls = useMemo(() => new Set(t.entries.filter((e) => e.kind === 'tool-call' && e.toolUseId).map((e) => e.toolUseId)), [t.entries]);
  // A subagent is nested under the call that started it: the call its .meta.json names, else the call whose
  // result names it (logs without the meta file); the rest are listed.
  const nestedAt = useMemo(() => {
    const at = new Map<number, string>();
    const startedBy = new Map((card?.subagents ?? []).filter((a) => a.toolUseId).map((a) => [a.toolUseId!, a.agentId]));
    for (const e of t.entries) {
      if (e.kind !== 'tool-call' || !e.toolUseId) continue;
      const named = startedBy.get(e.toolUseId);
      const text = results.get(e.toolUseId)?.text ?? '';
      const id = named !== undefined && t.subagents.includes(named) ? named : t.subagents.find((a) => text.includes(a));
      if (id !== undefined && ![...at.values()].includes(id)) at.set(e.cursor, id);
    }
    return at;
  }, [t.entries, t.subagents, results, card]);

  // More on scroll: the button coming into view asks for the next page.
  useEffect(() => {
    const el = more.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((seen) => seen.some((s) => s.isIntersecting) && loadMore(), { rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  }, [loadMore, t.next, t.busy]);

  // A deep link: the entry scrolls into view once it is there.
  const landed = useRef<number | null>(null);
  useEffect(() => {
    if (highlight === null || landed.current === highlight) return;
    const el = document.getElementById(`entry-${highlight}`);
    if (!el) return;
    landed.current = highlight;
    el.scrollIntoView({ block: 'center' });
  }, [highlight, t.entries]);

  if (t.status === 'loading') return <div className="state-panel loading" aria-busy="true">Reading the {agent ? 'subagent\'s log' : 'session'}…</div>;
  if (t.status !== 'ready') {
    return (
      <div className="state-panel error">
        <p>{t.status === 'missing' ? 'No log of this session is left on disk.' : describeError(t.error)}</p>
        <button type="button" onClick={() => setRetry((n) => n + 1)}>Retry</button>
      </div>
    );
  }
  const listed = agent === '' ? t.subagents.filter((a) => ![...nestedAt.values()].includes(a)) : [];
  return (
    <div className={agent ? 'thread nested-thread' : 'thread'}>
      {listed.length > 0 && (
        <section className="subagents" aria-label="Subagents">
          <h2 className="subagents-title">{formatCount(listed.length)} subagent{listed.length === 1 ? '' : 's'}</h2>
          {listed.map((id) => <Subagent key={id} sessionId={sessionId} agentId={id} card={card} />)}
        </section>
      )}
      {t.entries.length === 0 && t.next === null && <p className="muted">Nothing to show in this log.</p>}
      {t.prev !== null && (
        <p className="transcript-more-row">
          <button type="button" className="transcript-earlier" onClick={t.loadEarlier} disabled={t.busy}>
            {t.busy ? 'Loading…' : 'Load earlier'}
          </button>{' '}
          <span className="muted">from {formatBytes(t.first)} into the log</span>
        </p>
      )}
      <ol className="transcript" aria-label={agent ? 'Subagent thread' : 'Conversation'}>
        {t.entries.map((e, i) =>
          e.kind === 'tool-result' && e.toolUseId && calls.has(e.toolUseId) ? null : (
            <EntryRow
              key={`${e.cursor}:${i}`}
              index={i}
              firstOfLine={i === 0 || t.entries[i - 1]!.cursor !== e.cursor}
              sessionId={sessionId}
              entry={e}
              result={e.toolUseId ? results.get(e.toolUseId) : undefined}
              highlighted={highlight === e.cursor}
              onLink={onLink}
              nested={nestedAt.has(e.cursor) ? <Subagent sessionId={sessionId} agentId={nestedAt.get(e.cursor)!} card={card} /> : undefined}
            />
          ),
        )}
      </ol>
      {t.next !== null && (
        <p className="transcript-more-row">
          <button type="button" ref={more} className="transcript-more" onClick={loadMore} disabled={t.busy}>
            {t.busy ? 'Loading…' : 'Load more'}
          </button>{' '}
          <span className="muted">
            {formatBytes(t.next)} of {formatBytes(t.totalBytes)} read
          </span>
        </p>
      )}
      {t.error !== null && t.status === 'ready' && <p role="alert" className="muted">{describeError(t.error)}</p>}
    </div>
  );
}

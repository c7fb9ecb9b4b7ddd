// The Archive's retention panel (GET /api/retention): what Claude Code will delete within a week (plans of
// its shared folder, sessions' transcripts) and what the viewer keeps of it. Folded by default under a
// one-line summary; the lists open below it.
import { useCallback } from 'react';
import { api } from '../api/client';
import { useReloadOn, useRemote } from '../state/useRemote';
import { exactTime, formatBytes, formatCount, relativeTime } from '../ui/format';

const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;

interface Props {
  /** Changes whenever the plan list does: asked again then. */
  listBump: number;
  onOpenSession(sessionId: string): void;
}

export function RetentionPanel({ listBump, onOpenSession }: Props) {
  const [remote, reload] = useRemote(useCallback((signal: AbortSignal) => api.retention(signal), []));
  useReloadOn(listBump, reload);
  const r = remote.data;
  if (!r) return null;
  const { counts } = r;
  return (
    <details className="retention-panel" data-testid="retention-panel">
      <summary>
        Claude Code will delete {plural(counts.plans, 'plan', 'plans')} and {plural(counts.transcripts, 'transcript', 'transcripts')} within a week;
        the viewer keeps {formatCount(counts.plansKept)} of the plans' versions and {formatCount(counts.transcriptsKept)} of the transcripts
      </summary>
      <div className="retention-body">
        <p className="muted">
          cleanupPeriodDays: {r.cleanupPeriodDays} ({r.source === 'settings' ? 'from settings.json' : 'the default'}).
          {r.note && <> {r.note}.</>}
        </p>
        <p className="muted" data-testid="kept-transcripts">
          {r.keptTranscripts.keeping
            ? <>Transcripts kept by the viewer: {plural(r.keptTranscripts.logs, 'log', 'logs')} ({formatCount(r.keptTranscripts.goneLogs)} deleted by Claude Code),{' '}
              {formatBytes(r.keptTranscripts.keptBytes)} of {formatBytes(r.keptTranscripts.limitBytes)} (--history-limit; the oldest are dropped first).</>
            : <>The viewer keeps no copy of transcripts (no cache dir, or --history-limit 0).</>}
        </p>
        {r.plans.length > 0 && (
          <>
            <h3>Plans</h3>
            <ul className="retention-list" aria-label="Plans due for deletion">
              {r.plans.map((p) => (
                <li key={p.filepath}>
                  <span className="retention-name">{p.filename}</span>{' '}
                  <span className="muted" title={exactTime(p.deletesAt)}>deleted {relativeTime(p.deletesAt)}</span>{' '}
                  <span className={`chip${p.kept ? '' : ' retention-lost'}`}>{p.kept ? 'kept by the viewer' : 'not kept yet'}</span>
                </li>
              ))}
              {counts.plans > r.plans.length && <li className="muted">and {formatCount(counts.plans - r.plans.length)} more</li>}
            </ul>
          </>
        )}
        {r.transcripts.length > 0 && (
          <>
            <h3>Transcripts</h3>
            <p className="muted">{r.transcriptsNote}</p>
            <ul className="retention-list" aria-label="Transcripts due for deletion">
              {r.transcripts.map((t) => (
                <li key={t.file}>
                  <button type="button" className="link-button retention-name" onClick={() => onOpenSession(t.sessionId)}>
                    {t.project ? `${t.project} · ` : ''}{t.sessionId}
                  </button>{' '}
                  <span className="muted" title={exactTime(t.deletesAt)}>deleted {relativeTime(t.deletesAt)}</span>{' '}
                  <span className={`chip${t.kept || t.keptFacts !== 'none' ? '' : ' retention-lost'}`}>
                    {t.kept ? 'kept by the viewer' : t.keptFacts === 'prompt-history' ? 'not kept yet; prompts stay in history.jsonl' : 'not kept yet'}
                  </span>
                </li>
              ))}
              {counts.transcripts > r.transcripts.length && <li className="muted">and {formatCount(counts.transcripts - r.transcripts.length)} more</li>}
            </ul>
          </>
        )}
      </div>
    </details>
  );
}

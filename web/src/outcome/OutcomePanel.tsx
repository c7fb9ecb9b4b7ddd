// The Outcome tab: what happened after the plan was approved (GET /api/plans/{filename}/outcome). The
// steps against the work first (a heuristic, and said to be one), then files, commands, tasks, time and cost.
import { useState } from 'react';
import { api, describeError } from '../api/client';
import type { PlanOutcome } from '../api/types';
import { useKeyed } from '../history/useHistory';
import { exactTime, formatCount, plural, relativeTime } from '../ui/format';

const STATUS_TEXT = { done: 'done', partly: 'partly', 'no-evidence': 'no evidence' } as const;

export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.round(ms / 1000)} s`;
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : usd >= 0.01 ? `$${usd.toFixed(3)}` : usd > 0 ? '< $0.01' : '$0';
}

export function OutcomePanel({ filename, bump }: { filename: string; bump: number }) {
  const [retries, setRetries] = useState(0);
  const remote = useKeyed(filename, bump + retries, (name, signal) => api.outcome(name, signal));
  const o = remote.key === filename ? remote.data : null;
  if (o === null) {
    return remote.status === 'error' || remote.status === 'missing' ? (
      <div className="state-panel error">
        <h2>Could not load the outcome</h2>
        <p>{remote.status === 'missing' ? 'The viewer knows no plan of that name.' : describeError(remote.error)}</p>
        <button type="button" onClick={() => setRetries((n) => n + 1)}>Retry</button>
      </div>
    ) : (
      <div className="state-panel loading" aria-busy="true">Reading what happened after the approval…</div>
    );
  }
  if (o.status === 'not-approved') {
    return (
      <div className="state-panel empty" data-testid="outcome">
        <h2>Not approved yet</h2>
        <p>No transcript shows this plan approved in plan mode, so there is no work after it to show.</p>
      </div>
    );
  }
  return <Outcome o={o} />;
}

function Outcome({ o }: { o: PlanOutcome }) {
  const count = (status: keyof typeof STATUS_TEXT) => o.steps.filter((s) => s.status === status).length;
  const lines = o.files.reduce((n, f) => ({ added: n.added + f.added, removed: n.removed + f.removed }), { added: 0, removed: 0 });
  return (
    // Focusable: it scrolls on its own, and a keyboard must reach it (axe scrollable-region-focusable).
    <div className="outcome-panel" data-testid="outcome" tabIndex={0}>
      <p className="outcome-glance" role="status">
        {o.steps.length > 0 && (
          <>
            <strong>{count('done')}</strong> of {plural(o.steps.length, 'step')} done, {count('partly')} partly, {count('no-evidence')} without evidence ·{' '}
          </>
        )}
        {plural(o.files.length, 'file')} (+{formatCount(lines.added)} −{formatCount(lines.removed)}) · {plural(o.commits.length, 'commit')} ·{' '}
        tests {o.tests.runs === 0 ? 'not run' : o.tests.lastPassed ? 'passing' : 'failing'} · {formatDuration(o.time.activeMs)} active of {formatDuration(o.time.wallMs)} ·{' '}
        {formatUsd(o.tokens.costUsd)}
      </p>
      {o.unverified.length > 0 && (
        <ul className="outcome-warnings" aria-label="Verification">
          {o.unverified.map((w) => <li key={w}>{w}</li>)}
        </ul>
      )}
      {o.steps.length > 0 && (
        <section aria-label="Steps">
          <h2 className="section-title">Steps</h2>
          <p className="muted outcome-note">Matched by the files a step names, the commands it quotes and the tasks that share its words: a heuristic, not a judgment.</p>
          <table className="outcome-steps">
            <thead>
              <tr><th scope="col">Step</th><th scope="col">State</th><th scope="col">Evidence</th></tr>
            </thead>
            <tbody>
              {o.steps.map((s) => (
                <tr key={s.line} className={`step-${s.status}`}>
                  <td>{s.text}</td>
                  <td><span className={`chip step-chip step-${s.status}`}>{STATUS_TEXT[s.status]}</span></td>
                  <td>{s.evidence.length ? s.evidence.join('; ') : <span className="muted">none found</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <section aria-label="Files">
        <h2 className="section-title">Files</h2>
        {o.files.length === 0 ? <p className="muted">No file was written after the approval.</p> : (
          <ul className="outcome-files">
            {o.files.map((f) => (
              <li key={f.path}>
                <code>{f.path}</code> <span className="added">+{formatCount(f.added)}</span> <span className="removed">−{formatCount(f.removed)}</span>
                {f.userModified && <span className="chip">changed by you</span>}
                {o.unplannedFiles.includes(f.path) && <span className="chip unplanned-chip" title="The plan never names this file">not in the plan</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
      {o.commands.length > 0 && (
        <section aria-label="Commands">
          <h2 className="section-title">Commands</h2>
          <ul className="outcome-commands">
            {o.commands.map((c, i) => (
              <li key={i} className={c.failed ? 'failed' : undefined}>
                <code>{c.command.length > 200 ? `${c.command.slice(0, 200)}…` : c.command}</code>{' '}
                <span className="muted">{c.kind === 'other' ? '' : `${c.kind} · `}{c.failed === null ? 'no result' : c.failed ? 'failed' : 'ok'}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {(o.tasks.length > 0 || o.pullRequests.length > 0) && (
        <section aria-label="Tasks and pull requests">
          <h2 className="section-title">Tasks and pull requests</h2>
          <ul>
            {o.tasks.map((t) => <li key={t.content}>{t.content} <span className="muted">{t.status}</span></li>)}
            {o.pullRequests.map((p) => <li key={p.url}>Pull request {p.number !== null ? `#${p.number}` : ''} <code>{p.url}</code></li>)}
          </ul>
        </section>
      )}
      <section aria-label="Time and cost">
        <h2 className="section-title">Time and cost</h2>
        <p>
          {o.windows.map((w) => (
            <span key={w.approvedAt} className="outcome-window">
              Approved <time dateTime={w.approvedAt} title={exactTime(w.approvedAt)}>{relativeTime(w.approvedAt)}</time>
              {w.endedAt ? ', until the session moved on' : ''}.{' '}
            </span>
          ))}
          {formatDuration(o.time.activeMs)} active, {formatDuration(o.time.waitingMs)} waiting; {plural(o.subagents, 'subagent')}.
        </p>
        <ul className="outcome-models">
          {o.tokens.byModel.map((m) => (
            <li key={m.model}>
              <code>{m.model}</code>: {formatCount(m.input)} in, {formatCount(m.output)} out, {formatCount(m.cacheRead)} cache read, {formatCount(m.cacheWrite)} cache write
              {' · '}{m.costUsd === null ? 'no price known' : formatUsd(m.costUsd)}
            </li>
          ))}
        </ul>
        <p className="muted">Priced with Anthropic&apos;s published API prices of {o.tokens.pricesAsOf}{o.tokens.unpricedTokens > 0 ? `; ${formatCount(o.tokens.unpricedTokens)} tokens of unknown models are not priced` : ''}.</p>
      </section>
    </div>
  );
}

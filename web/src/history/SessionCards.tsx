// The sessions behind a plan, each as a card (GET /api/sessions/{id}): its title, first and last prompt,
// where and when it ran, what it cost, its subagents and plans, the command that resumes it, and the
// way to its conversation (the session view).
import type { SessionCard } from '../api/types';
import { CopyIcon } from '../ui/icons';
import { copyText } from '../ui/clipboard';
import { exactTime, formatCount, relativeTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { useState } from 'react';
import { followInApp } from '../state/inAppLink';
import { sessionHref } from '../state/url';
import { UnreadNote } from './HistoryPanel';
import { riskOf, transcriptDeletesAt, whenText } from './retention';
import { useRetentionPolicy, useSessionCard } from './useHistory';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function Card({ card, onOpenPlan }: { card: SessionCard; onOpenPlan(filename: string): void }) {
  const toast = useToast();
  const policy = useRetentionPolicy(true);
  const [now] = useState(() => Date.now());
  // A kept session's transcript is already deleted: nothing is at risk any more.
  const risk = policy && !card.kept ? riskOf(transcriptDeletesAt(card.lastAt, policy), now) : null;
  const copy = async () => {
    const ok = await copyText(card.resumeCommand);
    toast(ok ? `Copied: ${card.resumeCommand}` : 'Could not copy to the clipboard', ok ? 'success' : 'error');
  };
  return (
    <article className="session-card" data-session-id={card.sessionId} aria-label={`Session ${card.title ?? card.sessionId}`}>
      <h3 className="session-title">{card.title ?? <span className="muted">Untitled session</span>}</h3>
      {risk && policy && (
        <p className="chip risk-badge transcript-risk" role="note">
          Claude Code deletes this transcript {whenText(risk)} (cleanupPeriodDays: {policy.cleanupPeriodDays}); the plan's versions the viewer has read stay here
        </p>
      )}
      {card.kept && (
        <p className="chip kept-badge" role="note" title="Claude Code deleted this transcript; the viewer serves it from the copy it kept under its cache dir">
          Transcript kept by the viewer
        </p>
      )}
      {card.unreadLines > 0 && <UnreadNote lines={card.unreadLines} of="its transcript" />}
      <p className="open-session">
        <a className="chip open-session-link" href={sessionHref(card.sessionId)} onClick={followInApp}>
          Open session
        </a>
      </p>
      <div className="resume">
        <code className="resume-command">{card.resumeCommand}</code>
        <button type="button" className="chip" onClick={() => void copy()} aria-label="Copy the resume command">
          <CopyIcon /> Copy
        </button>
      </div>
      <dl className="session-fields">
        <Field label="Session">
          <code>{card.sessionId}</code>
        </Field>
        {card.firstPrompt !== null && <Field label="First prompt">{card.firstPrompt}</Field>}
        {card.lastPrompt !== null && card.lastPrompt !== card.firstPrompt && <Field label="Last prompt">{card.lastPrompt}</Field>}
        {card.cwd !== null && (
          <Field label="Folder">
            <code>{card.cwd}</code>
            {card.gitBranch && (
              <>
                {' '}
                on <code>{card.gitBranch}</code>
              </>
            )}
          </Field>
        )}
        {(card.firstAt !== null || card.lastAt !== null) && (
          <Field label="When">
            {card.firstAt && <time dateTime={card.firstAt} title={exactTime(card.firstAt)}>{relativeTime(card.firstAt)}</time>}
            {card.lastAt && card.lastAt !== card.firstAt && (
              <>
                {' '}
                to <time dateTime={card.lastAt} title={exactTime(card.lastAt)}>{relativeTime(card.lastAt)}</time>
              </>
            )}
          </Field>
        )}
        {(card.version !== null || card.entrypoint !== null) && (
          <Field label="Claude Code">
            {[card.version, card.entrypoint].filter(Boolean).join(' · ')}
          </Field>
        )}
        {card.costUsd !== null && (
          <Field label="Cost">
            ${card.costUsd.toFixed(2)}
            {card.linesAdded !== null && card.linesRemoved !== null && (
              <span className="muted">
                {' '}
                · +{formatCount(card.linesAdded)} −{formatCount(card.linesRemoved)} lines
              </span>
            )}
          </Field>
        )}
        {card.subagents.length > 0 && (
          <Field label="Subagents">
            <ul className="plain-list">
              {card.subagents.map((a) => (
                <li key={a.agentId}>
                  <code>{a.agentId.slice(0, 8)}</code> {a.type && <strong>{a.type}</strong>} {a.description}
                </li>
              ))}
            </ul>
          </Field>
        )}
        {card.plans.length > 0 && (
          <Field label="Plans">
            <ul className="plain-list">
              {card.plans.map((p) => (
                <li key={p}>
                  <button type="button" className="link-button" onClick={() => onOpenPlan(p)}>
                    {p}
                  </button>
                </li>
              ))}
            </ul>
          </Field>
        )}
      </dl>
    </article>
  );
}

function OneSession({ sessionId, onOpenPlan }: { sessionId: string; onOpenPlan(filename: string): void }) {
  const { card, status } = useSessionCard(sessionId);
  if (card) return <Card card={card} onOpenPlan={onOpenPlan} />;
  return (
    <article className="session-card" data-session-id={sessionId}>
      <code>{sessionId}</code>{' '}
      <span className="muted">{status === 'loading' ? 'loading…' : status === 'missing' ? 'no transcript left of this session' : 'could not load this session'}</span>
    </article>
  );
}

/** Every session of the plan, the last one (the plan's own) first. */
export function SessionCards({ sessionIds, onOpenPlan }: { sessionIds: string[]; onOpenPlan(filename: string): void }) {
  if (sessionIds.length === 0) return null;
  return (
    <details className="session-cards">
      <summary>
        {sessionIds.length === 1 ? 'Session' : `${formatCount(sessionIds.length)} sessions`}
      </summary>
      <div className="session-card-list">
        {sessionIds.map((id) => (
          <OneSession key={id} sessionId={id} onOpenPlan={onOpenPlan} />
        ))}
      </div>
    </details>
  );
}

// What the page shows while the service's first scan runs: which home it reads and how far it has got
// (GET /api/status), instead of a blank list.
import { useStatus } from '../api/status';
import { formatBytes, formatCount } from './format';

export function Reading({ what }: { what: string }) {
  const status = useStatus();
  if (status === null || status.loaded) {
    return <div className="state-panel loading" aria-busy="true">Loading {what}…</div>;
  }
  const { plans, sessionLogs, bytesRead } = status.progress;
  return (
    <div className="state-panel loading reading" aria-busy="true" data-testid="reading">
      <h2>
        Reading <code title={status.home}>{status.homeLabel}</code>
      </h2>
      <p role="status">
        {formatCount(plans)} {plans === 1 ? 'plan' : 'plans'}, {formatCount(sessionLogs)} {sessionLogs === 1 ? 'session log' : 'session logs'} (
        {formatBytes(bytesRead)} read) so far…
      </p>
      <p className="muted">The first start reads every transcript once; the next starts are quick.</p>
    </div>
  );
}

/** Where Claude Code keeps plans in the home shown, as a person types it. */
export function usePlansDirLabel(): string {
  const status = useStatus();
  if (status === null) return '~/.claude/plans/';
  const sep = status.home.includes('\\') && !status.home.includes('/') ? '\\' : '/';
  return `${status.homeLabel}${sep}plans${sep}`;
}

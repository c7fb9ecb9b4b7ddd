// What the plan readers (listed and archived plans) share: the plan's history loaded once per plan and
// refreshed on live changes, the History tab's panel in its loading, missing and error states, and the
// "at risk" badge for plans Claude Code's cleanup will delete soon.
import { useMemo } from 'react';
import type { PlanHistoryBody } from '../api/types';
import { describeError } from '../api/client';
import { exactTime } from '../ui/format';
import { riskOf, whenText } from './retention';
import { usePlanHistory, VersionTexts, type Loaded } from './useHistory';

export interface PlanStory {
  history: Loaded<PlanHistoryBody>;
  /** Version texts of the history shown; a new history (live change) starts afresh. */
  texts: VersionTexts | null;
}

export function usePlanStory(filename: string | null, bump: number): PlanStory {
  const history = usePlanHistory(filename, bump);
  const data = history.data;
  const texts = useMemo(() => (data ? new VersionTexts(data.filename) : null), [data]);
  return { history, texts };
}

export function HistoryState({ history }: { history: Loaded<PlanHistoryBody> }) {
  if (history.status === 'missing') {
    return (
      <div className="state-panel empty">
        <h2>No history</h2>
        <p>The viewer knows no version of this plan.</p>
      </div>
    );
  }
  if (history.status === 'error') {
    return (
      <div className="state-panel error">
        <h2>Could not load the history</h2>
        <p>{describeError(history.error)}</p>
      </div>
    );
  }
  return (
    <div className="state-panel loading" aria-busy="true">
      Loading history…
    </div>
  );
}

/** Shown when Claude Code will delete the plan within a week (or should have already). */
export function RiskBadge({ deletesAt, cleanupPeriodDays, now }: { deletesAt: string | null; cleanupPeriodDays: number; now: number }) {
  const risk = riskOf(deletesAt, now);
  if (!risk) return null;
  const text = `Claude Code deletes files older than ${cleanupPeriodDays} days (cleanupPeriodDays): this one ${whenText(risk)}, on ${exactTime(risk.deletesAt)}. Its history stays readable here, in the Archive.`;
  return (
    <span className="chip risk-badge" role="note" title={text} aria-label={`At risk: ${text}`}>
      At risk · {whenText(risk)}
    </span>
  );
}

// When Claude Code will delete a plan: its mtime plus cleanupPeriodDays, for plans directly in the shared
// plans folder (it cleans no other). The list has no deletion time per plan, so the UI works it out from
// `modified` and GET /api/retention, the rule the history endpoint's `retention.deletesAt` follows. Pure.
import type { RetentionPolicy } from '../api/types';

/** What the deletion times need of GET /api/retention. */
export type Policy = Pick<RetentionPolicy, 'cleanupPeriodDays' | 'plansDir'>;

const DAY_MS = 86_400_000;
/** A plan this close to its deletion (or past it) is "at risk". */
export const AT_RISK_DAYS = 7;

export interface Risk {
  deletesAt: string;
  /** Whole days left, rounded down; 0 or less once the time has come. */
  daysLeft: number;
}

/** The plan's file is directly in `dir` (not in a folder below it), whichever separator the paths use. */
export function isDirectlyIn(filepath: string, dir: string): boolean {
  const trimmed = dir.replace(/[\\/]+$/, '');
  if (!filepath.startsWith(trimmed) || filepath.length <= trimmed.length + 1) return false;
  const sep = filepath[trimmed.length];
  return (sep === '/' || sep === '\\') && !/[\\/]/.test(filepath.slice(trimmed.length + 1));
}

export function deletesAt(plan: { filepath: string; modified: string }, policy: Policy): string | null {
  if (!isDirectlyIn(plan.filepath, policy.plansDir)) return null;
  const t = Date.parse(plan.modified);
  return Number.isNaN(t) ? null : new Date(t + policy.cleanupPeriodDays * DAY_MS).toISOString();
}

/**
 * When Claude Code will delete a session's transcript: it goes by the log's mtime, which is its last
 * line's time, the card's `lastAt`.
 */
export function transcriptDeletesAt(lastAt: string | null, policy: Policy): string | null {
  const t = lastAt === null ? NaN : Date.parse(lastAt);
  return Number.isNaN(t) ? null : new Date(t + policy.cleanupPeriodDays * DAY_MS).toISOString();
}

/** The plan's risk when it is at risk at `now` (deletion within AT_RISK_DAYS, or past), else null. */
export function riskOf(deletes: string | null, now: number): Risk | null {
  if (deletes === null) return null;
  const left = Date.parse(deletes) - now;
  if (Number.isNaN(left) || left > AT_RISK_DAYS * DAY_MS) return null;
  return { deletesAt: deletes, daysLeft: Math.floor(left / DAY_MS) };
}

/** "in 3 days", "tomorrow", "today", "any time now" for a risk. */
export function whenText(risk: Risk): string {
  if (risk.daysLeft < 0) return 'any time now (its time has passed)';
  if (risk.daysLeft === 0) return 'within a day';
  if (risk.daysLeft === 1) return 'in 1 day';
  return `in ${risk.daysLeft} days`;
}

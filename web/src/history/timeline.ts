// A plan's story as one timeline: its versions (numbered v1, v2 … oldest first) with the plan-mode events
// between them, and the words each kind of entry is shown with. Pure.
import type { PlanEvent, PlanVersion } from '../api/types';

export type TimelineItem =
  | { type: 'version'; version: PlanVersion; number: number }
  | { type: 'event'; event: PlanEvent };

function timeOf(at: string | null): number {
  const t = at === null ? NaN : Date.parse(at);
  return Number.isNaN(t) ? NaN : t;
}

/**
 * Versions and events in time order, each list keeping its own order (the service's, oldest first). An
 * entry without a time stays after the entries before it in its list; on equal times a version comes
 * first (an ExitPlanMode is answered about the plan as written).
 */
export function timeline(versions: PlanVersion[], events: PlanEvent[]): TimelineItem[] {
  const out: TimelineItem[] = [];
  let v = 0;
  let e = 0;
  while (v < versions.length || e < events.length) {
    const version = versions[v];
    const event = events[e];
    const takeVersion =
      version !== undefined && (event === undefined || !(timeOf(event.at) < timeOf(version.at)));
    if (takeVersion) {
      out.push({ type: 'version', version, number: v + 1 });
      v += 1;
    } else {
      out.push({ type: 'event', event: event! });
      e += 1;
    }
  }
  return out;
}

export const SOURCE_LABEL: Record<PlanVersion['source'], string> = {
  write: 'Written',
  edit: 'Edited',
  approved: 'Approved in plan mode',
  observed: 'Changed outside Claude Code',
  disk: 'Changed outside Claude Code',
};

/** What the label does not say: how the viewer knows of this version. */
export const SOURCE_DETAIL: Record<PlanVersion['source'], string> = {
  write: 'Claude Code wrote the whole plan (Write)',
  edit: 'Claude Code edited the version before (Edit or MultiEdit)',
  approved: 'the exact text you approved when Claude Code left plan mode, which the file does not hold',
  observed: 'a content the viewer saw of the file, which no tool call of Claude Code explains',
  disk: 'the file on disk now, which no tool call of Claude Code explains',
};

export const EVENT_LABEL: Record<PlanEvent['kind'], string> = {
  'plan-mode-entered': 'Plan mode entered',
  'plan-mode-exited': 'Plan mode exited',
  'plan-approved': 'Plan approved',
  'plan-rejected': 'Plan rejected',
};

/** The short name of a version in menus and buttons: "v3 · Edited". */
export function versionName(number: number, version: PlanVersion): string {
  return `v${number} · ${SOURCE_LABEL[version.source]}`;
}

/**
 * The pair compared when the URL names none (or names versions this history does not have): the last
 * version against the one before it; a single version is read alone (from = to).
 */
export function defaultPair(versions: PlanVersion[], from: string | null, to: string | null): { from: string; to: string } | null {
  if (versions.length === 0) return null;
  const has = (id: string | null): id is string => id !== null && versions.some((v) => v.id === id);
  const last = versions.at(-1)!.id;
  const toId = has(to) ? to : last;
  if (has(from)) return { from, to: toId };
  const at = versions.findIndex((v) => v.id === toId);
  return { from: versions[Math.max(0, at - 1)]!.id, to: toId };
}

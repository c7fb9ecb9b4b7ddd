// What Claude Code will delete soon, and what the viewer keeps of it. Claude Code deletes the plans of its
// shared plans folder and the session transcripts whose mtime is older than cleanupPeriodDays (settings.json
// in the claude dir; 30 by default). The viewer keeps every plan version it saw (observed versions, in its
// cache dir) and a copy of every idle transcript within --history-limit (transcripts/keptLogs.ts): a
// transcript it keeps stays readable once deleted; of one it does not, what remains of its session is what
// ~/.claude/history.jsonl holds (its prompts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readSettingsFileSync } from '../../config/settings.js';
import { projectName, withRegularFileSync } from '../files.js';
import { LARGE_FILE_BYTES } from '../largeFiles.js';
import { planLinks } from '../plans/planFile.js';
import type { PlanStore } from '../plans/planStore.js';
import type { PromptHistory } from '../promptHistory/promptHistory.js';
import type { SessionIndex } from '../sessions/sessionIndex.js';
import type { KeptLogs } from '../transcripts/keptLogs.js';
import { logOwner } from '../transcripts/transcriptReader.js';
import type { PlanMetadata } from '../types.js';
import { contentHash, type ObservedVersions } from './observedVersions.js';
import { DEFAULT_CLEANUP_DAYS } from './planHistory.js';

const DAY_MS = 86_400_000;
/** The report's horizon: what is deleted within this many days (or overdue). */
export const WITHIN_DAYS = 7;
/** Items listed of each kind; the counts tell how many there are. */
export const LISTED = 200;

export interface CleanupPeriod {
  cleanupPeriodDays: number;
  source: 'settings' | 'default';
  /** The setting as written when it is a number, even one Claude Code's behaviour for is not documented here. */
  setting: number | null;
  note: string | null;
}

/** The period the deletion times use: the setting when it is a positive number, else the default. */
export function cleanupPeriod(claudeDir: string): CleanupPeriod {
  const value = readSettingsFileSync(path.join(claudeDir, 'settings.json'))?.cleanupPeriodDays;
  const setting = typeof value === 'number' && Number.isFinite(value) ? value : null;
  if (setting !== null && setting > 0) return { cleanupPeriodDays: setting, source: 'settings', setting, note: null };
  const note = setting === null ? null
    : `settings.json sets cleanupPeriodDays to ${setting}; what Claude Code does with 0 or less is not documented here, so the times shown use the default of ${DEFAULT_CLEANUP_DAYS} days`;
  return { cleanupPeriodDays: DEFAULT_CLEANUP_DAYS, source: 'default', setting, note };
}

export interface DuePlan {
  filename: string;
  filepath: string;
  modified: string;
  deletesAt: string;
  kept: boolean;
}

export interface DueTranscript {
  sessionId: string;
  file: string;
  project: string | null;
  modified: string;
  deletesAt: string;
  kept: boolean;
  keptFacts: 'prompt-history' | 'none';
}

export interface RetentionReport extends CleanupPeriod {
  plansDir: string;
  within: number;
  plans: DuePlan[];
  transcripts: DueTranscript[];
  counts: { plans: number; plansKept: number; transcripts: number; transcriptsWithPrompts: number; transcriptsKept: number };
  transcriptsNote: string;
  keptTranscripts: { keeping: boolean; logs: number; goneLogs: number; keptBytes: number; limitBytes: number };
}

export interface RetentionSources {
  claudeDir: string;
  plans: PlanStore;
  sessions: SessionIndex;
  observed: ObservedVersions;
  prompts: PromptHistory;
  kept: KeptLogs;
  now: number;
}

export function retentionReport(o: RetentionSources): RetentionReport {
  const period = cleanupPeriod(o.claudeDir);
  const plansDir = path.join(o.claudeDir, 'plans');
  const periodMs = period.cleanupPeriodDays * DAY_MS;
  const horizon = o.now + WITHIN_DAYS * DAY_MS;

  const plans: DuePlan[] = [];
  for (const p of o.plans.list()) {
    if (path.dirname(p.filepath) !== plansDir) continue;
    const deletes = Date.parse(p.modified) + periodMs;
    if (!(deletes <= horizon)) continue;
    plans.push({ filename: p.filename, filepath: p.filepath, modified: p.modified, deletesAt: new Date(deletes).toISOString(), kept: keeps(o.observed, p) });
  }
  plans.sort((a, b) => cmp(a.deletesAt, b.deletesAt) || cmp(a.filename, b.filename));

  const transcripts: DueTranscript[] = [];
  // The mtimes the session index read the logs at: the watchers keep them current, no stat is repeated.
  for (const [file, mtimeMs] of o.sessions.logTimes()) {
    const { main, sessionId } = logOwner(file);
    // A log already gone (served from the viewer's copy) is not due.
    if (!main || sessionId === null || o.sessions.isKept(file)) continue;
    const deletes = mtimeMs + periodMs;
    if (deletes <= horizon) transcripts.push(dueTranscript(o.prompts, sessionId, file, mtimeMs, deletes, keptNow(o.kept, file, mtimeMs)));
  }
  transcripts.sort((a, b) => cmp(a.deletesAt, b.deletesAt) || cmp(a.file, b.file));

  return {
    ...period, plansDir, within: WITHIN_DAYS,
    plans: plans.slice(0, LISTED),
    transcripts: transcripts.slice(0, LISTED),
    counts: {
      plans: plans.length, plansKept: plans.filter((p) => p.kept).length,
      transcripts: transcripts.length, transcriptsWithPrompts: transcripts.filter((t) => t.keptFacts !== 'none').length,
      transcriptsKept: transcripts.filter((t) => t.kept).length,
    },
    transcriptsNote: o.kept.keeping
      ? 'The viewer keeps a compressed copy of each transcript idle for an hour, within --history-limit (the oldest dropped first): a kept one stays readable once Claude Code deletes it (its card says kept). Of one it does not keep, only the prompts ~/.claude/history.jsonl holds remain (keptFacts: prompt-history).'
      : 'The viewer keeps no copy of transcripts (no cache dir, or --history-limit 0): once Claude Code deletes one, only the prompts ~/.claude/history.jsonl holds of its session remain (keptFacts: prompt-history).',
    keptTranscripts: keptUse(o.kept, o.sessions),
  };
}

/**
 * Whether the viewer holds the plan's content as it is now: its last observed version is that content (the
 * same size, and the same mtime or, when that moved, the same bytes).
 */
function keeps(observed: ObservedVersions, plan: PlanMetadata): boolean {
  if (!observed.keeping) return false;
  const last = observed.of(plan.filepath)?.versions.at(-1);
  if (last === undefined || last.size !== plan.size) return false;
  if (last.at === plan.modified) return true;
  if (plan.size > LARGE_FILE_BYTES) return false;
  return withRegularFileSync(plan.filepath, (fd) => contentHash(readFileSync(fd)) === last.sha, planLinks) ?? false;
}

/** Whether the viewer's copy of the log is of the log as it is now (its mtime as the session index read it). */
function keptNow(kept: KeptLogs, file: string, mtimeMs: number): boolean {
  return kept.keeping && kept.of(file)?.mtimeMs === mtimeMs;
}

function keptUse(kept: KeptLogs, sessions: SessionIndex): RetentionReport['keptTranscripts'] {
  let logs = 0;
  let goneLogs = 0;
  for (const [file] of sessions.logTimes()) {
    if (!kept.has(file)) continue;
    logs++;
    if (sessions.isKept(file)) goneLogs++;
  }
  return { keeping: kept.keeping, logs, goneLogs, keptBytes: kept.keptBytes, limitBytes: kept.limitBytes };
}

function dueTranscript(prompts: PromptHistory, sessionId: string, file: string, mtimeMs: number, deletes: number, kept: boolean): DueTranscript {
  const facts = prompts.session(sessionId);
  return {
    sessionId, file, project: facts?.project == null ? null : projectName(facts.project),
    modified: new Date(mtimeMs).toISOString(), deletesAt: new Date(deletes).toISOString(), kept,
    keptFacts: facts === null ? 'none' : 'prompt-history',
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

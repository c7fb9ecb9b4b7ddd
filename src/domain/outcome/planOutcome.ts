// A plan's outcome: the work after each approval in its sessions (main transcript and subagents), until the
// session moves on (a later ExitPlanMode, plan mode entered again) or ends. Everything is taken from the
// facts the transcript reader's extractors keep (work.ts, planEvents.ts); what a call changed is read from
// its own line on request (callDetails.ts).
import path from 'node:path';
import type { OutcomeCommand, OutcomeFile, PlanOutcome, WorkWindow } from '../../contract/outcome.js';
import type { PlanEvent } from '../../contract/history.js';
import type { LogFacts } from '../transcripts/extractors/index.js';
import type { WorkCall } from '../transcripts/extractors/work.js';
import { logOwner } from '../transcripts/transcriptReader.js';
import { fileChange } from './callDetails.js';
import { commandKind, commitMessage } from './commands.js';
import { finalTasks, TASK_TOOLS } from './tasks.js';
import { costOf, PRICES_AS_OF } from './pricing.js';
import { askedVerification, matchSteps, unplannedFiles } from './steps.js';

export interface OutcomeSources {
  /**
   * The plan's plan-mode events and its last version's text (null when too large to hold), or null when no
   * plan has that name.
   */
  story(filename: string): Promise<{ events: readonly PlanEvent[]; text: string | null } | null>;
  logs(): Iterable<[string, LogFacts]>;
}

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
const AGENT_TOOLS = new Set(['Task', 'Agent']);
const PLAN_TOOLS = new Set(['ExitPlanMode', 'EnterPlanMode']);

const time = (at: string | null): number => (at === null ? Number.NaN : Date.parse(at));

interface Window {
  sessionId: string;
  from: number;
  to: number;
  approvedAt: string;
  endedAt: string | null;
  lastWork: number;
}

export async function planOutcome(sources: OutcomeSources, filename: string): Promise<PlanOutcome | null> {
  const story = await sources.story(filename);
  if (story === null) return null;
  const approvals = story.events.filter((e): e is PlanEvent & { at: string; sessionId: string } => e.kind === 'plan-approved' && e.at !== null && e.sessionId !== null);
  const bySession = new Map<string, [string, LogFacts][]>();
  for (const { sessionId } of approvals) bySession.set(sessionId, []);
  for (const [file, facts] of sources.logs()) {
    const owner = logOwner(file).sessionId;
    if (owner !== null) bySession.get(owner)?.push([file, facts]);
  }
  // An approval in a session that last wrote another plan is that plan's (the story names every approval of
  // the plan's sessions).
  const windows = approvals.filter((a) => lastPlanWritten(bySession.get(a.sessionId) ?? [], a.sessionId, time(a.at), filename) !== 'other')
    .map((a) => windowOf(a.sessionId, a.at, filename, bySession.get(a.sessionId) ?? []));
  const within = (w: Window, at: string | null) => {
    const t = time(at);
    return t >= w.from && t < w.to;
  };

  const files = new Map<string, OutcomeFile>();
  const commands: (OutcomeCommand & { t: number })[] = [];
  const prs: PlanOutcome['pullRequests'] = [];
  const usage = new Map<string, { input: number; output: number; cacheRead: number; cacheWrite: number }>();
  let activeMs = 0;
  let subagents = 0;
  const taskCalls: { file: string; call: WorkCall }[] = [];
  const seenCalls = new Set<string>();
  for (const w of windows) {
    for (const [file, facts] of bySession.get(w.sessionId) ?? []) {
      for (const call of facts.work.calls) {
        if (call.sessionId !== w.sessionId && call.sessionId !== null) continue;
        if (!within(w, call.at) || PLAN_TOOLS.has(call.name) || seenCalls.has(call.id)) continue;
        seenCalls.add(call.id);
        w.lastWork = Math.max(w.lastWork, time(call.at));
        if (FILE_TOOLS.has(call.name) && call.target !== null) {
          const change = fileChange(file, call);
          const entry = files.get(call.target) ?? { path: call.target, edits: 0, added: 0, removed: 0, userModified: false, failed: 0 };
          entry.edits++;
          if (call.error === true) entry.failed++;
          else if (change !== null) {
            entry.added += change.added;
            entry.removed += change.removed;
            entry.userModified ||= change.userModified;
          }
          files.set(call.target, entry);
        } else if (call.name === 'Bash' && call.target !== null) {
          const kind = commandKind(call.target);
          commands.push({
            command: call.target, at: call.at, kind, failed: call.error, agentId: call.agentId,
            message: kind === 'commit' ? commitMessage(call.target) : null, t: time(call.at),
          });
        } else if (TASK_TOOLS.has(call.name)) {
          taskCalls.push({ file, call });
        } else if (AGENT_TOOLS.has(call.name) && call.agentId === null) {
          subagents++;
        }
      }
      for (const u of facts.work.usage) {
        if (!within(w, u.at)) continue;
        w.lastWork = Math.max(w.lastWork, time(u.at));
        const sum = usage.get(u.model) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
        sum.input += u.input;
        sum.output += u.output;
        sum.cacheRead += u.cacheRead;
        sum.cacheWrite += u.cacheWrite;
        usage.set(u.model, sum);
      }
      for (const turn of facts.work.turns) {
        if (!within(w, turn.at)) continue;
        activeMs += turn.ms;
        w.lastWork = Math.max(w.lastWork, time(turn.at));
      }
      for (const pr of facts.work.prs) if (within(w, pr.at)) prs.push({ url: pr.url, number: pr.number, at: pr.at });
    }
  }

  commands.sort((a, b) => a.t - b.t);
  const byModel = [...usage].map(([model, t]) => ({ model, ...t, costUsd: costOf(model, t) })).sort((a, b) => (b.costUsd ?? 0) - (a.costUsd ?? 0) || a.model.localeCompare(b.model));
  const wallMs = windows.reduce((n, w) => n + (w.lastWork > w.from ? w.lastWork - w.from : 0), 0);
  const runs = (kind: 'test' | 'build') => {
    const list = commands.filter((c) => c.kind === kind);
    const last = list.at(-1);
    return { runs: list.length, failed: list.filter((c) => c.failed === true).length, lastPassed: last === undefined || last.failed === null ? null : !last.failed };
  };
  const tasks = finalTasks(taskCalls.sort((a, b) => time(a.call.at) - time(b.call.at)));
  const changed = [...files.values()].filter((f) => f.edits > f.failed).map((f) => f.path);
  const tests = runs('test');
  const builds = runs('build');
  const text = story.text ?? '';
  const asked = askedVerification(text);
  const unverified: string[] = [];
  if (approvals.length > 0 && asked.test && tests.runs === 0) unverified.push('The plan asks for tests; no test command ran after its approval.');
  if (tests.lastPassed === false) unverified.push('The last test run failed.');
  if (approvals.length > 0 && asked.build && builds.runs === 0) unverified.push('The plan asks for a build or type check; none ran after its approval.');
  if (builds.lastPassed === false) unverified.push('The last build failed.');
  return {
    filename,
    status: approvals.length > 0 ? 'approved' : 'not-approved',
    windows: windows.map((w): WorkWindow => ({
      sessionId: w.sessionId, approvedAt: w.approvedAt, endedAt: w.endedAt, lastWorkAt: w.lastWork > w.from ? new Date(w.lastWork).toISOString() : null,
    })),
    files: [...files.values()].sort((a, b) => b.added + b.removed - (a.added + a.removed) || a.path.localeCompare(b.path)),
    commands: commands.map(({ t: _t, ...c }) => c),
    tests,
    builds,
    commits: commands.filter((c) => c.kind === 'commit' && c.failed !== true).map((c) => ({ at: c.at, message: c.message })),
    pullRequests: prs,
    tasks,
    subagents,
    steps: matchSteps(text, { files: changed, commands, tasks }),
    unplannedFiles: unplannedFiles(text, changed.filter((f) => path.basename(f) !== filename), null),
    unverified,
    time: { wallMs, activeMs, waitingMs: Math.max(0, wallMs - activeMs) },
    tokens: {
      byModel,
      costUsd: byModel.reduce((n, m) => n + (m.costUsd ?? 0), 0),
      unpricedTokens: byModel.filter((m) => m.costUsd === null).reduce((n, m) => n + m.input + m.output + m.cacheRead + m.cacheWrite, 0),
      pricesAsOf: PRICES_AS_OF,
    },
  };
}

/** Whether the plan the session wrote last, at or before `t`, is `filename`, another plan, or none. */
function lastPlanWritten(logs: readonly [string, LogFacts][], sessionId: string, t: number, filename: string): 'this' | 'other' | 'none' {
  let last: { t: number; name: string } | null = null;
  for (const [, facts] of logs) {
    for (const w of facts.plans.writes) {
      const wt = time(w.at);
      if (w.sessionId !== sessionId || w.agentId !== null || !(wt <= t)) continue;
      if (last === null || wt >= last.t) last = { t: wt, name: path.basename(w.filePath) };
    }
  }
  if (last === null) return 'none';
  return last.name === filename ? 'this' : 'other';
}

/**
 * The work window of an approval: until the session's next ExitPlanMode, plan mode entered again, or a write
 * to another plan (the session moved on), else its end.
 */
function windowOf(sessionId: string, approvedAt: string, filename: string, logs: readonly [string, LogFacts][]): Window {
  const from = time(approvedAt);
  let to = Number.POSITIVE_INFINITY;
  let endedAt: string | null = null;
  const later = (at: string | null) => {
    const t = time(at);
    if (t > from && t < to) {
      to = t;
      endedAt = at;
    }
  };
  for (const [, facts] of logs) {
    for (const exit of facts.plans.exits) if (exit.sessionId === sessionId || exit.sessionId === null) later(exit.at);
    for (const mode of facts.plans.modes) if (mode.kind === 'entered' && (mode.sessionId === sessionId || mode.sessionId === null)) later(mode.at);
    for (const w of facts.plans.writes) if (w.sessionId === sessionId && w.agentId === null && path.basename(w.filePath) !== filename) later(w.at);
  }
  return { sessionId, from, to, approvedAt, endedAt, lastWork: from };
}


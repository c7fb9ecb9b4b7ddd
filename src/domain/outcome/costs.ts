// Cost and active time across the home: every model answer's tokens (the work extractor's usage rows)
// priced with the package's table, grouped by day (UTC), by project (the cwd the session started in) or by
// plan (the plan the session last wrote before the answer, none before its first plan), between two dates.
// A session whose transcript states its own total (a `cost-state` line) is held to it: its answers' prices
// are scaled so that they sum to that total, which keeps its spread over days and plans.
import path from 'node:path';
import type { CostRow } from '../../contract/costs.js';
import { projectName } from '../files.js';
import type { LogFacts } from '../transcripts/extractors/index.js';
import { logOwner } from '../transcripts/transcriptReader.js';
import { costOf } from './pricing.js';

export type CostGrouping = 'day' | 'project' | 'plan';

export interface CostQuery {
  by: CostGrouping;
  /** Inclusive bounds, in milliseconds; null for none. */
  after: number | null;
  before: number | null;
}

/** The key a group is listed under for answers with nothing to name it by. */
export const NONE = '(none)';

export function costs(logs: Iterable<[string, LogFacts]>, q: CostQuery): { rows: CostRow[]; unpricedTokens: number } {
  const rows = new Map<string, CostRow>();
  let unpricedTokens = 0;
  const inRange = (t: number) => !Number.isNaN(t) && (q.after === null || t >= q.after) && (q.before === null || t <= q.before);
  // A session's project and plans come from its main log; a subagent's log is read after or before it.
  const facts = [...logs];
  const projectOf = new Map<string, string>();
  const plansOf = new Map<string, { t: number; name: string }[]>();
  for (const [, f] of facts) {
    for (const [sessionId, start] of f.links.sessions) if (!projectOf.has(sessionId)) projectOf.set(sessionId, projectName(start.cwd));
    for (const w of f.plans.writes) {
      if (w.sessionId === null || w.agentId !== null) continue;
      const list = plansOf.get(w.sessionId) ?? [];
      list.push({ t: Date.parse(w.at ?? ''), name: path.basename(w.filePath) });
      plansOf.set(w.sessionId, list);
    }
  }
  for (const list of plansOf.values()) list.sort((a, b) => a.t - b.t);
  const keyOf = (sessionId: string | null, t: number): string =>
    q.by === 'day' ? new Date(t).toISOString().slice(0, 10)
    : q.by === 'project' ? (sessionId === null ? NONE : projectOf.get(sessionId) ?? NONE)
    : planAt(plansOf.get(sessionId ?? '') ?? [], t) ?? NONE;
  const rowOf = (key: string): CostRow => {
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = { key, costUsd: 0, activeMs: 0, tokens: 0, sessions: 0 }));
    return row;
  };
  // Each answer is priced once: by group and session in range, and by session over all time (what a
  // `cost-state` total is held against); the scales apply once every answer is counted.
  const costIn = new Map<string, Map<string | null, number>>();
  const sessions = new Map<string, Set<string>>();
  const pricedTotal = new Map<string, number>();
  for (const [file, f] of facts) {
    const owner = logOwner(file).sessionId;
    for (const u of f.work.usage) {
      const sessionId = u.sessionId ?? owner;
      const cost = costOf(u.model, u);
      if (cost !== null && sessionId !== null) pricedTotal.set(sessionId, (pricedTotal.get(sessionId) ?? 0) + cost);
      const t = Date.parse(u.at ?? '');
      if (!inRange(t)) continue;
      const key = keyOf(sessionId, t);
      const row = rowOf(key);
      const tokens = u.input + u.output + u.cacheRead + u.cacheWrite;
      row.tokens += tokens;
      if (cost === null) unpricedTokens += tokens;
      else {
        const bySession = costIn.get(key) ?? new Map<string | null, number>();
        bySession.set(sessionId, (bySession.get(sessionId) ?? 0) + cost);
        costIn.set(key, bySession);
      }
      if (sessionId !== null) {
        const set = sessions.get(key) ?? new Set<string>();
        set.add(sessionId);
        sessions.set(key, set);
      }
    }
    for (const turn of f.work.turns) {
      const t = Date.parse(turn.at ?? '');
      if (inRange(t)) rowOf(keyOf(turn.sessionId ?? owner, t)).activeMs += turn.ms;
    }
  }
  const scale = sessionScales(facts, pricedTotal);
  for (const [key, bySession] of costIn) {
    const row = rowOf(key);
    for (const [sessionId, cost] of bySession) row.costUsd += cost * (sessionId === null ? 1 : scale.get(sessionId) ?? 1);
  }
  for (const [key, row] of rows) row.sessions = sessions.get(key)?.size ?? 0;
  const list = [...rows.values()];
  list.sort(q.by === 'day' ? (a, b) => (a.key < b.key ? -1 : 1) : (a, b) => b.costUsd - a.costUsd || (a.key < b.key ? -1 : 1));
  return { rows: list, unpricedTokens };
}

/**
 * By session, what its priced answers are multiplied by so that they sum to the total its `cost-state` line
 * states (sessions without one, or with no priced answer to scale, are not listed). `priced`: each
 * session's answers priced with the table, over all time.
 */
function sessionScales(facts: readonly [string, LogFacts][], priced: ReadonlyMap<string, number>): Map<string, number> {
  const stated = new Map<string, number>();
  for (const [, f] of facts) {
    for (const [sessionId, card] of f.cards.sessions) {
      if (card.costUsd !== null && Number.isFinite(card.costUsd) && card.costUsd >= 0) stated.set(sessionId, Math.max(card.costUsd, stated.get(sessionId) ?? 0));
    }
  }
  const scales = new Map<string, number>();
  for (const [sessionId, total] of stated) {
    const sum = priced.get(sessionId) ?? 0;
    if (sum > 0) scales.set(sessionId, total / sum);
  }
  return scales;
}

function planAt(plans: readonly { t: number; name: string }[], t: number): string | null {
  let name: string | null = null;
  for (const p of plans) {
    if (p.t > t) break;
    name = p.name;
  }
  return name;
}

// A log's facts besides its links (logFacts.ts), as saved with the session index (sessions/snapshot.ts):
// one JSON text per log, parsed only when something first asks for them, so that a restart that serves
// its saved plan list never parses them. Input is untrusted (a stale, corrupt or hand-edited cache):
// anything of another shape is refused whole, and the log is read again.
import { isSessionId } from '../sessions/values.js';
import {
  emptyFacts, emptySessionFacts, SESSION_TEXTS, type CardFacts, type LinkFacts, type LogFacts, type ExitCall, type FileWrite, type ModeChange, type PlanFacts,
  type ReadCounts, type SessionFacts, type SessionLines,
} from './logFacts.js';

export interface RestFacts {
  plans: PlanFacts;
  cards: CardFacts;
  counts: ReadCounts;
}

type Row = unknown[];

/** Restored facts not parsed yet: their saved text, so a save writes it back as it is. */
const unparsed = new WeakMap<LogFacts, () => string>();
/** Restored facts whose saved text was not what saveRest() writes: they hold nothing but links. */
const refused = new WeakSet<LogFacts>();

/**
 * A log's facts from a cache: its links at once, the rest parsed when first asked for (see restOk()).
 * Text that is not what saveRest() writes gives no facts but the links.
 */
export function restoredFacts(links: LinkFacts, saved: () => string): LogFacts {
  let rest: RestFacts | null = null;
  const load = (): RestFacts => {
    if (rest === null) {
      unparsed.delete(facts);
      rest = readRest(saved());
      if (rest === null) {
        refused.add(facts);
        rest = emptyFacts();
      }
    }
    return rest;
  };
  const facts: LogFacts = {
    links,
    get plans() {
      return load().plans;
    },
    get cards() {
      return load().cards;
    },
    get counts() {
      return load().counts;
    },
  };
  unparsed.set(facts, saved);
  return facts;
}

/** Parses restored facts if they are not yet: false when they held what saveRest() never writes (read the log again). */
export function restOk(facts: LogFacts): boolean {
  void facts.counts;
  return !refused.has(facts);
}

/** Whether these are restored facts not parsed yet. */
export function restPending(facts: LogFacts): boolean {
  return unparsed.has(facts);
}

export function saveRest(facts: LogFacts): string {
  const saved = unparsed.get(facts);
  if (saved !== undefined) return saved();
  const { writes, exits, modes } = facts.plans;
  return JSON.stringify({
    w: writes.map((w) => [w.tool, w.filePath, w.at, w.sessionId, w.agentId, w.line.start, w.line.end]),
    x: exits.map((x) => [x.toolUseId, x.at, x.sessionId, x.planFilePath, x.result, x.feedback, x.text?.from ?? null, x.text?.line.start ?? 0, x.text?.line.end ?? 0]),
    m: modes.map((m) => [m.kind, m.at, m.sessionId, m.planFilePath]),
    s: [...facts.cards.sessions].map(([id, s]) => [id, SESSION_FIELDS.map((k) => s[k]), SESSION_TEXTS.map((k) => facts.cards.lines.get(id)?.[k] ?? 0)]),
    n: [facts.counts.unreadable, facts.counts.oversized],
  });
}

const SESSION_FIELDS = Object.keys(emptySessionFacts()) as (keyof SessionFacts)[];
const NUMBER_FIELDS = new Set<keyof SessionFacts>(['costUsd', 'linesAdded', 'linesRemoved']);

/** What saveRest() wrote, or null when `text` is not that. */
export function readRest(text: string): RestFacts | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const { w, x, m, s, n } = data as Record<string, unknown>;
  if (!Array.isArray(w) || !Array.isArray(x) || !Array.isArray(m) || !Array.isArray(s) || !Array.isArray(n)) return null;
  const writes: FileWrite[] = [];
  for (const row of w as Row[]) {
    const write = readWrite(row);
    if (write === null) return null;
    writes.push(write);
  }
  const exits: ExitCall[] = [];
  for (const row of x as Row[]) {
    const exit = readExit(row);
    if (exit === null) return null;
    exits.push(exit);
  }
  const modes: ModeChange[] = [];
  for (const row of m as Row[]) {
    if (!Array.isArray(row) || (row[0] !== 'entered' && row[0] !== 'exited') || !optText(row[1]) || !optSession(row[2]) || !optText(row[3])) return null;
    modes.push({ kind: row[0], at: row[1], sessionId: row[2], planFilePath: row[3] });
  }
  const cards: CardFacts = { sessions: new Map(), lines: new Map() };
  for (const row of s as Row[]) {
    if (!Array.isArray(row) || typeof row[0] !== 'string' || !isSessionId(row[0]) || cards.sessions.has(row[0])) return null;
    const facts = readSession(row[1]);
    const lines = readLines(row[2]);
    if (facts === null || lines === null) return null;
    cards.sessions.set(row[0], facts);
    cards.lines.set(row[0], lines);
  }
  const [unreadable, oversized] = n as unknown[];
  if (!isCount(unreadable) || !isCount(oversized)) return null;
  return { plans: { writes, exits, modes }, cards, counts: { unreadable, oversized } };
}

function readWrite(row: unknown): FileWrite | null {
  if (!Array.isArray(row)) return null;
  const [tool, filePath, at, sessionId, agentId, start, end] = row as unknown[];
  if (tool !== 'Write' && tool !== 'Edit' && tool !== 'MultiEdit') return null;
  if (typeof filePath !== 'string' || !optText(at) || !optSession(sessionId) || !optText(agentId) || !isSpan(start, end)) return null;
  return { tool, filePath, at, sessionId, agentId, line: { start: start as number, end: end as number } };
}

function readExit(row: unknown): ExitCall | null {
  if (!Array.isArray(row)) return null;
  const [toolUseId, at, sessionId, planFilePath, result, feedback, from, start, end] = row as unknown[];
  if (typeof toolUseId !== 'string' || !optText(at) || !optSession(sessionId) || !optText(planFilePath) || !optText(feedback)) return null;
  if (result !== null && result !== 'approved' && result !== 'rejected') return null;
  if (from !== null && from !== 'input' && from !== 'sidecar' && from !== 'result') return null;
  if (!isSpan(start, end)) return null;
  return { toolUseId, at, sessionId, planFilePath, result, feedback, text: from === null ? null : { from, line: { start: start as number, end: end as number } } };
}

function readSession(value: unknown): SessionFacts | null {
  if (!Array.isArray(value) || value.length !== SESSION_FIELDS.length) return null;
  const facts = emptySessionFacts() as unknown as Record<string, unknown>;
  for (let i = 0; i < SESSION_FIELDS.length; i++) {
    const key = SESSION_FIELDS[i]!;
    const v: unknown = value[i];
    if (v !== null && (NUMBER_FIELDS.has(key) ? typeof v !== 'number' || !Number.isFinite(v) : typeof v !== 'string')) return null;
    facts[key] = v;
  }
  return facts as unknown as SessionFacts;
}

function readLines(value: unknown): SessionLines | null {
  if (!Array.isArray(value) || value.length !== SESSION_TEXTS.length) return null;
  const lines: SessionLines = {};
  for (let i = 0; i < SESSION_TEXTS.length; i++) {
    const v: unknown = value[i];
    if (!isCount(v)) return null;
    if (v > 0) lines[SESSION_TEXTS[i]!] = v;
  }
  return lines;
}

function optText(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

function optSession(value: unknown): value is string | null {
  return value === null || (typeof value === 'string' && isSessionId(value));
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isSpan(start: unknown, end: unknown): boolean {
  return isCount(start) && isCount(end) && start <= end;
}

// The transcripts' plan facts across every log, as the session index's one reader keeps them
// (transcripts/): writes of plans, plan-mode events and session cards, answered per plan or session.
// Nothing here reads a log; what is derived from all of them (the files written, the renames) is kept
// until the facts change (`version`, the session index's facts version).
import path from 'node:path';
import type { SessionIndex } from '../sessions/sessionIndex.js';
import type { ExitCall, FileWrite, ModeChange } from '../transcripts/extractors/planEvents.js';
import { emptySessionFacts, SESSION_TEXTS, type SessionFacts } from '../transcripts/extractors/sessionCards.js';
import type { LogFacts } from '../transcripts/logFacts.js';

/** A write with the log that holds it (its content is read from there; `filePath` is the path as written). */
export interface LoggedWrite extends FileWrite {
  log: string;
}

export interface WrittenFile {
  at: string | null;
  sessionId: string | null;
}

/**
 * Where a transcript's path names a plan here: a plan in a copied or restored home is written under the
 * other machine's home (`/home/<user>/.claude/plans/<name>.md`), so a path in any `.claude/plans` folder
 * names the plan of that name in this home's plans folder; any other path names itself.
 */
export function planPathIn(plansDir: string, filePath: string): string {
  const at = Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\'));
  if (at <= 0) return filePath;
  const dir = filePath.slice(0, at);
  if (dir === plansDir) return filePath;
  return /[\\/]\.claude[\\/]plans$/.test(dir) ? path.join(plansDir, filePath.slice(at + 1)) : filePath;
}

export class HistoryIndex {
  /** `plansDir`: this home's shared plans folder (see planPathIn()). */
  constructor(private readonly sessions: SessionIndex, private readonly plansDir: string) {}

  /** Changes whenever any log's facts change: what is derived from the index (stories, the archive) keys on it. */
  get version(): number {
    return this.sessions.factsVersion;
  }

  /** Hears every change of any log's facts. */
  onChange(listener: () => void): () => void {
    return this.sessions.onLogsChanged(() => listener());
  }

  private planPath(filePath: string): string {
    return planPathIn(this.plansDir, filePath);
  }

  /** Markdown writes to `filePath`, oldest first (by time, then by where they are in their log). */
  writesTo(filePath: string): LoggedWrite[] {
    const writes = [...(this.byPath().get(filePath)?.writes ?? [])];
    return writes.sort((a, b) => compareTimes(a.at, b.at) || (a.log < b.log ? -1 : a.log > b.log ? 1 : 0) || a.line.start - b.line.start);
  }

  /** Every markdown file a tool call wrote, with the time of its last write. Kept until the index changes. */
  writtenFiles(): ReadonlyMap<string, WrittenFile> {
    const kept = this.keptNow();
    return (kept.written ??= this.writtenFilesNow());
  }

  /**
   * Plan files a hook renamed (see renamesOf()): old path -> the path named after it. Callers keep only old
   * paths that are gone from disk. Kept until the index changes.
   */
  renames(): ReadonlyMap<string, string> {
    const kept = this.keptNow();
    return (kept.renames ??= this.renamesNow());
  }

  /** What is derived from every log (the archive asks for it at each change of the plans too). */
  private kept: { version: number; written: Map<string, WrittenFile> | null; renames: Map<string, string> | null; byPath: Map<string, PathFacts> | null; exits: LoggedExit[] | null } =
    { version: -1, written: null, renames: null, byPath: null, exits: null };

  private keptNow(): HistoryIndex['kept'] {
    if (this.kept.version !== this.version) this.kept = { version: this.version, written: null, renames: null, byPath: null, exits: null };
    return this.kept;
  }

  /**
   * Every log's plan writes, plan-mode changes and sessions by the plan path they name (as planPath() has
   * it), in the logs' order, and every ExitPlanMode call of a session: one pass over the logs, kept until the
   * index changes, where each plan's story would otherwise make its own passes.
   */
  private byPath(): Map<string, PathFacts> {
    const kept = this.keptNow();
    if (kept.byPath !== null) return kept.byPath;
    const byPath = new Map<string, PathFacts>();
    const exits: LoggedExit[] = [];
    const of = (planPath: string): PathFacts => {
      let facts = byPath.get(planPath);
      if (facts === undefined) byPath.set(planPath, (facts = { writes: [], modes: [], sessions: new Set() }));
      return facts;
    };
    for (const [log, facts] of this.sessions.logs()) {
      for (const mode of facts.plans.modes) {
        if (mode.planFilePath === null) continue;
        const at = of(this.planPath(mode.planFilePath));
        at.modes.push(mode);
        if (mode.sessionId) at.sessions.add(mode.sessionId);
      }
      for (const write of facts.plans.writes) {
        const at = of(this.planPath(write.filePath));
        at.writes.push({ ...write, log });
        if (write.sessionId) at.sessions.add(write.sessionId);
      }
      for (const exit of facts.plans.exits) if (exit.sessionId !== null) exits.push({ ...exit, log });
    }
    kept.exits = exits;
    kept.byPath = byPath;
    return byPath;
  }

  /** Plan-mode changes naming `planFilePath`, and ExitPlanMode calls of the given sessions (that name no other plan). */
  planModeEvents(planFilePath: string, sessions: ReadonlySet<string>): { modes: ModeChange[]; exits: LoggedExit[] } {
    const modes = [...(this.byPath().get(planFilePath)?.modes ?? [])];
    const exits = this.keptNow().exits!.filter((exit) => sessions.has(exit.sessionId!) &&
      (exit.planFilePath === null || this.planPath(exit.planFilePath) === planFilePath));
    return { modes, exits };
  }

  /** Sessions whose plan-mode attachments name `planFilePath`, or that wrote it. */
  sessionsOf(planFilePath: string): ReadonlySet<string> {
    return this.byPath().get(planFilePath)?.sessions ?? NO_SESSIONS;
  }

  /** The cwd a session started in (see transcripts/extractors/links.ts), or null when no log says. */
  cwdOf(sessionId: string): string | null {
    return this.sessions.cwdForSession(sessionId);
  }

  /** A session's facts, merged over its logs (its own and its subagents'); null when no log names it. */
  session(sessionId: string): { facts: SessionFacts; logs: string[] } | null {
    let merged: SessionFacts | null = null;
    const logs: string[] = [];
    for (const [log, facts] of this.sessions.logs()) {
      const session = facts.cards.sessions.get(sessionId);
      if (session === undefined) continue;
      logs.push(log);
      merged = mergeSession(merged ?? emptySessionFacts(), session);
    }
    return merged === null ? null : { facts: merged, logs };
  }

  /**
   * The log and 1-based line a session's title or prompt came from, among `logs`; null when none of them
   * gave the session that text.
   */
  lineOf(sessionId: string, logs: readonly string[], text: string): { log: string; line: number } | null {
    for (const log of logs) {
      const facts = this.sessions.logFacts(log);
      const session = facts?.cards.sessions.get(sessionId);
      const lines = facts?.cards.lines.get(sessionId);
      if (session === undefined || lines === undefined) continue;
      for (const key of SESSION_TEXTS) {
        const line = lines[key];
        if (line !== undefined && session[key] === text) return { log, line };
      }
    }
    return null;
  }

  /** Every session's facts, merged over its logs (its own and its subagents'), in one pass. */
  allSessions(): Map<string, { facts: SessionFacts; logs: string[] }> {
    const all = new Map<string, { facts: SessionFacts; logs: string[] }>();
    for (const [log, facts] of this.sessions.logs()) {
      for (const [id, session] of facts.cards.sessions) {
        const known = all.get(id);
        if (known === undefined) all.set(id, { facts: mergeSession(emptySessionFacts(), session), logs: [log] });
        else {
          known.facts = mergeSession(known.facts, session);
          known.logs.push(log);
        }
      }
    }
    return all;
  }

  /** Every session a log names. */
  sessionIds(): string[] {
    const ids = new Set<string>();
    for (const [, facts] of this.sessions.logs()) for (const id of facts.cards.sessions.keys()) ids.add(id);
    return [...ids];
  }

  /**
   * How many lines of the logs of these sessions the reader could not read (longer than its per-line limit,
   * see transcriptReader.ts): an answer built on them may miss what those lines hold.
   */
  unreadLines(sessionIds: Iterable<string>): number {
    const wanted = new Set(sessionIds);
    let n = 0;
    for (const [, facts] of this.sessions.logs()) {
      if (facts.counts.oversized === 0) continue;
      for (const id of facts.cards.sessions.keys()) {
        if (wanted.has(id)) {
          n += facts.counts.oversized;
          break;
        }
      }
    }
    return n;
  }

  /** Every markdown file the logs' tool calls wrote, with the time (and session) of its last write. */
  private writtenFilesNow(): Map<string, WrittenFile> {
    const files = new Map<string, WrittenFile>();
    for (const [, facts] of this.sessions.logs()) {
      for (const write of facts.plans.writes) {
        const filePath = this.planPath(write.filePath);
        const known = files.get(filePath);
        if (known === undefined || compareTimes(known.at, write.at) < 0) files.set(filePath, { at: write.at, sessionId: write.sessionId });
      }
    }
    return files;
  }

  /**
   * Plan files a hook renamed: a session wrote `<folder>/<old>.md`, and later plan-mode attachments of the
   * same session name another file of that folder (Claude Code reports the plan's current path). Old path
   * -> the first such path, in the logs' order.
   */
  private renamesNow(): Map<string, string> {
    const logs: LogFacts[] = [...this.sessions.logs()].map(([, facts]) => facts);
    const named = new Map<string, { path: string; at: string | null }[]>();
    for (const facts of logs) {
      for (const mode of facts.plans.modes) {
        if (mode.sessionId === null || mode.planFilePath === null) continue;
        const list = named.get(mode.sessionId) ?? [];
        list.push({ path: this.planPath(mode.planFilePath), at: mode.at });
        named.set(mode.sessionId, list);
      }
    }
    const renames = new Map<string, string>();
    for (const facts of logs) {
      for (const write of facts.plans.writes) {
        const filePath = this.planPath(write.filePath);
        const later = write.sessionId === null ? undefined : named.get(write.sessionId)?.find((m) =>
          m.path !== filePath && dirname(m.path) === dirname(filePath) && compareTimes(write.at, m.at) <= 0);
        if (later !== undefined) renames.set(filePath, later.path);
      }
    }
    return renames;
  }
}

const NO_SESSIONS: ReadonlySet<string> = new Set();

/** What the logs say of one plan path (HistoryIndex.byPath()). */
interface PathFacts {
  writes: LoggedWrite[];
  modes: ModeChange[];
  sessions: Set<string>;
}

/** An ExitPlanMode call with the log that holds it (the text it approved is read from there). */
export interface LoggedExit extends ExitCall {
  log: string;
}

function dirname(p: string): string {
  return p.slice(0, Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')));
}

/** ISO times compare as strings; an unknown time sorts first. */
export function compareTimes(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

function mergeSession(into: SessionFacts, from: SessionFacts): SessionFacts {
  const later = compareTimes(from.lastAt, into.lastAt) >= 0;
  const pick = <T>(a: T | null, b: T | null): T | null => (later ? b ?? a : a ?? b);
  return {
    customTitle: pick(into.customTitle, from.customTitle),
    aiTitle: pick(into.aiTitle, from.aiTitle),
    summary: pick(into.summary, from.summary),
    firstPrompt: compareTimes(from.firstAt, into.firstAt) < 0 && from.firstPrompt ? from.firstPrompt : into.firstPrompt ?? from.firstPrompt,
    lastPrompt: pick(into.lastPrompt, from.lastPrompt),
    gitBranch: pick(into.gitBranch, from.gitBranch),
    version: pick(into.version, from.version),
    entrypoint: into.entrypoint ?? from.entrypoint,
    firstAt: into.firstAt === null || (from.firstAt !== null && from.firstAt < into.firstAt) ? from.firstAt : into.firstAt,
    lastAt: compareTimes(from.lastAt, into.lastAt) > 0 ? from.lastAt : into.lastAt,
    costUsd: pick(into.costUsd, from.costUsd),
    linesAdded: pick(into.linesAdded, from.linesAdded),
    linesRemoved: pick(into.linesRemoved, from.linesRemoved),
  };
}

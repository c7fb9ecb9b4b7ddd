// The plan story facts of every session log (historyLog.ts), kept current log by log. It follows the
// session index's list of logs: a first start reads them all in the background, after the first answers;
// later starts restore what was read (persisted.ts) and read only what was appended since.
import { TimeSlicer } from '../timeSlicer.js';
import { readHistoryLog, type HistoryLog } from './historyLog.js';
import { emptySessionFacts, type ExitCall, type FileWrite, type ModeChange, type SessionFacts, type SessionText } from './transcriptFacts.js';

const FORMAT = 'plan-memory-viewer/history';
const VERSION = 2;
const SESSION_TEXTS: readonly SessionText[] = ['customTitle', 'aiTitle', 'summary', 'firstPrompt', 'lastPrompt'];

/** A write with the log that holds it (its content is read from there). */
export interface LoggedWrite extends FileWrite {
  log: string;
}

export class HistoryIndex {
  private logs = new Map<string, HistoryLog>();
  /** Bumped when any log's facts change: what is derived from the index (stories, the archive) keys on it. */
  version = 0;
  private readonly listeners = new Set<() => void>();
  private queue: Promise<unknown> = Promise.resolve();

  /** `logFiles`: the session logs that exist now (the session index's list). */
  constructor(private readonly logFiles: () => string[]) {}

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every log brought up to date, in time slices; logs no longer listed are forgotten. */
  refresh(): Promise<void> {
    return this.serially(async () => {
      const slicer = await TimeSlicer.inOwnTurn();
      const files = this.logFiles();
      const present = new Set(files);
      let changed = false;
      for (const file of [...this.logs.keys()]) {
        if (!present.has(file)) changed = this.logs.delete(file) || changed;
      }
      for (const file of files) {
        // A log that did not move returns without reaching a pause of its own.
        await slicer.maybeYield();
        changed = (await this.read(file, slicer)) || changed;
      }
      if (changed) this.bump();
    });
  }

  /** One log changed, appeared or vanished (a watcher's report, after the session index took it in). */
  update(file: string): Promise<void> {
    return this.serially(async () => {
      if (await this.read(file, await TimeSlicer.inOwnTurn())) this.bump();
    });
  }

  /** Markdown writes to `filePath`, oldest first (by time, then by where they are in their log). */
  writesTo(filePath: string): LoggedWrite[] {
    const writes: LoggedWrite[] = [];
    for (const [log, history] of this.logs) {
      for (const write of history.facts.writes) if (write.filePath === filePath) writes.push({ ...write, log });
    }
    return writes.sort((a, b) => compareTimes(a.at, b.at) || (a.log < b.log ? -1 : a.log > b.log ? 1 : 0) || a.line.start - b.line.start);
  }

  /** Every markdown file a tool call wrote, with the time of its last write. Kept until the index changes. */
  writtenFiles(): ReadonlyMap<string, WrittenFile> {
    const kept = this.keptNow();
    return (kept.written ??= writtenFilesOf(this.logs.values()));
  }

  /**
   * Plan files a hook renamed (see renamesOf()): old path -> the path named after it. Callers keep only old
   * paths that are gone from disk. Kept until the index changes.
   */
  renames(): ReadonlyMap<string, string> {
    const kept = this.keptNow();
    return (kept.renames ??= renamesOf(this.logs.values()));
  }

  /** What is derived from every log (the archive asks for it at each change of the plans too). */
  private kept: { version: number; written: Map<string, WrittenFile> | null; renames: Map<string, string> | null } = { version: -1, written: null, renames: null };

  private keptNow(): HistoryIndex['kept'] {
    if (this.kept.version !== this.version) this.kept = { version: this.version, written: null, renames: null };
    return this.kept;
  }

  /** Plan-mode changes naming `planFilePath`, and ExitPlanMode calls of the given sessions. */
  planModeEvents(planFilePath: string, sessions: ReadonlySet<string>): { modes: ModeChange[]; exits: ExitCall[] } {
    const modes: ModeChange[] = [];
    const exits: ExitCall[] = [];
    for (const history of this.logs.values()) {
      for (const mode of history.facts.modes) if (mode.planFilePath === planFilePath) modes.push(mode);
      for (const exit of history.facts.exits) if (exit.sessionId !== null && sessions.has(exit.sessionId)) exits.push(exit);
    }
    return { modes, exits };
  }

  /** Sessions whose plan-mode attachments name `planFilePath`, or that wrote it. */
  sessionsOf(planFilePath: string): Set<string> {
    const sessions = new Set<string>();
    for (const history of this.logs.values()) {
      for (const mode of history.facts.modes) if (mode.planFilePath === planFilePath && mode.sessionId) sessions.add(mode.sessionId);
      for (const write of history.facts.writes) if (write.filePath === planFilePath && write.sessionId) sessions.add(write.sessionId);
    }
    return sessions;
  }

  /** A session's facts, merged over its logs (its own and its subagents'); null when no log names it. */
  session(sessionId: string): { facts: SessionFacts; logs: string[] } | null {
    let merged: SessionFacts | null = null;
    const logs: string[] = [];
    for (const [log, history] of this.logs) {
      const facts = history.facts.sessions[sessionId];
      if (facts === undefined) continue;
      logs.push(log);
      merged = mergeSession(merged ?? emptySessionFacts(), facts);
    }
    return merged === null ? null : { facts: merged, logs };
  }

  /**
   * The log and 1-based line a session's title or prompt came from, among `logs`; null when none of them
   * gave the session that text.
   */
  lineOf(sessionId: string, logs: readonly string[], text: string): { log: string; line: number } | null {
    for (const log of logs) {
      const facts = this.logs.get(log)?.facts;
      const session = facts?.sessions[sessionId];
      const lines = facts?.lines[sessionId];
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
    for (const [log, history] of this.logs) {
      for (const [id, facts] of Object.entries(history.facts.sessions)) {
        const known = all.get(id);
        if (known === undefined) all.set(id, { facts: mergeSession(emptySessionFacts(), facts), logs: [log] });
        else {
          known.facts = mergeSession(known.facts, facts);
          known.logs.push(log);
        }
      }
    }
    return all;
  }

  /** Each session's facts, merged over its logs. */
  sessionIds(): string[] {
    const ids = new Set<string>();
    for (const history of this.logs.values()) for (const id of Object.keys(history.facts.sessions)) ids.add(id);
    return [...ids];
  }

  /**
   * What restore() takes back, as the lines of a cache file: a header, then each log's facts as a JSON text
   * of its own, so that a restore parses them one at a time (a heavy home's index is megabytes of JSON).
   * Made in time slices.
   */
  async savedLines(): Promise<string[]> {
    const entries = [...this.logs];
    const lines = [JSON.stringify({ format: FORMAT, version: VERSION })];
    const slicer = new TimeSlicer();
    for (const entry of entries) {
      await slicer.maybeYield();
      lines.push(JSON.stringify(entry));
    }
    return lines;
  }

  /**
   * Restores what savedLines() made, in time slices; false (and nothing restored) when it is not that. It
   * queues with the reads (a log's update waits until the restore it would overwrite is done).
   */
  async restore(lines: Iterable<string>): Promise<boolean> {
    let restored = false;
    await this.serially(async () => {
      restored = await this.restoreNow(lines);
    });
    return restored;
  }

  private async restoreNow(lines: Iterable<string>): Promise<boolean> {
    const slicer = new TimeSlicer();
    const logs = new Map<string, HistoryLog>();
    let header = true;
    for (const text of lines) {
      await slicer.maybeYield();
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch {
        return false;
      }
      if (header) {
        const doc = entry as { format?: unknown; version?: unknown } | null;
        if (doc?.format !== FORMAT || doc.version !== VERSION) return false;
        header = false;
        continue;
      }
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !isHistoryLog(entry[1])) return false;
      logs.set(entry[0], entry[1]);
    }
    if (header) return false;
    this.logs = logs;
    this.bump();
    return true;
  }

  private async read(file: string, slicer: TimeSlicer): Promise<boolean> {
    const previous = this.logs.get(file) ?? null;
    const next = await readHistoryLog(file, previous, slicer);
    if (next === previous) return false;
    if (next === null) return this.logs.delete(file);
    this.logs.set(file, next);
    return true;
  }

  private bump(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

export interface WrittenFile {
  at: string | null;
  sessionId: string | null;
}

/** Every markdown file the logs' tool calls wrote, with the time (and session) of its last write. */
function writtenFilesOf(logs: Iterable<HistoryLog>): Map<string, WrittenFile> {
  const files = new Map<string, WrittenFile>();
  for (const history of logs) {
    for (const write of history.facts.writes) {
      const known = files.get(write.filePath);
      if (known === undefined || compareTimes(known.at, write.at) < 0) files.set(write.filePath, { at: write.at, sessionId: write.sessionId });
    }
  }
  return files;
}

/**
 * Plan files a hook renamed: a session wrote `<folder>/<old>.md`, and later plan-mode attachments of the
 * same session name another file of that folder (Claude Code reports the plan's current path). Old path
 * -> the first such path, in the logs' order.
 */
function renamesOf(logs: Iterable<HistoryLog>): Map<string, string> {
  const histories = [...logs];
  const named = new Map<string, { path: string; at: string | null }[]>();
  for (const history of histories) {
    for (const mode of history.facts.modes) {
      if (mode.sessionId === null || mode.planFilePath === null) continue;
      const list = named.get(mode.sessionId) ?? [];
      list.push({ path: mode.planFilePath, at: mode.at });
      named.set(mode.sessionId, list);
    }
  }
  const renames = new Map<string, string>();
  for (const history of histories) {
    for (const write of history.facts.writes) {
      const later = write.sessionId === null ? undefined : named.get(write.sessionId)?.find((m) =>
        m.path !== write.filePath && dirname(m.path) === dirname(write.filePath) && compareTimes(write.at, m.at) <= 0);
      if (later !== undefined) renames.set(write.filePath, later.path);
    }
  }
  return renames;
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
    cwd: into.cwd ?? from.cwd,
    version: pick(into.version, from.version),
    entrypoint: into.entrypoint ?? from.entrypoint,
    firstAt: into.firstAt === null || (from.firstAt !== null && from.firstAt < into.firstAt) ? from.firstAt : into.firstAt,
    lastAt: compareTimes(from.lastAt, into.lastAt) > 0 ? from.lastAt : into.lastAt,
    costUsd: pick(into.costUsd, from.costUsd),
    linesAdded: pick(into.linesAdded, from.linesAdded),
    linesRemoved: pick(into.linesRemoved, from.linesRemoved),
  };
}

function isHistoryLog(value: unknown): value is HistoryLog {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const facts = v.facts as Record<string, unknown> | undefined;
  return typeof v.size === 'number' && typeof v.mtimeMs === 'number' && typeof v.ino === 'number' && typeof v.offset === 'number' &&
    typeof v.lines === 'number' && typeof facts === 'object' && facts !== null && Array.isArray(facts.writes) && Array.isArray(facts.exits) &&
    Array.isArray(facts.modes) && typeof facts.sessions === 'object' && facts.sessions !== null &&
    typeof facts.lines === 'object' && facts.lines !== null;
}

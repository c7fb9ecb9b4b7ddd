// ~/.claude/history.jsonl: one line per prompt typed (`display`, `pastedContents`, `timestamp`, `project`,
// `sessionId` in newer versions). Claude Code's transcript cleanup leaves it, so it is what remains of a
// session whose transcript is gone. It is its own kind of file, not a session log: read here in bounded
// slices (it can be tens of MB), bad lines skipped and counted, read again when its size or mtime moves
// (only the appended part when it only grew). Kept per session: a few facts and where its lines are, so
// its prompts are read from the file when asked for, never held.
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { openRegularFile } from '../files.js';
import { maskSecrets } from '../memory/care/secrets.js';
import { nextSliceTurn } from '../timeSlicer.js';
import type { Prompt } from '../../contract/promptHistory.js';

/** Bytes read per slice. */
const SLICE_BYTES = 1024 * 1024;
/** A line longer than this is skipped (and counted bad): typed prompts are short; pastes sit in pastedContents. */
const MAX_LINE_BYTES = 1024 * 1024;
/** A prompt's text as answered, in characters. */
export const PROMPT_CHARS = 2000;
/** Lines remembered per session for its prompts (the latest ones kept). */
const LINES_KEPT_PER_SESSION = 2000;

export interface PromptFacts {
  sessionId: string;
  project: string | null;
  firstPrompt: string | null;
  lastPrompt: string | null;
  firstAt: string | null;
  lastAt: string | null;
  promptCount: number;
}

export interface ProjectPrompts {
  project: string;
  promptCount: number;
  firstAt: string | null;
  lastAt: string | null;
}

export type { Prompt };

interface SessionState extends PromptFacts {
  /** [offset, length] of its lines in the file. */
  lines: [number, number][];
}

interface Line {
  display: string;
  at: string | null;
  project: string | null;
  sessionId: string | null;
}

/** The text shown of a prompt: secrets masked, then cut (masking first so a cut never reveals part of one). */
export function shownPrompt(display: string): string {
  const masked = maskSecrets(display.slice(0, PROMPT_CHARS * 2)).text;
  return masked.length > PROMPT_CHARS ? masked.slice(0, PROMPT_CHARS) + '…' : masked;
}

/** A line's fields, or null when it is not a prompt line. `timestamp` is ms since the epoch, or an ISO string. */
export function parseLine(text: string): Line | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  if (typeof o.display !== 'string') return null;
  const t = typeof o.timestamp === 'number' ? o.timestamp : typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : NaN;
  const at = Number.isFinite(t) && Math.abs(t) <= 8.64e15 ? new Date(t).toISOString() : null;
  return {
    display: o.display,
    at,
    project: typeof o.project === 'string' && o.project !== '' ? o.project : null,
    sessionId: typeof o.sessionId === 'string' && o.sessionId !== '' ? o.sessionId : null,
  };
}

function earlier(a: string | null, b: string | null): boolean {
  return a !== null && (b === null || a < b);
}

export class PromptHistory {
  private sessionsById = new Map<string, SessionState>();
  private projectsByPath = new Map<string, ProjectPrompts>();
  private badLineCount = 0;
  /** What was read: the file's identity and stat, and the offset of the first byte not yet taken as lines. */
  private read: { ino: number; dev: number; size: number; mtimeMs: number; offset: number } | null = null;
  private refreshing: Promise<void> | null = null;
  /** Bumped whenever what is known changes. */
  version = 0;

  constructor(readonly file: string) {}

  get badLines(): number {
    return this.badLineCount;
  }

  /** Brings the facts up to the file on disk; concurrent callers share one pass. */
  refresh(): Promise<void> {
    this.refreshing ??= this.refreshNow().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  session(sessionId: string): PromptFacts | null {
    const s = this.sessionsById.get(sessionId);
    return s === undefined ? null : factsOf(s);
  }

  sessions(): PromptFacts[] {
    return [...this.sessionsById.values()].map(factsOf);
  }

  /** Prompts of lines without a sessionId (older versions), grouped by project. */
  projects(): ProjectPrompts[] {
    return [...this.projectsByPath.values()].map((p) => ({ ...p }));
  }

  /** A session's prompts, oldest line first, read from the file (null: no such session). */
  async prompts(sessionId: string): Promise<Prompt[] | null> {
    await this.refresh();
    const s = this.sessionsById.get(sessionId);
    if (s === undefined) return null;
    const opened = await openRegularFile(this.file);
    if (opened === null) return [];
    const { handle } = opened;
    try {
      const out: Prompt[] = [];
      for (const [offset, length] of s.lines) {
        const buf = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buf, 0, length, offset);
        const line = parseLine(buf.subarray(0, bytesRead).toString('utf8'));
        // The file was replaced since: a line that is no longer this session's is not answered.
        if (line === null || line.sessionId !== sessionId) continue;
        out.push({ at: line.at, display: shownPrompt(line.display), project: line.project });
      }
      return out;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  private async refreshNow(): Promise<void> {
    // Never waits on a FIFO, nor reads a directory (openRegularFile): either is no history.
    const opened = await openRegularFile(this.file);
    if (opened === null) {
      if (this.read !== null) this.reset();
      return;
    }
    const { handle, stats } = opened;
    try {
      const r = this.read;
      if (r !== null && r.ino === stats.ino && r.dev === stats.dev && r.size === stats.size && r.mtimeMs === stats.mtimeMs) return;
      // Only appended to: read from where the last pass stopped. Anything else (shorter, replaced): all again.
      const grew = r !== null && r.ino === stats.ino && r.dev === stats.dev && stats.size >= r.size;
      if (!grew) this.reset();
      await this.readFrom(handle, stats, grew ? r.offset : 0);
    } catch {
      // Unreadable now (gone between the open and a read): part of it may be taken already, so nothing is
      // kept and the next refresh reads it whole (never the same lines twice).
      this.reset();
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  private reset(): void {
    this.sessionsById = new Map();
    this.projectsByPath = new Map();
    this.badLineCount = 0;
    this.read = null;
    this.version++;
  }

  /** Takes the complete lines from `start` to the file's size; an unterminated last line waits for its newline. */
  private async readFrom(handle: FileHandle, stats: Stats, start: number): Promise<void> {
    const buf = Buffer.alloc(SLICE_BYTES);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let lineStart = start;
    let skipping = false; // inside a line already over MAX_LINE_BYTES
    let pos = start;
    let changed = false;
    while (pos < stats.size) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(SLICE_BYTES, stats.size - pos), pos);
      if (bytesRead === 0) break;
      let from = 0;
      for (;;) {
        const nl = buf.indexOf(0x0a, from);
        if (nl === -1 || nl >= bytesRead) break;
        if (skipping) {
          this.badLineCount++;
          skipping = false;
        } else {
          const piece = buf.subarray(from, nl);
          const whole = pendingBytes === 0 ? piece : Buffer.concat([...pending, piece]);
          if (whole.length > MAX_LINE_BYTES) this.badLineCount++;
          else if (this.take(whole, lineStart)) changed = true;
        }
        pending = [];
        pendingBytes = 0;
        from = nl + 1;
        lineStart = pos + from;
      }
      if (!skipping && from < bytesRead) {
        pending.push(Buffer.from(buf.subarray(from, bytesRead)));
        pendingBytes += bytesRead - from;
        if (pendingBytes > MAX_LINE_BYTES) {
          skipping = true;
          pending = [];
          pendingBytes = 0;
        }
      }
      pos += bytesRead;
      await nextSliceTurn();
    }
    // A line over the limit still unterminated is counted once its newline comes (read again from its start).
    this.read = { ino: stats.ino, dev: stats.dev, size: stats.size, mtimeMs: stats.mtimeMs, offset: lineStart };
    if (changed) this.version++;
  }

  /** One line's facts; false for a blank line, and for a bad one (counted). */
  private take(bytes: Buffer, offset: number): boolean {
    const text = bytes.toString('utf8');
    if (text.trim() === '') return false;
    const line = parseLine(text);
    if (line === null) {
      this.badLineCount++;
      return false;
    }
    if (line.sessionId === null) {
      if (line.project === null) return false;
      const p = this.projectsByPath.get(line.project) ?? { project: line.project, promptCount: 0, firstAt: null, lastAt: null };
      p.promptCount++;
      if (earlier(line.at, p.firstAt)) p.firstAt = line.at;
      if (earlier(p.lastAt, line.at) || (p.lastAt === null && line.at !== null)) p.lastAt = line.at;
      this.projectsByPath.set(line.project, p);
      return true;
    }
    let s = this.sessionsById.get(line.sessionId);
    if (s === undefined) {
      s = { sessionId: line.sessionId, project: line.project, firstPrompt: null, lastPrompt: null, firstAt: null, lastAt: null, promptCount: 0, lines: [] };
      this.sessionsById.set(line.sessionId, s);
    }
    const shown = shownPrompt(line.display);
    s.promptCount++;
    // First and last by time; lines without one (or at the same time) count in file order.
    if (s.firstPrompt === null || earlier(line.at, s.firstAt)) {
      s.firstPrompt = shown;
      if (line.at !== null) s.firstAt = line.at;
    }
    if (s.lastAt === null || line.at === null || line.at >= s.lastAt) {
      s.lastPrompt = shown;
      if (line.at !== null) s.lastAt = line.at;
    }
    if (s.firstAt === null) s.firstAt = line.at;
    s.project ??= line.project;
    s.lines.push([offset, bytes.length]);
    if (s.lines.length > LINES_KEPT_PER_SESSION) s.lines.shift();
    return true;
  }
}

function factsOf(s: SessionState): PromptFacts {
  const { lines: _lines, ...facts } = s;
  return facts;
}

// One session log's plan story, read incrementally: only the bytes after the last complete line are read,
// in chunks between which other work runs (the caller's TimeSlicer), and what the marked lines say is
// folded into the facts kept from the previous read. A log that shrank, was replaced or rewritten in
// place is read again from its start.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import path from 'node:path';
import { withRegularFileSync } from '../files.js';
import type { TimeSlicer } from '../timeSlicer.js';
import { withoutLongStrings } from './jsonSkeleton.js';
import { LineMarker, type MarkedLine } from './lineMarks.js';
import { applyLine, emptyTranscriptFacts, parseLine, type LogOwner, type TranscriptFacts } from './transcriptFacts.js';

const CHUNK_BYTES = 1024 * 1024;
/** User and first/last lines larger than this are tool output: only prompts and answers are wanted of them. */
const SMALL_LINE_BYTES = 256 * 1024;
/** Where a tool result names the call it answers: at the start of its content. */
const RESULT_HEAD_BYTES = 4096;
/** Where a tool call names its tool and file: before its input's content. */
const TOOL_HEAD_BYTES = 16 * 1024;
/** Tool-call lines past this are parsed without their long strings (see jsonSkeleton.ts); paths are far shorter. */
const SKELETON_LINE_BYTES = 64 * 1024;
const MAX_KEPT_STRING_BYTES = 8 * 1024;
const NEWLINE = 0x0a;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface HistoryLog {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Just past the last `\n` read. */
  offset: number;
  /** How many lines the log holds before `offset`. */
  lines: number;
  facts: TranscriptFacts;
}

/** Whose lines a log holds when they do not say: `<uuid>.jsonl` its own, `<uuid>/subagents/agent-<id>.jsonl` the parent's. */
export function logOwner(file: string): LogOwner {
  const name = path.basename(file, '.jsonl');
  if (UUID.test(name)) return { sessionId: name, agentId: null };
  const agentId = name.startsWith('agent-') ? name.slice('agent-'.length) : null;
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('subagents');
  const parent = at > 0 ? parts[at - 1]! : '';
  return { sessionId: UUID.test(parent) ? parent : null, agentId };
}

function unchanged(st: Stats, log: HistoryLog): boolean {
  return st.size === log.size && st.mtimeMs === log.mtimeMs && st.ino === log.ino;
}

/** A log only ever grows; anything else means what was read is stale. */
function rewritten(st: Stats, log: HistoryLog): boolean {
  return st.ino !== log.ino || st.size < log.size || st.mtimeMs < log.mtimeMs || log.offset > st.size;
}

/**
 * The log brought up to date from `previous` (null: read it all), or `previous` itself when it did not
 * move, or null when it is gone or not a regular file. Never throws.
 */
export async function readHistoryLog(file: string, previous: HistoryLog | null, slicer: TimeSlicer): Promise<HistoryLog | null> {
  let fd: number;
  try {
    // Most known logs did not move: one lstat says so, where opening one takes three calls.
    if (previous !== null) {
      const st = lstatSync(file);
      if (!st.isFile()) return null;
      if (unchanged(st, previous)) return previous;
    }
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    if (previous !== null && unchanged(st, previous)) return previous;
    let base = previous !== null && !rewritten(st, previous) ? previous : null;
    if (base !== null && base.offset > 0) {
      const probe = Buffer.alloc(1);
      if (readSync(fd, probe, 0, 1, base.offset - 1) !== 1 || probe[0] !== NEWLINE) base = null;
    }
    const start = base?.offset ?? 0;
    const marker = new LineMarker(start, base?.lines ?? 0);
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let position = start; position < st.size;) {
      await slicer.maybeYield();
      const n = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, st.size - position), position);
      if (n === 0) break;
      const taken = marker.feed(chunk.subarray(0, n), position);
      // What it did not take is an unfinished line: read again with what follows, unless nothing does.
      if (taken < n && position + n >= st.size) break;
      position += taken;
    }
    const marked = marker.finish();
    const facts = base !== null ? structuredClone(base.facts) : emptyTranscriptFacts();
    const owner = logOwner(file);
    for (const range of marked.lines) {
      await slicer.maybeYield();
      const bytes = worthReading(fd, range, facts, owner);
      // A tool call says what the index wants (its tool, file and time) in short strings; a user line's
      // prompt may be long, and is parsed whole.
      const skeleton = range.tool && range.type !== 'user' && bytes !== null && bytes.length > SKELETON_LINE_BYTES;
      const line = bytes && parseLine(skeleton ? withoutLongStrings(bytes, MAX_KEPT_STRING_BYTES) : bytes);
      if (line) applyLine(facts, line, { start: range.start, end: range.end }, range.number, owner);
    }
    return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, offset: marked.completedTo, lines: marked.linesBefore, facts };
  } catch {
    return null;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing else to release.
    }
  }
}

function readRange(fd: number, start: number, length: number): Buffer | null {
  const bytes = Buffer.allocUnsafe(length);
  return readSync(fd, bytes, 0, length, start) === length ? bytes : null;
}

/**
 * The bytes of a marked line when what it may say is still wanted, else null without reading it all: a
 * tool call of a `.md` file or ExitPlanMode, a metadata or attachment line, the first prompt of a session
 * that has none yet, the answer to an ExitPlanMode call not answered yet, a small first or last line.
 */
function worthReading(fd: number, line: MarkedLine, facts: TranscriptFacts, owner: LogOwner): Buffer | null {
  const length = line.end - line.start;
  if (line.tool) {
    // A tool call's file_path comes before what it writes: its head tells whether it writes markdown.
    const head = readRange(fd, line.start, Math.min(length, TOOL_HEAD_BYTES));
    return head !== null && (head.includes('.md"') || head.includes('"name":"ExitPlanMode"')) ? readRange(fd, line.start, length) : null;
  }
  if (line.type !== null && line.type !== 'user') return readRange(fd, line.start, length);
  if (line.type === 'user') {
    const pending = facts.exits.filter((e) => e.result === null);
    if (pending.length > 0) {
      const head = readRange(fd, line.start, Math.min(length, RESULT_HEAD_BYTES));
      if (head !== null && pending.some((e) => head.includes(`"tool_use_id":"${e.toolUseId}"`))) return readRange(fd, line.start, length);
    }
    const session = owner.sessionId === null ? undefined : facts.sessions[owner.sessionId];
    if (length <= SMALL_LINE_BYTES && (session === undefined || session.firstPrompt === null)) return readRange(fd, line.start, length);
  }
  return (line.first || line.last) && length <= SMALL_LINE_BYTES ? readRange(fd, line.start, length) : null;
}

/** The text of one line of a log (a write's tool call), or null when the file no longer holds it. */
export function readLineAt(file: string, start: number, end: number): Buffer | null {
  // A log is never read through a symlink: a resolver that follows none.
  return withRegularFileSync(file, (fd) => {
    const bytes = Buffer.allocUnsafe(end - start);
    return readSync(fd, bytes, 0, bytes.length, start) === bytes.length ? bytes : null;
  }, () => null);
}

// The one reader of Claude Code's session logs: the only code that opens them. A log is read from the
// end of its last complete line (only what was appended since), a chunk at a time into a reused buffer,
// and each whole line is handed, as a JSON object read on demand (lineView.ts), to every extractor
// (extractors/), which fold what it says into the log's facts (logFacts.ts). One read position, one set
// of facts per log: whatever is derived from transcripts is derived from them.
//
// A line is read whole up to MAX_LINE_BYTES wherever its facts sit in it (keys come in any order); a
// longer one is skipped and counted (`counts.oversized`), so an answer built on the log can say so.
// Synchronous on purpose: a read from the page cache takes microseconds, and a promise round trip per
// chunk cost more than the copy itself. Callers bound how much one call reads on the main thread and
// send bigger jobs to a worker (see sessions/scanWorkers.ts).
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { extractLine } from './extractors/index.js';
import { cloneFacts, emptyFacts, type LogFacts, type LogOwner } from './logFacts.js';
import { ReadSlot, type LineParser } from './readSlot.js';

/**
 * The longest line read: tool output in one line runs to a few MB, a plan written whole in one Write is
 * far smaller. A longer line is not held (a log of one 1 GB line costs one chunk of memory) and its facts
 * are not known; the log's `counts.oversized` says how many such lines it has.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** A torn line (a crash cut it, and the next write was glued on) is read from the first of these many object starts in it that begins a whole line. */
const MAX_TORN_STARTS = 16;

export interface TrackedLog {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Just past the last `\n` read: a trailing partial line is read again once the file grows. */
  offset: number;
  /** How many lines the log holds before `offset`. */
  lines: number;
  facts: LogFacts;
}

export { ReadSlot, type LineParser } from './readSlot.js';

/** Read size: big enough that a read's fixed cost disappears, small enough to stay in the CPU's cache. */
export const DEFAULT_CHUNK_BYTES = 256 * 1024;

/** A reader's working memory (readSlot.ts); `parser` reads every line instead of the tape (tests). */
export function createReadSlot(chunkBytes = DEFAULT_CHUNK_BYTES, parser: LineParser | null = null, maxLineBytes = MAX_LINE_BYTES): ReadSlot {
  return new ReadSlot(chunkBytes, maxLineBytes, parser);
}

export type ReadResult =
  | { kind: 'gone' }
  | { kind: 'unchanged' }
  | { kind: 'failed'; message: string }
  | { kind: 'read'; log: TrackedLog; bytesRead: number; maxHeldBytes: number };

// O_NONBLOCK: if the path was swapped for a FIFO after lstat, open() must not wait for a writer.
// O_NOFOLLOW: nor may it follow a symlink swapped in. Windows has neither (undefined there).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const CAN_REFUSE_SYMLINKS = constants.O_NOFOLLOW !== undefined;
const GONE_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENXIO', 'EISDIR']);
const NEWLINE = 0x0a;
const PAGE_BYTES = 4096;
const GONE: ReadResult = { kind: 'gone' };
const UNCHANGED: ReadResult = { kind: 'unchanged' };
const OBJECT_START = Buffer.from('{"');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whose lines a log holds when they do not say: `<folder>/<uuid>.jsonl` its own session's,
 * `<folder>/<uuid>/subagents/**\/agent-<id>.jsonl` the parent's (workflow runs too), `<folder>/agent-<id>.jsonl`
 * (before 2.1.2) nobody's; and the project folder it is in.
 */
export function logOwner(file: string): LogOwner {
  const parts = file.split(/[\\/]/);
  const name = path.basename(file, '.jsonl');
  const at = parts.lastIndexOf('subagents');
  if (!UUID.test(name) && at >= 2 && UUID.test(parts[at - 1]!)) {
    return { sessionId: parts[at - 1]!, agentId: agentIdOf(name), main: false, folder: parts[at - 2]! };
  }
  const folder = parts.at(-2) ?? '';
  return UUID.test(name) ? { sessionId: name, agentId: null, main: true, folder } : { sessionId: null, agentId: agentIdOf(name), main: false, folder };
}

function agentIdOf(name: string): string | null {
  return name.startsWith('agent-') ? name.slice('agent-'.length) : null;
}

export interface StatLike {
  size: number;
  mtimeMs: number;
  ino: number;
}

export function sameStat(st: StatLike, log: StatLike): boolean {
  return st.size === log.size && st.mtimeMs === log.mtimeMs && st.ino === log.ino;
}

/** A log only ever grows; anything else means it was replaced or rewritten, so what we read is stale. */
function mustRescan(st: StatLike, log: TrackedLog): boolean {
  return st.ino !== log.ino || st.size < log.size || st.mtimeMs < log.mtimeMs || log.offset > st.size;
}

function failure(error: unknown): ReadResult {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== undefined && GONE_CODES.has(code)) return GONE;
  return { kind: 'failed', message: code ?? String(error) };
}

/**
 * Brings one log up to date. `gone` when it is missing or not a regular file (forget it), `unchanged`
 * when size, mtime and inode match what was read, `read` with the new state otherwise. Never throws.
 */
export function readLog(file: string, previous: TrackedLog | null, slot: ReadSlot): ReadResult {
  const steps = readLogInSteps(file, previous, slot);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * readLog() a chunk at a time: it yields after each chunk it reads, so that the main thread can answer
 * requests within a large log; returns what readLog() does. It must be run to its end (it holds the file
 * open), and nothing else may use `slot` meanwhile. `from`: where the log's bytes are read, when not at its
 * own path (the viewer's copy of a log gone from disk, keptLogs.ts); whose lines they are is `file`'s.
 */
export function* readLogInSteps(file: string, previous: TrackedLog | null, slot: ReadSlot, from = file): Generator<void, ReadResult> {
  let fd: number;
  try {
    // A known file is usually unchanged: one lstat says so without opening it. A new one is opened
    // straight away: O_NOFOLLOW refuses a symlink, and readOpen's fstat anything else that is not a regular file.
    if (previous !== null || !CAN_REFUSE_SYMLINKS) {
      const st = lstatSync(from);
      if (!st.isFile()) return GONE;
      if (previous !== null && sameStat(st, previous)) return UNCHANGED;
    }
    fd = openSync(from, OPEN_FLAGS);
  } catch (error) {
    return failure(error);
  }
  try {
    return yield* readOpen(fd, logOwner(file), previous, slot);
  } catch (error) {
    return failure(error);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing to do: the descriptor is gone either way.
    }
  }
}

function* readOpen(fd: number, owner: LogOwner, previous: TrackedLog | null, slot: ReadSlot): Generator<void, ReadResult> {
  const st = fstatSync(fd);
  if (!st.isFile()) return GONE;
  if (previous !== null && sameStat(st, previous)) return UNCHANGED;
  let bytesRead = 0;
  let base = previous !== null && !mustRescan(st, previous) ? previous : null;
  if (base !== null && base.offset > 0) {
    // The byte before the offset was a `\n`; if it is not any more, the file was rewritten in place.
    const probe = readSync(fd, slot.buffer(), 0, 1, base.offset - 1);
    bytesRead += probe;
    if (probe !== 1 || slot.buffer()[0] !== NEWLINE) base = null;
  }
  const facts = base !== null ? cloneFacts(base.facts) : emptyFacts();
  const lines = new LineSplitter(slot, owner, facts, base?.offset ?? 0, base?.lines ?? 0);
  // Stop at the size seen now: a log that keeps growing is finished by the next update, not chased.
  for (let position = base?.offset ?? 0; position < st.size;) {
    const into = lines.space();
    const n = readSync(fd, into, 0, Math.min(into.length, st.size - position), position);
    // Truncated while we read: the recorded size is now too large, so the next stat rescans.
    if (n === 0) break;
    bytesRead += n;
    position += n;
    lines.took(n);
    if (position < st.size) yield;
  }
  lines.done();
  slot.release();
  return {
    kind: 'read',
    log: { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, offset: lines.offset, lines: lines.count, facts },
    bytesRead,
    maxHeldBytes: lines.maxHeld,
  };
}

/**
 * Cuts what is read into whole lines and hands each to the extractors. Reads append to the buffer; the
 * unfinished line is moved to its start only when the next read would not fit, and the buffer grows
 * only for a line longer than it.
 */
class LineSplitter {
  /** Bytes read into the buffer. */
  private filled = 0;
  /** Where the unfinished line starts in the buffer. */
  private lineStart = 0;
  /** The file offset of the buffer's first byte. */
  private base: number;
  /** Inside an oversized line: its bytes are dropped until its `\n`. */
  private skipping = false;
  /** The most bytes the buffer held for this log (a long line makes it grow). */
  maxHeld: number;

  constructor(
    private readonly slot: ReadSlot,
    private readonly owner: LogOwner,
    private readonly facts: LogFacts,
    /** Just past the last whole line handed on. */
    public offset: number,
    /** Lines before `offset`. */
    public count: number,
  ) {
    // A byte sits at the same offset in the buffer's pages as in the file's: the kernel's copy is ~4x slower
    // into a place a few bytes off (see alignedBuffers.ts). The buffer starts on a page.
    this.filled = offset % PAGE_BYTES;
    this.lineStart = this.filled;
    this.base = offset - this.filled;
    this.maxHeld = slot.held;
  }

  /** Where the next read goes: a chunk's worth after what the buffer holds. */
  space(): Buffer {
    const { slot } = this;
    const chunk = slot.chunkBytes;
    let buffer = slot.buffer();
    const keepAt = this.lineStart % PAGE_BYTES;
    // The unfinished line goes back to the start when the next read would not fit, and when it is short
    // anyway: reads then land in the same few hundred KB, which stay in the CPU's cache (see D1).
    if ((buffer.length - this.filled < chunk || this.filled - this.lineStart <= chunk) && this.lineStart > keepAt) {
      // The unfinished line moves to the first page, at its offset in its page (see the constructor).
      buffer.copy(buffer, keepAt, this.lineStart, this.filled);
      this.base += this.lineStart - keepAt;
      this.filled -= this.lineStart - keepAt;
      this.lineStart = keepAt;
    }
    if (buffer.length - this.filled < chunk) {
      buffer = slot.buffer(this.filled + chunk, this.filled);
      this.maxHeld = Math.max(this.maxHeld, slot.held);
    }
    // A chunk at a time whatever the buffer's size: one read is one step between pauses.
    return buffer.subarray(this.filled, this.filled + chunk);
  }

  took(n: number): void {
    const end = this.filled + n;
    const max = this.slot.maxLineBytes;
    let view = this.slot.buffer().subarray(0, end);
    let from = this.lineStart;
    // The unfinished line has no `\n`: the search starts with the new bytes.
    for (let nl = view.indexOf(NEWLINE, this.filled); nl !== -1; nl = view.indexOf(NEWLINE, from)) {
      if (this.skipping || nl - from > max) {
        // Counted once whole: a log that ends inside it is read from its start again when it grows.
        this.skipping = false;
        this.facts.counts.oversized++;
      } else {
        this.line(from, nl);
        // A parse may have grown the tape's memory, which holds the buffer.
        if (view.buffer !== this.slot.buffer().buffer) view = this.slot.buffer().subarray(0, end);
      }
      this.count++;
      from = nl + 1;
      this.offset = this.base + from;
    }
    this.filled = end;
    this.lineStart = from;
    if (this.skipping || end - from > max) {
      // Inside a line too long to read: none of it is kept.
      this.skipping = true;
      this.filled = (this.base + end) % PAGE_BYTES;
      this.base += end - this.filled;
      this.lineStart = this.filled;
    }
  }

  /** The file ended: its last line counts only once its `\n` is written (the next read takes it). */
  done(): void {}

  private line(start: number, end: number): void {
    if (end === start) return;
    const { slot } = this;
    let at = start;
    let view = slot.parse(start, end);
    // A line a crash cut short, with the next one glued on: the whole line is the first object start after
    // the cut that begins one.
    for (let tries = 0; view === null && tries < MAX_TORN_STARTS; tries++) {
      at = slot.buffer().subarray(0, end).indexOf(OBJECT_START, at + 1);
      if (at === -1) break;
      view = slot.parse(at, end);
    }
    if (view === null) {
      this.facts.counts.unreadable++;
      return;
    }
    extractLine(this.facts, view, this.owner, { start: this.base + at, end: this.base + end }, this.count + 1);
  }
}

/** Bytes readLog() would read for a file of this stat (an estimate: a rewritten file is read whole). */
export function bytesToRead(st: StatLike, previous: TrackedLog | null): number {
  if (previous === null || mustRescan(st, previous)) return st.size;
  return st.size - previous.offset;
}


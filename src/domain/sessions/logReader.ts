// Incremental reading of one session log: only the bytes after the last complete line are read, in
// bounded chunks into a reused buffer, and what they say is folded into the file's small fact maps.
// Synchronous on purpose: a read from the page cache takes microseconds, and a promise round trip
// through libuv's thread pool per chunk cost more than the copy itself. Callers bound how much one
// call reads on the main thread and send bigger jobs to a worker (see scanWorkers.ts).
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { pageAlignedBuffers } from '../alignedBuffers.js';
import { LineScanner, type LineRecord } from './lineScanner.js';

/** What one log file says, bounded by its sessions and slugs rather than its bytes. */
export interface LogFacts {
  /** slug -> sessionId of the last line carrying the slug. */
  slugs: Map<string, string>;
  /** sessionId -> the last cwd on its lines. */
  sessions: Map<string, string>;
  /** The last cwd on any line. */
  lastCwd: string | null;
}

export interface TrackedLog {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Just past the last `\n` read: a trailing partial line is read again once the file grows. */
  offset: number;
  facts: LogFacts;
}

/**
 * One reader's working memory; a fixed number of them bounds both memory and open files. Chunks are read
 * into the two buffers in turn, so the scanner may hold on to the previous chunk (see LineScanner.feed).
 */
export interface ReadSlot {
  readonly buffer: Buffer;
  readonly spare: Buffer;
  readonly scanner: LineScanner;
}

/**
 * Read size: big enough that a read's fixed cost disappears, small enough that the two buffers stay in
 * the CPU's L2 cache while the scanner searches them. What mattered far more than the size (64 KiB to
 * 1 MiB) was where the buffers start: see alignedBuffers.ts.
 */
export const DEFAULT_CHUNK_BYTES = 256 * 1024;

export function createReadSlot(chunkBytes = DEFAULT_CHUNK_BYTES): ReadSlot {
  const [buffer, spare] = pageAlignedBuffers(2, chunkBytes) as [Buffer, Buffer];
  return { buffer, spare, scanner: new LineScanner() };
}

export type ReadResult =
  | { kind: 'gone' }
  | { kind: 'unchanged' }
  | { kind: 'failed'; message: string }
  | { kind: 'read'; log: TrackedLog; bytesRead: number; maxRetainedBytes: number };

// O_NONBLOCK: if the path was swapped for a FIFO after lstat, open() must not wait for a writer.
// O_NOFOLLOW: nor may it follow a symlink swapped in. Windows has neither (undefined there).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const CAN_REFUSE_SYMLINKS = constants.O_NOFOLLOW !== undefined;
const GONE_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENXIO', 'EISDIR']);
const NEWLINE = 0x0a;
const PAGE_BYTES = 4096;
const GONE: ReadResult = { kind: 'gone' };
const UNCHANGED: ReadResult = { kind: 'unchanged' };

export function emptyFacts(): LogFacts {
  return { slugs: new Map(), sessions: new Map(), lastCwd: null };
}

export function hasFacts(facts: LogFacts): boolean {
  return facts.slugs.size > 0 || facts.sessions.size > 0;
}

function cloneFacts(facts: LogFacts): LogFacts {
  return { slugs: new Map(facts.slugs), sessions: new Map(facts.sessions), lastCwd: facts.lastCwd };
}

function applyRecord(facts: LogFacts, record: LineRecord): void {
  if (record.cwd !== null) {
    facts.sessions.set(record.sessionId, record.cwd);
    facts.lastCwd = record.cwd;
  }
  if (record.slug !== null) facts.slugs.set(record.slug, record.sessionId);
}

export interface StatLike {
  size: number;
  mtimeMs: number;
  ino: number;
}

export function sameStat(st: StatLike, log: TrackedLog): boolean {
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
 * requests within a large log (docs/decisions.md, D55); returns what readLog() does. It must be run to its end (it holds the file
 * open), and nothing else may use `slot` meanwhile.
 */
export function* readLogInSteps(file: string, previous: TrackedLog | null, slot: ReadSlot): Generator<void, ReadResult> {
  let fd: number;
  try {
    // A known file is usually unchanged: one lstat says so without opening it. A new one is opened
    // straight away (one syscall less per log of a first scan): O_NOFOLLOW refuses a symlink, and
    // readOpen's fstat anything else that is not a regular file.
    if (previous !== null || !CAN_REFUSE_SYMLINKS) {
      const st = lstatSync(file);
      if (!st.isFile()) return GONE;
      if (previous !== null && sameStat(st, previous)) return UNCHANGED;
    }
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    return failure(error);
  }
  try {
    return yield* readOpen(fd, previous, slot);
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

function* readOpen(fd: number, previous: TrackedLog | null, slot: ReadSlot): Generator<void, ReadResult> {
  const st = fstatSync(fd);
  if (!st.isFile()) return GONE;
  if (previous !== null && sameStat(st, previous)) return UNCHANGED;
  const { scanner } = slot;
  // First: the scanner may still refer to the buffers (its last chunk of the previous file).
  scanner.reset();
  let buffer = slot.buffer;
  let bytesRead = 0;
  let base = previous !== null && !mustRescan(st, previous) ? previous : null;
  if (base !== null && base.offset > 0) {
    // The byte before the offset was a `\n`; if it is not any more, the file was rewritten in place.
    const probe = readSync(fd, buffer, 0, 1, base.offset - 1);
    bytesRead += probe;
    if (probe !== 1 || buffer[0] !== NEWLINE) base = null;
  }
  const start = base?.offset ?? 0;
  const facts = base !== null ? cloneFacts(base.facts) : emptyFacts();
  // Stop at the size seen now: a log that keeps growing is finished by the next update, not chased.
  for (let position = start; position < st.size; ) {
    // At the same offset in the buffer's page as in the file's (see alignedBuffers.ts): only the first
    // read of an append can start mid-page, and it ends on a page boundary. (Tests read in tiny chunks.)
    const at = buffer.length >= 2 * PAGE_BYTES ? position % PAGE_BYTES : 0;
    const n = readSync(fd, buffer, at, Math.min(buffer.length - at, st.size - position), position);
    // Truncated while we read: the recorded size is now too large, so the next stat rescans.
    if (n === 0) break;
    bytesRead += n;
    position += n;
    const chunk = at === 0 && n === buffer.length ? buffer : buffer.subarray(at, at + n);
    for (const record of scanner.feed(chunk, true)) applyRecord(facts, record);
    buffer = buffer === slot.buffer ? slot.spare : slot.buffer;
    if (position < st.size) yield;
  }
  const stats = scanner.stats;
  return {
    kind: 'read',
    log: { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, offset: start + stats.completedBytes, facts },
    bytesRead,
    maxRetainedBytes: stats.maxRetainedBytes,
  };
}

/** Bytes readLog() would read for a file of this stat (an estimate: a rewritten file is read whole). */
export function bytesToRead(st: StatLike, previous: TrackedLog | null): number {
  if (previous === null || mustRescan(st, previous)) return st.size;
  return st.size - previous.offset;
}

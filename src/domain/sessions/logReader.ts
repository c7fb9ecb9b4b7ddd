// Incremental reading of one session log: only the bytes after the last complete line are read, in
// bounded chunks into a reused buffer, and what they say is folded into the file's small fact maps.
import { constants, lstat, open, type FileHandle } from 'node:fs/promises';
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

/** One reader's working memory; a fixed number of them bounds both memory and open files. */
export interface ReadSlot {
  readonly buffer: Buffer;
  readonly scanner: LineScanner;
}

/**
 * Read size. Scanning a chunk costs little more than finding its `\n`s, so reads dominate: 256–512 KiB
 * measured best; 1 MiB was slower (four such buffers no longer stay in the CPU cache during the copy).
 */
export const DEFAULT_CHUNK_BYTES = 256 * 1024;

export function createReadSlot(chunkBytes = DEFAULT_CHUNK_BYTES): ReadSlot {
  return { buffer: Buffer.alloc(chunkBytes), scanner: new LineScanner() };
}

export type ReadResult =
  | { kind: 'gone' }
  | { kind: 'unchanged' }
  | { kind: 'failed'; message: string }
  | { kind: 'read'; log: TrackedLog; bytesRead: number; maxRetainedBytes: number };

// O_NONBLOCK: if the path was swapped for a FIFO after lstat, open() must not wait for a writer.
// O_NOFOLLOW: nor may it follow a symlink swapped in. Windows has neither (undefined there).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const GONE_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENXIO', 'EISDIR']);
const NEWLINE = 0x0a;
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

interface StatLike {
  size: number;
  mtimeMs: number;
  ino: number;
}

function sameStat(st: StatLike, log: TrackedLog): boolean {
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
export async function readLog(file: string, previous: TrackedLog | null, slot: ReadSlot): Promise<ReadResult> {
  let handle: FileHandle;
  try {
    const st = await lstat(file);
    if (!st.isFile()) return GONE;
    if (previous !== null && sameStat(st, previous)) return UNCHANGED;
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    return failure(error);
  }
  try {
    return await readOpen(handle, previous, slot);
  } catch (error) {
    return failure(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readOpen(handle: FileHandle, previous: TrackedLog | null, slot: ReadSlot): Promise<ReadResult> {
  const st = await handle.stat();
  if (!st.isFile()) return GONE;
  if (previous !== null && sameStat(st, previous)) return UNCHANGED;
  const { buffer, scanner } = slot;
  let bytesRead = 0;
  let base = previous !== null && !mustRescan(st, previous) ? previous : null;
  if (base !== null && base.offset > 0) {
    // The byte before the offset was a `\n`; if it is not any more, the file was rewritten in place.
    const probe = await handle.read(buffer, 0, 1, base.offset - 1);
    bytesRead += probe.bytesRead;
    if (probe.bytesRead !== 1 || buffer[0] !== NEWLINE) base = null;
  }
  const start = base?.offset ?? 0;
  const facts = base !== null ? cloneFacts(base.facts) : emptyFacts();
  scanner.reset();
  // Stop at the size seen now: a log that keeps growing is finished by the next update, not chased.
  for (let position = start; position < st.size; ) {
    const { bytesRead: n } = await handle.read(buffer, 0, Math.min(buffer.length, st.size - position), position);
    // Truncated while we read: the recorded size is now too large, so the next stat rescans.
    if (n === 0) break;
    bytesRead += n;
    position += n;
    for (const record of scanner.feed(buffer.subarray(0, n))) applyRecord(facts, record);
  }
  const stats = scanner.stats;
  return {
    kind: 'read',
    log: { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, offset: start + stats.completedBytes, facts },
    bytesRead,
    maxRetainedBytes: stats.maxRetainedBytes,
  };
}

// Reads of a log on request, beside the reader's pass (transcriptReader.ts; together the only code that opens
// session logs): one line where the facts say it is (a write's call for a plan's story, a call's input and
// result for a plan's outcome), and a page of lines from a byte offset (a session's transcript, paged); and the
// bytes of a log copied for the viewer to keep (keptLogs.ts). A log gone from disk is read from the viewer's
// kept copy, when there is one (a registered KeptCopies resolves its path).
import { readSync } from 'node:fs';
import { constants, open } from 'node:fs/promises';
import { withRegularFileSync } from '../files.js';
import { tapeParser } from './jsonTape.js';
import type { LineView } from './lineView.js';
import type { LineParser } from './readSlot.js';
import { MAX_LINE_BYTES } from './transcriptReader.js';

/** Lines read outside a slot (a write's line for a plan's story). */
let shared: LineParser | null = null;

/** Bytes read at a time for a page. */
const PAGE_CHUNK = 256 * 1024;

/** Where the viewer keeps copies of logs: a gone log's path -> its readable copy, else null. */
export interface KeptPaths {
  keptPathOf(file: string): string | null;
}

const keptPaths = new Set<KeptPaths>();

/** Reads of a log gone from disk go to the copy `kept` names (until the returned function is called). */
export function registerKeptPaths(kept: KeptPaths): () => void {
  keptPaths.add(kept);
  return () => keptPaths.delete(kept);
}

/** The path a read of `file` opens: the log itself, or the viewer's copy of it when the log is gone. */
function readPath(file: string): string {
  for (const kept of keptPaths) {
    const copy = kept.keptPathOf(file);
    if (copy !== null) return copy;
  }
  return file;
}

const COPY_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const COPY_PIECE = 256 * 1024;

/**
 * The bytes [from, its size at open) of a log handed to `sink` a piece at a time (thread-pool reads, so
 * the main thread is never held), for the viewer's kept copy; the log's stamp as it was opened, or null
 * when it is gone, not a regular file, or `start` (told that stamp first) declines.
 */
export async function copyLogBytes(
  file: string, from: number, sink: (piece: Buffer, at: number) => Promise<void>, start: (stamp: LogStamp) => boolean = () => true,
): Promise<LogStamp | null> {
  let handle;
  try {
    handle = await open(file, COPY_FLAGS);
  } catch {
    return null;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return null;
    const stamp = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
    if (!start(stamp)) return null;
    for (let at = from; at < stamp.size;) {
      const buffer = Buffer.allocUnsafe(Math.min(COPY_PIECE, stamp.size - at));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      // Cut short (truncated meanwhile): what was copied is not the log; the next pass copies it again.
      if (bytesRead <= 0) return null;
      await sink(buffer.subarray(0, bytesRead), at);
      at += bytesRead;
    }
    return stamp;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export interface LogStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * One line of a log as plain JSON (what a plan's outcome shows of a call: its input, its result's sidecar),
 * or null when the file no longer holds it whole or it does not parse. Read on request, one line at a time.
 */
export function readLineJsonAt(file: string, start: number, end: number): unknown {
  const bytes = lineBytesAt(file, start, end);
  return bytes === null ? null : parse(bytes);
}

/** One line of a log (a write's tool call, an approved plan) as a view, or null when the file no longer holds it. */
export function readLineAt(file: string, start: number, end: number, parser: LineParser = (shared ??= tapeParser())): LineView | null {
  const bytes = lineBytesAt(file, start, end);
  return bytes === null ? null : parser.parse(bytes);
}

/** The bytes [start, end) of a log, or null when the span is over the line limit or the file no longer holds it. */
function lineBytesAt(file: string, start: number, end: number): Buffer | null {
  if (end - start > MAX_LINE_BYTES || end < start) return null;
  // A log is never read through a symlink: a resolver that follows none.
  return withRegularFileSync(readPath(file), (fd) => {
    const buffer = Buffer.allocUnsafe(end - start);
    return readSync(fd, buffer, 0, buffer.length, start) === buffer.length ? buffer : null;
  }, () => null);
}

export interface PagedLine {
  /** Byte offset of the line in the log: a cursor that comes back to it. */
  start: number;
  end: number;
  /** The line as JSON, or null when it does not parse (torn, or not Claude Code's) or is over the line limit. */
  value: unknown;
}

/**
 * Whole lines from byte `from` on, until `maxLines` lines or about `maxBytes` bytes were read, and where the
 * next page starts (null at the end of the file). A line over the limit is stepped over, read in chunks and
 * dropped, so one 1 GB line never sits in memory. A last line without its newline is not given: it may be
 * being written.
 */
export function readLinesFrom(file: string, from: number, maxLines: number, maxBytes: number): { lines: PagedLine[]; next: number | null; size: number } | null {
  return withRegularFileSync(readPath(file), (fd, stats) => {
    const lines: PagedLine[] = [];
    const chunk = Buffer.allocUnsafe(PAGE_CHUNK);
    let parts: Buffer[] = [];
    let held = 0;
    let lineStart = from;
    let pos = from;
    let oversized = false;
    // A page holds at least one whole line, however long: a cursor always moves on.
    while (pos < stats.size && lines.length < maxLines && (lines.length === 0 || lineStart - from < maxBytes)) {
      const n = readSync(fd, chunk, 0, Math.min(PAGE_CHUNK, stats.size - pos), pos);
      if (n <= 0) break;
      let at = 0;
      while (at < n && lines.length < maxLines) {
        const newline = chunk.indexOf(10, at);
        const stop = newline === -1 || newline >= n ? n : newline;
        if (!oversized) {
          if (held + stop - at > MAX_LINE_BYTES) {
            oversized = true;
            parts = [];
            held = 0;
          } else {
            parts.push(Buffer.from(chunk.subarray(at, stop)));
            held += stop - at;
          }
        }
        if (stop === n) {
          at = n;
          break;
        }
        const end = pos + stop;
        lines.push({ start: lineStart, end, value: oversized ? null : parse(Buffer.concat(parts, held)) });
        parts = [];
        held = 0;
        oversized = false;
        lineStart = end + 1;
        at = stop + 1;
        if (lineStart - from >= maxBytes) break;
      }
      pos += at;
      if (lineStart - from >= maxBytes) break;
    }
    return { lines, next: lineStart < stats.size ? lineStart : null, size: stats.size };
  });
}

/**
 * Where the page before the line at `cursor` starts: the start of the `maxLines`-th line before it, or of the
 * furthest line before it within `maxBytes` (at least the line right before it, however long), so that
 * readLinesFrom() from there with the same bounds reads every line up to `cursor`. Null at the start of the file, and when
 * the line before is over the line limit (its start is not looked for).
 */
export function pageStartBefore(file: string, cursor: number, maxLines: number, maxBytes: number): number | null {
  if (cursor <= 0) return null;
  return withRegularFileSync(readPath(file), (fd, stats) => {
    const end = Math.min(cursor, stats.size);
    const chunk = Buffer.allocUnsafe(PAGE_CHUNK);
    // The byte before the cursor ends the line before it: line starts are found below it.
    let pos = end - 1;
    let found: number | null = null;
    let lines = 0;
    while (pos > 0) {
      const from = Math.max(0, pos - PAGE_CHUNK);
      const n = readSync(fd, chunk, 0, pos - from, from);
      if (n !== pos - from) return null;
      for (let i = n - 1; i >= 0; i--) {
        if (chunk[i] !== 10) continue;
        const start = from + i + 1;
        // Past the byte bound, the line before the cursor is still taken: a page moves back by one line at least.
        if (found !== null && end - start > maxBytes) return found;
        found = start;
        if (++lines === maxLines) return found;
      }
      pos = from;
      if (found === null && end - pos > MAX_LINE_BYTES) return null;
      if (found !== null && end - pos > maxBytes) return found;
    }
    // The file's start is a line start.
    return found !== null && end > maxBytes ? found : 0;
  }, () => null);
}

function parse(bytes: Buffer): unknown {
  if (bytes.length === 0) return null;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

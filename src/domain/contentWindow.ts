// A window of a text: what an MCP tool answers of a plan or a memory file, so that no call holds or sends
// more than a window's bytes of a 200 MB file (docs/security.md, rule 21). Windows are measured in bytes
// of the text's UTF-8 and never cut a character: a window starts at a character's start at or after the
// offset asked for, and ends before a character it would cut, where the next one starts (nextOffset).
// Followed from 0 through nextOffset, the windows joined are the text.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { LARGE_FILE_BYTES } from './largeFiles.js';
import { inLargeReadTurn } from './largeReads.js';
import { incompleteTail } from './markdown/textStats.js';

export interface ContentWindow {
  content: string;
  /** Where the window starts, in bytes of the text's UTF-8. */
  offset: number;
  /** Where the next window starts; null when this one reaches the end of the text. */
  nextOffset: number | null;
  /** Bytes of the whole text's UTF-8. */
  totalBytes: number;
}

/** The fewest bytes a window may ask for: the longest UTF-8 character fits in one. */
export const MIN_WINDOW_BYTES = 4;

/** Bytes of a UTF-8 character whose first byte is `lead` (1 for a byte that starts none). */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 && lead <= 0xf7 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/**
 * The window of `maxBytes` (at least MIN_WINDOW_BYTES) at `offset` of an open file's text, `size` bytes
 * long (the size a stat gave). Reads the window and the 3 bytes on either side of it, nothing else.
 */
export async function fileWindow(handle: FileHandle, size: number, offset: number, maxBytes: number): Promise<ContentWindow> {
  const from = Math.min(Math.max(0, offset), size);
  const most = Math.max(maxBytes, MIN_WINDOW_BYTES);
  // The 3 bytes before tell whether the offset is inside a character, which moves the start up to 3 after it.
  const readFrom = Math.max(0, from - 3);
  const length = Math.min(size, from + 3 + most) - readFrom;
  const bytes = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, readFrom + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  const end = readFrom + filled;
  // An offset inside a character moves to the end of that character.
  const before = bytes.subarray(0, from - readFrom);
  const cut = incompleteTail(before);
  const start = Math.min(end, cut < before.length ? Math.max(from, readFrom + cut + sequenceLength(before[cut]!)) : from);
  const window = bytes.subarray(start - readFrom, Math.min(filled, start - readFrom + most));
  // The file's last bytes are kept even when they end inside a character: one decode of the whole file
  // turns them into U+FFFD, and so does this. A read that came short found the end early (the file shrank
  // since its stat).
  const atEnd = start + window.length >= (filled < length ? end : size);
  const keep = atEnd ? window.length : incompleteTail(window);
  return {
    content: window.toString('utf8', 0, keep),
    offset: start,
    nextOffset: atEnd ? null : start + keep,
    totalBytes: size,
  };
}

/**
 * fileWindow() of a file openRegularFile() opened, a large one in its turn among large reads; null when
 * reading fails. Closes the file.
 */
export async function openedFileWindow(
  opened: { handle: FileHandle; stats: Stats }, offset: number, maxBytes: number,
): Promise<ContentWindow | null> {
  const read = (): Promise<ContentWindow> => fileWindow(opened.handle, opened.stats.size, offset, maxBytes);
  try {
    return await (opened.stats.size > LARGE_FILE_BYTES ? inLargeReadTurn(read) : read());
  } catch {
    return null;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

/** Characters taken per step when a text is measured in UTF-8 bytes: each step is one Buffer.byteLength(). */
const STEP_CHARS = 64 * 1024;

function utf8Bytes(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** The end of a step of STEP_CHARS from `at`, moved back so that it does not split a surrogate pair. */
function stepEnd(text: string, at: number): number {
  const end = Math.min(text.length, at + STEP_CHARS);
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/**
 * The index of the first character of `text` (from index `at`, at byte `bytes`) whose bytes would go past
 * `limit`, and the bytes before it: whole steps first, then character by character, so a text is never
 * encoded whole to find a place in it.
 */
function advance(text: string, at: number, bytes: number, limit: number): { at: number; bytes: number } {
  while (at < text.length) {
    const end = stepEnd(text, at);
    const stepBytes = Buffer.byteLength(text.slice(at, end), 'utf8');
    if (bytes + stepBytes > limit) break;
    bytes += stepBytes;
    at = end;
  }
  while (at < text.length) {
    const codePoint = text.codePointAt(at)!;
    const size = utf8Bytes(codePoint);
    if (bytes + size > limit) break;
    bytes += size;
    at += codePoint > 0xffff ? 2 : 1;
  }
  return { at, bytes };
}

/** The window of `maxBytes` (at least MIN_WINDOW_BYTES) at `offset` of a text held in memory. */
export function textWindow(text: string, offset: number, maxBytes: number): ContentWindow {
  const totalBytes = Buffer.byteLength(text, 'utf8');
  let start = advance(text, 0, 0, Math.max(0, offset));
  // An offset inside a character: the window starts after it.
  if (start.bytes < offset && start.at < text.length) {
    const codePoint = text.codePointAt(start.at)!;
    start = { at: start.at + (codePoint > 0xffff ? 2 : 1), bytes: start.bytes + utf8Bytes(codePoint) };
  }
  const end = advance(text, start.at, start.bytes, start.bytes + Math.max(maxBytes, MIN_WINDOW_BYTES));
  return {
    content: text.slice(start.at, end.at),
    offset: start.bytes,
    nextOffset: end.at < text.length ? end.bytes : null,
    totalBytes,
  };
}

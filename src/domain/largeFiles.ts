// Files too large to handle in one synchronous step (a 50 MB plan, a runaway memory topic): they are
// measured, searched and served a chunk at a time, so no request waits behind one of them for more than
// a chunk's work (docs/security.md, rules 17 and 19). Their chunks are read a few at a time across the
// whole process: four clients reading a 200 MB plan at once share the disk and the thread pool with
// everyone else instead of taking all of it.
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { openRegularFile, type LinkResolver } from './files.js';
import { foldCase } from './fold.js';

/** Files larger than this are handled in chunks; smaller ones in one read (the common case, and faster). */
export const LARGE_FILE_BYTES = 1024 * 1024;
/**
 * One chunk of a large file: decoding, folding or escaping one is a few milliseconds of the event loop,
 * which other requests wait for at most (the hostile-files figures in docs/robustness.md, bug 17).
 */
export const CHUNK_BYTES = 256 * 1024;
const CONCURRENT_CHUNK_READS = 2;

let reading = 0;
const waiting: (() => void)[] = [];

async function readTurn(): Promise<void> {
  if (reading < CONCURRENT_CHUNK_READS) {
    reading++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function endTurn(): void {
  const next = waiting.shift();
  if (next) next();
  else reading--;
}

/** Reads one chunk at `position` in its turn among all chunk reads. */
async function readChunk(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  await readTurn();
  try {
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
  } finally {
    endTurn();
  }
}

/**
 * The bytes of an open file from its start, in chunks, up to `limit` bytes (the size a stat gave, so what
 * is read agrees with the size reported beside it) or its end. Every chunk is a new buffer.
 */
export async function* fileChunks(handle: FileHandle, limit = Infinity, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  let position = 0;
  while (position < limit) {
    const chunk = await readChunk(handle, position, Math.min(chunkBytes, limit - position));
    if (chunk.length === 0) return;
    position += chunk.length;
    yield chunk;
  }
}

/** The text of an open file in decoded pieces (never cutting a character), as one decode of it would give. */
export async function* textPieces(handle: FileHandle, limit = Infinity, chunkBytes = CHUNK_BYTES): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of fileChunks(handle, limit, chunkBytes)) {
    const text = decoder.write(chunk);
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

/** What a plan version's record says of its text (see planStory.ts), measured without holding the text. */
export interface TextFacts {
  /** SHA-256 of the text's UTF-8, hex: contentHash() of the whole text. */
  sha256: string;
  /** Bytes of the text's UTF-8: Buffer.byteLength() of the whole text. */
  size: number;
  /** countLines() of the whole text. */
  lineCount: number;
}

/**
 * TextFacts of an open file's text as one decode of it gives (a byte that is no UTF-8 counts as the U+FFFD
 * it decodes to, as for a small file read whole), a chunk at a time: a 200 MB plan is hashed in 800 steps
 * of a millisecond or two, between which other requests are answered.
 */
export async function textFacts(handle: FileHandle, limit = Infinity, chunkBytes = CHUNK_BYTES): Promise<TextFacts> {
  const hash = createHash('sha256');
  let size = 0;
  let newlines = 0;
  let endsWithNewline = false;
  for await (const piece of textPieces(handle, limit, chunkBytes)) {
    hash.update(piece, 'utf8');
    size += Buffer.byteLength(piece, 'utf8');
    for (let at = piece.indexOf('\n'); at !== -1; at = piece.indexOf('\n', at + 1)) newlines++;
    endsWithNewline = piece.endsWith('\n');
  }
  return { sha256: hash.digest('hex'), size, lineCount: size === 0 ? 0 : endsWithNewline ? newlines : newlines + 1 };
}

/**
 * Whether folded text arriving in pieces contains `needle` (already folded), matches across piece
 * boundaries included. `fold` must work piece by piece (foldCase does: it maps code points one by one).
 */
export async function piecesContain(pieces: AsyncIterable<string>, needle: string, fold: (text: string) => string): Promise<boolean> {
  let tail = '';
  for await (const piece of pieces) {
    const text = tail + fold(piece);
    if (text.includes(needle)) return true;
    tail = text.slice(Math.max(0, text.length - needle.length + 1));
  }
  return false;
}

/**
 * Whether a large file's case-folded text contains `needle` (already folded), read a chunk at a time
 * and never kept whole; false when it cannot be opened or read.
 */
export async function largeFileContains(filepath: string, links: LinkResolver, needle: string): Promise<boolean> {
  const opened = await openRegularFile(filepath, links);
  if (opened === null) return false;
  try {
    return await piecesContain(textPieces(opened.handle), needle, foldCase);
  } catch {
    return false;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

// `{"content": "..."}` answers for a plan or memory file. A small file is read and serialized at once; a
// large one is streamed, a chunk decoded and escaped at a time, so no answer builds a whole 50 MB string
// on the event loop and four readers of a 200 MB plan hold a few chunks each, not the file four times
// (docs/security.md, rules 17 and 19). Both give the bytes JSON.stringify({ content }) would.
//
// A large file is streamed in its turn among large reads (src/domain/largeReads.ts, shared with MCP and
// plan history): the requests beyond those turns wait, holding nothing of the file. A client that stops
// reading would keep its turn for ever, so an answer left unread for STALLED_ANSWER_MS is ended.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { readOpenedText } from '../domain/files.js';
import { CHUNK_BYTES, LARGE_FILE_BYTES, textPieces } from '../domain/largeFiles.js';
import { largeReadTurn } from '../domain/largeReads.js';
import type { Content } from '../contract/endpoints.js';
import { sendText } from './errors.js';
import { sendSerialized } from './json.js';

/** How long a streamed answer may wait for its client to take more before it is ended. */
export const STALLED_ANSWER_MS = 30_000;

/** The JSON of `{ content }` for the text arriving in pieces, piece by piece. */
export async function* contentJson(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  yield '{"content":"';
  // A piece never ends inside a character (see textPieces), so escaping pieces one by one is escaping the whole.
  for await (const piece of pieces) yield JSON.stringify(piece).slice(1, -1);
  yield '"}';
}

/**
 * `source`, calling `stalled` when its consumer has not asked for the next piece within `idleMs` of the
 * last one (a stream asks only while its reader drains it).
 */
export async function* untilStalled<T>(source: AsyncIterable<T>, idleMs: number, stalled: () => void): AsyncGenerator<T> {
  let timer: NodeJS.Timeout | null = null;
  try {
    for await (const piece of source) {
      timer = setTimeout(stalled, idleMs);
      yield piece;
      clearTimeout(timer);
    }
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

/** Answers with the content of an opened file; closes it whatever happens. */
export async function sendContent(
  reply: FastifyReply, opened: { handle: FileHandle; stats: Stats }, stalledAfterMs = STALLED_ANSWER_MS,
): Promise<FastifyReply> {
  if (opened.stats.size <= LARGE_FILE_BYTES) {
    const text = await readOpenedText(opened);
    // Unreadable after opening (an I/O error): answered like a file gone since the listing.
    if (text === null) return sendText(reply, 404, 'Not found');
    return reply.send({ content: text } satisfies Content);
  }
  const { handle } = opened;
  const endTurn = await largeReadTurn();
  const res = reply.raw;
  // The client left while it waited: its turn goes to the next one.
  if (res.destroyed || res.socket?.destroyed === true) {
    endTurn();
    await handle.close().catch(() => undefined);
    return reply;
  }
  const pieces = untilStalled(contentJson(textPieces(handle)), stalledAfterMs, () => res.destroy());
  const stream = Readable.from(pieces, { objectMode: false, highWaterMark: CHUNK_BYTES });
  // Ended, failed or abandoned by the client: the turn ends and the file is closed either way.
  stream.once('close', () => {
    endTurn();
    void handle.close().catch(() => undefined);
  });
  return sendSerialized(reply, stream);
}

// `{"content": "..."}` answers for a plan or memory file. A small file is read and serialized at once; a
// large one is streamed, a chunk decoded and escaped at a time, so no answer builds a whole 50 MB string
// on the event loop and four readers of a 200 MB plan hold a few chunks each, not the file four times
// (docs/security.md, rules 17 and 19). Both give the bytes JSON.stringify({ content }) would.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { readOpenedText } from '../domain/files.js';
import { CHUNK_BYTES, LARGE_FILE_BYTES, textPieces } from '../domain/largeFiles.js';
import type { Content } from '../contract/endpoints.js';
import { sendText } from './errors.js';
import { sendSerialized } from './json.js';

/** The JSON of `{ content }` for the text arriving in pieces, piece by piece. */
export async function* contentJson(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  yield '{"content":"';
  // A piece never ends inside a character (see textPieces), so escaping pieces one by one is escaping the whole.
  for await (const piece of pieces) yield JSON.stringify(piece).slice(1, -1);
  yield '"}';
}

/** Answers with the content of an opened file; closes it whatever happens. */
export async function sendContent(reply: FastifyReply, opened: { handle: FileHandle; stats: Stats }): Promise<FastifyReply> {
  if (opened.stats.size <= LARGE_FILE_BYTES) {
    const text = await readOpenedText(opened);
    // Unreadable after opening (an I/O error): answered like a file gone since the listing.
    if (text === null) return sendText(reply, 404, 'Not found');
    return reply.send({ content: text } satisfies Content);
  }
  const { handle } = opened;
  const stream = Readable.from(contentJson(textPieces(handle)), { objectMode: false, highWaterMark: CHUNK_BYTES });
  // Ended, failed or abandoned by the client: the file is closed either way.
  stream.once('close', () => void handle.close().catch(() => undefined));
  return sendSerialized(reply, stream);
}

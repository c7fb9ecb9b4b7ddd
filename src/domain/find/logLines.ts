// Where in a session's log a prompt or title is: its 1-based line, found by looking for the text as the log
// writes it (a JSON string) in the log's bytes. Only for the sessions of the page shown, and remembered
// while the log keeps its size.
import { open } from 'node:fs/promises';

const CHUNK = 1024 * 1024;
/** Logs are scanned this far at most (a query waits for it): a prompt further on gets no snippet. */
const MAX_SCAN = 8 * 1024 * 1024;
/** The text's start is enough to tell its line (a long prompt is matched by its first characters). */
const NEEDLE_CHARS = 64;
const KEPT = 2000;

const known = new Map<string, number | null>();

/** The line of the first log line holding `text`, or null when none of `logs` does (in the scanned part). */
export async function lineInLogs(logs: readonly string[], text: string): Promise<{ log: string; line: number } | null> {
  const needle = Buffer.from(JSON.stringify([...text].slice(0, NEEDLE_CHARS).join('')).slice(1, -1));
  for (const log of logs) {
    const line = await lineInLog(log, needle);
    if (line !== null) return { log, line };
  }
  return null;
}

async function lineInLog(log: string, needle: Buffer): Promise<number | null> {
  let handle;
  try {
    handle = await open(log, 'r');
  } catch {
    return null;
  }
  try {
    const stats = await handle.stat();
    const key = `${log}\0${stats.size}\0${stats.mtimeMs}\0${needle.toString('latin1')}`;
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    const line = await scan(handle, Math.min(stats.size, MAX_SCAN), needle);
    if (known.size >= KEPT) known.delete(known.keys().next().value!);
    known.set(key, line);
    return line;
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function scan(handle: import('node:fs/promises').FileHandle, size: number, needle: Buffer): Promise<number | null> {
  const buffer = Buffer.alloc(CHUNK + needle.length);
  let carried = 0;
  let position = 0;
  let lines = 1;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, carried, Math.min(CHUNK, size - position), position);
    if (bytesRead === 0) break;
    const filled = carried + bytesRead;
    const view = buffer.subarray(0, filled);
    const at = view.indexOf(needle);
    if (at !== -1) return lines + count(view, 0, at);
    // Keep the tail a needle could straddle; its newlines are counted when it is searched again.
    const keep = Math.min(needle.length - 1, filled);
    lines += count(view, 0, filled - keep);
    buffer.copy(buffer, 0, filled - keep, filled);
    carried = keep;
    position += bytesRead;
  }
  return null;
}

function count(buffer: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buffer.indexOf(10, from); i !== -1 && i < to; i = buffer.indexOf(10, i + 1)) n++;
  return n;
}

// A JSON file in the user's cache dir that a restart reads instead of redoing work. Written atomically
// (temp file, then rename), so a crash mid-write never leaves a torn cache; read defensively, because
// a cache may be stale, corrupt, foreign or hand-edited: callers validate what they get, and what is not a
// regular file (a FIFO, a device, a symlink put in its place) is refused without being read.
import { createHash } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DERIVATION_VERSION } from './derivation.js';
import { readCacheFile, readCacheFileSync, TOO_LARGE } from './files.js';

export class CacheFile {
  readonly file: string;

  /** One file per kind and per source path (hashed, so any path gives a safe file name). */
  constructor(cacheDir: string, kind: string, sourcePath: string, private readonly maxBytes: number) {
    const key = createHash('sha256').update(path.resolve(sourcePath)).digest('hex').slice(0, 16);
    this.file = path.join(cacheDir, `${kind}-${key}.json`);
  }

  /**
   * The parsed JSON, MISSING when there is no file or it holds what other rules derived (see derivation.ts),
   * CORRUPT when it is not JSON or too large. Synchronous: it runs once, at start, before anything else
   * needs the event loop.
   */
  read(): unknown {
    const bytes = readCacheFileSync(this.file, this.maxBytes);
    if (bytes === null) return MISSING;
    if (bytes === TOO_LARGE) return CORRUPT;
    return markedObject(bytes.toString('utf8'));
  }

  /**
   * The lines writeLines() wrote after its first (the rules' version, checked), as byte ranges of the file's
   * bytes, decoded only by whoever needs one: MISSING when there is no file or other rules wrote it, CORRUPT
   * when it is too large or its first line is not that. Synchronous, for what a start restores at once.
   */
  readLinesSync(): { bytes: Buffer; lines: [start: number, end: number][] } | typeof MISSING | typeof CORRUPT {
    const bytes = readCacheFileSync(this.file, this.maxBytes);
    if (bytes === null) return MISSING;
    if (bytes === TOO_LARGE) return CORRUPT;
    const lines: [number, number][] = [];
    for (let start = 0; start < bytes.length;) {
      const newline = bytes.indexOf(0x0a, start);
      const end = newline === -1 ? bytes.length : newline;
      lines.push([start, end]);
      start = end + 1;
    }
    const first = lines.shift();
    const header = first === undefined ? CORRUPT : markedObject(bytes.toString('utf8', first[0], first[1]));
    return header === MISSING || header === CORRUPT ? header : { bytes, lines };
  }

  /** Writes `lines` (none holding a newline) after a first one naming the rules' version: true, or why not. */
  writeLines(lines: readonly string[]): Promise<true | string> {
    return writeAtomically(this.file, [JSON.stringify({ derivation: DERIVATION_VERSION }), ...lines, ''].join('\n'));
  }

  /** Writes `data` (an object) as JSON, marked with the rules' version: true, or why it could not. */
  write(data: object): Promise<true | string> {
    return writeAtomically(this.file, JSON.stringify({ derivation: DERIVATION_VERSION, ...data }));
  }

  /**
   * A companion file of raw bytes (`<kind>-<hash>.<suffix>`), for data that would only be escaped into the
   * JSON and decoded again. Null when it is missing, unreadable or too large; callers check what they get.
   */
  readBytes(suffix: string): Buffer | null {
    const bytes = readCacheFileSync(this.companion(suffix), this.maxBytes);
    return bytes === TOO_LARGE ? null : bytes;
  }

  /** readBytes() on the thread pool: for a large file read while requests are being answered. */
  readBytesAsync(suffix: string): Promise<Buffer | null> {
    return readCacheFile(this.companion(suffix), this.maxBytes);
  }

  /** `bytes` as one buffer, or in pieces written one after another (never joined in memory). */
  writeBytes(suffix: string, bytes: Buffer | readonly Buffer[]): Promise<true | string> {
    return writeAtomically(this.companion(suffix), bytes);
  }

  async removeBytes(suffix: string): Promise<void> {
    await unlink(this.companion(suffix)).catch(() => undefined);
  }

  /** Where the companion file of `suffix` is. */
  companionFile(suffix: string): string {
    return this.companion(suffix);
  }

  private companion(suffix: string): string {
    return `${this.file.slice(0, -'.json'.length)}.${suffix}`;
  }
}

/**
 * `json` parsed when it is an object marked with this build's rules' version; MISSING when another
 * version marked it, CORRUPT when it is not a JSON object.
 */
function markedObject(json: string): object | typeof MISSING | typeof CORRUPT {
  let data: unknown;
  try {
    data = JSON.parse(json) as unknown;
  } catch {
    return CORRUPT;
  }
  if (typeof data !== 'object' || data === null) return CORRUPT;
  return (data as { derivation?: unknown }).derivation === DERIVATION_VERSION ? data : MISSING;
}

/** Temp file, then rename: true, or why it could not (the temp file is removed). */
async function writeAtomically(file: string, data: string | Buffer | readonly Buffer[]): Promise<true | string> {
  const tmp = `${file}.tmp.${process.pid}.${Date.now().toString(16)}`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(tmp, data);
    await rename(tmp, file);
    return true;
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    return error instanceof Error ? error.message : String(error);
  }
}

export const MISSING = Symbol('missing');
export const CORRUPT = Symbol('corrupt');

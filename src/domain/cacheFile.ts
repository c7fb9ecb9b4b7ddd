// A JSON file in the user's cache dir that a restart reads instead of redoing work. Written atomically
// (temp file, then rename), so a crash mid-write never leaves a torn cache; read defensively, because
// a cache may be stale, corrupt, foreign or hand-edited: callers validate what they get.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export class CacheFile {
  readonly file: string;

  /** One file per kind and per source path (hashed, so any path gives a safe file name). */
  constructor(cacheDir: string, kind: string, sourcePath: string, private readonly maxBytes: number) {
    const key = createHash('sha256').update(path.resolve(sourcePath)).digest('hex').slice(0, 16);
    this.file = path.join(cacheDir, `${kind}-${key}.json`);
  }

  /**
   * The parsed JSON, 'missing' when there is no file, 'corrupt' when it is not JSON or too large.
   * Synchronous: it runs once, at start, before anything else needs the event loop.
   */
  read(): unknown {
    let raw: string;
    try {
      raw = readFileSync(this.file, 'utf8');
    } catch {
      return MISSING;
    }
    if (raw.length > this.maxBytes) return CORRUPT;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return CORRUPT;
    }
  }

  /** Writes `data` as JSON: true, or why it could not (the temp file is removed). */
  async write(data: unknown): Promise<true | string> {
    const tmp = `${this.file}.tmp.${process.pid}.${Date.now().toString(16)}`;
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      await writeFile(tmp, JSON.stringify(data));
      await rename(tmp, this.file);
      return true;
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      return error instanceof Error ? error.message : String(error);
    }
  }
}

export const MISSING = Symbol('missing');
export const CORRUPT = Symbol('corrupt');

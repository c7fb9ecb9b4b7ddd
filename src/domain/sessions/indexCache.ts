// The session index persisted between runs, so a restart reads only log bytes appended since the last
// run instead of every byte again. One file per projects dir; written atomically; any doubt -> rebuild.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../types.js';
import { SessionIndex, type SessionIndexOptions } from './sessionIndex.js';

const MAX_CACHE_BYTES = 256 * 1024 * 1024;

export class SessionIndexCache {
  readonly file: string;

  constructor(cacheDir: string, projectsDir: string, private readonly logger?: Logger) {
    const key = createHash('sha256').update(path.resolve(projectsDir)).digest('hex').slice(0, 16);
    this.file = path.join(cacheDir, `session-index-${key}.json`);
  }

  /** The cached index, or null when there is none or it is corrupt, foreign or of another format. */
  async load(options: SessionIndexOptions): Promise<SessionIndex | null> {
    let raw: string;
    try {
      raw = await readFile(this.file, 'utf8');
    } catch {
      return null;
    }
    if (raw.length > MAX_CACHE_BYTES) return null;
    try {
      const index = SessionIndex.fromJSON(JSON.parse(raw), options);
      if (!index) this.logger?.warn(`ignoring the session index cache ${this.file}: not a valid index; rebuilding it`);
      return index;
    } catch {
      this.logger?.warn(`ignoring the session index cache ${this.file}: corrupt; rebuilding it`);
      return null;
    }
  }

  /** Writes to a temp file then renames, so a crash mid-write never leaves a torn cache. */
  async save(index: SessionIndex): Promise<void> {
    const tmp = `${this.file}.tmp.${process.pid}.${Date.now().toString(16)}`;
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      await writeFile(tmp, JSON.stringify(index.toJSON()));
      await rename(tmp, this.file);
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      this.logger?.warn(`could not save the session index cache: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

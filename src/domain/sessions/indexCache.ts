// The session index persisted between runs, so a restart reads only log bytes appended since the last
// run instead of every byte again. One file per projects dir; any doubt -> rebuild.
import { SESSION_INDEX_CACHE } from '../../config/cacheDir.js';
import { CacheFile, CORRUPT, MISSING } from '../cacheFile.js';
import type { Logger } from '../types.js';
import { SessionIndex, type SessionIndexOptions } from './sessionIndex.js';
import { isOutdatedSnapshot } from './snapshot.js';

const MAX_CACHE_BYTES = 256 * 1024 * 1024;

export class SessionIndexCache {
  private readonly cache: CacheFile;
  /** The index the file holds, as of which edit count: saving it again would write the same bytes. */
  private inFile: { index: SessionIndex; edits: number } | null = null;

  constructor(cacheDir: string, projectsDir: string, private readonly logger?: Logger) {
    this.cache = new CacheFile(cacheDir, SESSION_INDEX_CACHE, projectsDir, MAX_CACHE_BYTES);
  }

  get file(): string {
    return this.cache.file;
  }

  /** The cached index, or null when there is none or it is corrupt, foreign or of another format. */
  async load(options: SessionIndexOptions): Promise<SessionIndex | null> {
    const data = this.cache.read();
    if (data === MISSING) return null;
    if (data === CORRUPT) {
      this.logger?.warn(`ignoring the session index cache ${this.file}: corrupt; rebuilding it`);
      return null;
    }
    const index = SessionIndex.fromJSON(data, options);
    // One written by an older version is just stale: rebuilt without a word.
    if (!index && !isOutdatedSnapshot(data)) {
      this.logger?.warn(`ignoring the session index cache ${this.file}: not a valid index; rebuilding it`);
    }
    if (index) this.inFile = { index, edits: index.editCount };
    return index;
  }

  /**
   * Writes the index, unless the file already holds it as it is: a restart that finds nothing changed
   * does not rewrite the cache (~1 MB, and ~30 ms of this thread on a heavy home).
   */
  async save(index: SessionIndex): Promise<void> {
    if (this.inFile?.index === index && this.inFile.edits === index.editCount) return;
    const edits = index.editCount;
    const result = await this.cache.write(await index.snapshot());
    if (result !== true) this.logger?.warn(`could not save the session index cache: ${result}`);
    else this.inFile = { index, edits };
  }
}

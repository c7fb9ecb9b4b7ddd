// The session index persisted between runs, so a restart reads only log bytes appended since the last
// run instead of every byte again. Per projects dir, two files: the index (the rules' version, then each
// log's read offset and links, snapshot.ts), read at start, and beside it each log's other facts on a
// line of its own (savedFactsFile.ts), read after the first answers and decoded only when something asks
// for them. Any doubt -> rebuild.
import { SESSION_INDEX_CACHE } from '../../config/cacheDir.js';
import { CacheFile, CORRUPT, MISSING } from '../cacheFile.js';
import type { Logger } from '../types.js';
import { SessionIndex, type SessionIndexOptions } from './sessionIndex.js';
import { isOutdatedSnapshot } from './snapshot.js';
import { factsFilePieces, newFactsStamp, SavedFactsFile } from './savedFactsFile.js';
import { TimeSlicer } from '../timeSlicer.js';

const MAX_CACHE_BYTES = 256 * 1024 * 1024;
/** The facts file's suffix beside the index (`session-index-<hash>.facts`). */
const FACTS = 'facts';
const STAMP = /^[0-9a-f]{16}$/;

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
    const read = this.cache.readLinesSync();
    if (read === MISSING) return null;
    const snapshot = read === CORRUPT || read.lines.length === 0 ? CORRUPT : parsed(read.bytes, read.lines[0]!);
    if (snapshot === CORRUPT) {
      this.logger?.warn(`ignoring the session index cache ${this.file}: corrupt; rebuilding it`);
      return null;
    }
    const stamp = (snapshot as { factsStamp?: unknown }).factsStamp;
    const facts = new SavedFactsFile(this.cache.companionFile(FACTS), typeof stamp === 'string' && STAMP.test(stamp) ? stamp : '', MAX_CACHE_BYTES);
    const index = SessionIndex.fromJSON(snapshot, options, (i) => facts.at(i), () => facts.prefetch());
    // One written by an older version is just stale: rebuilt without a word.
    if (!index && !isOutdatedSnapshot(snapshot)) {
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
    const { facts, ...snapshot } = await index.snapshot();
    // The facts first: an index is only ever beside the facts it names (a crash between the two leaves
    // the old index naming the old stamp: its logs are read again, nothing wrong is served).
    const factsStamp = newFactsStamp();
    const slicer = new TimeSlicer();
    const between = (): Promise<void> => slicer.maybeYield();
    const wrote = await this.cache.writeBytes(FACTS, await factsFilePieces(factsStamp, facts, between));
    const result = wrote === true ? await this.cache.writeLines([JSON.stringify({ ...snapshot, factsStamp })]) : wrote;
    if (result !== true) this.logger?.warn(`could not save the session index cache: ${result}`);
    else this.inFile = { index, edits };
  }
}

function parsed(bytes: Buffer, [start, end]: [number, number]): unknown {
  try {
    return JSON.parse(bytes.toString('utf8', start, end)) as unknown;
  } catch {
    return CORRUPT;
  }
}

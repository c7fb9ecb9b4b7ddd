// The memory listing as the service uses it: loaded on demand, cached for a few seconds (the spec's
// 5 s), shared between concurrent callers, and dropped on invalidate() when watchers see a change.
// Reloads are cheap: every file's parse is kept and reused while its stat shows the same version, and
// a reload that finds nothing changed hands out the previous listing object (routes key on its identity).
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openRegularFile, readHeadSync, type Head } from '../files.js';
import { type Logger, type MemoryListing, silentLogger } from '../types.js';
import { type LoadedMemory, type MemoryProjectInfo, loadMemory } from './loader.js';
import { ParsedFileCache } from './parsedFile.js';
import { TimeSlicer } from '../timeSlicer.js';

export type { MemoryProjectInfo } from './loader.js';

export interface MemoryStoreOptions {
  claudeDir: string;
  homeDir: string;
  /** Read at every load, so projects discovered since the last one are included. */
  projects: () => MemoryProjectInfo[];
  logger?: Logger;
  ttlMs?: number;
  now?: () => number;
}

export class MemoryStore {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private cached: { memory: LoadedMemory; at: number } | null = null;
  private pending: Promise<LoadedMemory> | null = null;
  // Bumped by invalidate(): a load that started before it must not be cached as fresh.
  private generation = 0;
  private readonly logger: Logger;
  private readonly files = new ParsedFileCache();
  // The latest complete load, kept past invalidate(): the next load reuses what did not change.
  private last: LoadedMemory | null = null;

  constructor(private readonly options: MemoryStoreOptions) {
    this.ttlMs = options.ttlMs ?? 5000;
    this.now = options.now ?? Date.now;
    // The listing reloads every few seconds while the UI is open; a refused setting or an ignored
    // value would otherwise be reported again on every load.
    const seen = new Set<string>();
    const target = options.logger ?? silentLogger;
    this.logger = {
      warn: (message) => {
        if (seen.has(message)) return;
        if (seen.size >= 1000) seen.clear();
        seen.add(message);
        target.warn(message);
      },
    };
  }

  async list(): Promise<MemoryListing> {
    return (await this.load()).listing;
  }

  /**
   * A listed entry's file, open for reading (the caller closes it), or null. The id is only ever a key
   * into the listing (never joined onto a path), so `../x` or `<id>/../../etc/passwd` cannot name
   * anything that was not listed.
   */
  async open(id: string): Promise<{ handle: FileHandle; stats: Stats } | null> {
    const file = (await this.load()).fileOf(id);
    if (file === null) return null;
    // Gone, unreadable, or swapped for a FIFO, a directory or a link out of its folder since the
    // listing: null, never a throw.
    return openRegularFile(file.filepath, file.links);
  }

  /** The first `maxBytes` of an entry's file as text, or null (see open()); its read is synchronous. */
  async head(id: string, maxBytes: number): Promise<Head | null> {
    const file = (await this.load()).fileOf(id);
    return file === null ? null : readHeadSync(file.filepath, maxBytes, file.links);
  }

  /**
   * The listing with each source's scanned files and their parses, their health-check facts made (a slice at
   * a time: a first check of a large home's files would otherwise hold the service): what a health check
   * and a fix read.
   */
  async snapshot(): Promise<Pick<LoadedMemory, 'listing' | 'files'>> {
    const memory = await this.load();
    const slicer = new TimeSlicer();
    for (const files of memory.files.values()) {
      for (const file of files) {
        void file.parsed.facts;
        await slicer.maybeYield();
      }
    }
    return memory;
  }

  /** Ids of entries whose raw content (frontmatter included) contains q, case-insensitively. */
  async search(q: string): Promise<string[]> {
    if (q === '') return [];
    return (await this.load()).search(q);
  }

  invalidate(): void {
    this.generation++;
    this.cached = null;
    this.pending = null;
  }

  private load(): Promise<LoadedMemory> {
    if (this.cached && this.now() - this.cached.at < this.ttlMs) return Promise.resolve(this.cached.memory);
    if (this.pending) return this.pending;
    const generation = this.generation;
    const pending = loadMemory({
      claudeDir: this.options.claudeDir,
      homeDir: this.options.homeDir,
      projects: this.options.projects(),
      logger: this.logger,
      cache: this.files.begin(),
      previous: this.last,
    }).then(
      (memory) => {
        if (generation === this.generation) {
          this.cached = { memory, at: this.now() };
          this.pending = null;
          this.last = memory;
        }
        return memory;
      },
      (error: unknown) => {
        if (generation === this.generation) this.pending = null;
        throw error;
      },
    );
    this.pending = pending;
    return pending;
  }
}

// What one memory file contributes to the listing, and the cache that keeps it across loads: the
// listing is rebuilt every few seconds while the UI is open, and almost always nothing has changed.
import type { Stats } from 'node:fs';
import { foldCase } from '../fold.js';
import { LARGE_FILE_BYTES } from '../largeFiles.js';
import { parseFrontmatter } from '../markdown/frontmatter.js';
import { extractLinks } from '../markdown/links.js';
import { firstHeading } from '../markdown/text.js';
import type { MemoryType } from '../types.js';
import { type FileFacts, fileFacts } from './care/fileFacts.js';

const TYPES = new Set<string>(['user', 'feedback', 'project', 'reference']);

/**
 * Links a file contributes to the link graph: its first ones. Claude Code loads 200 lines of an index,
 * and a file of 100,000 links (a hostile or broken one) would otherwise hold every memory load in
 * extraction and resolution (docs/robustness.md, bug 17).
 */
export const MAX_LINKS_PER_FILE = 2000;

/**
 * What is read of a memory file to list it: its frontmatter, heading and links come from this much of
 * its start; a larger file is searched by reading it again, a chunk at a time (see largeFiles.ts).
 */
export const PARSED_BYTES = LARGE_FILE_BYTES;

/** Everything the listing needs from a file's bytes; independent of the source it is listed in. */
export interface ParsedFile {
  size: number;
  mtimeMs: number;
  lineCount: number;
  /** Trimmed frontmatter `name:`, or null. */
  frontmatterName: string | null;
  heading: string | null;
  description: string | null;
  type: MemoryType | null;
  sessionId: string | null;
  /** ISO time: frontmatter `modified:` when it is a date, else the file's mtime. */
  modified: string;
  markdownTargets: string[];
  wikiTargets: string[];
  /** foldCase of the whole raw text, for search; null for a file larger than PARSED_BYTES (searched from disk). */
  folded: string | null;
  /**
   * What the health check reads (care/), made from the bytes read here on the first look (a check reads no
   * file again), not before: a listing that no health check follows (an agent's search) does not pay for it.
   */
  readonly facts: FileFacts;
}

/**
 * `text` is the file's first PARSED_BYTES (all of it when `size` is no more); `isIndex` for a source's
 * MEMORY.md, whose load budget is measured.
 */
export function parseFile(text: string, size: number, mtimeMs: number, lineCount: number, isIndex = false): ParsedFile {
  // parseFrontmatter never throws: a malformed file only loses its own fields.
  const frontmatter = parseFrontmatter(text);
  const { data, body } = frontmatter;
  const type = field(data.type);
  // Both kinds of link start with `[`: a quarter of typical memory files has none, and the scan is per line.
  const links = body.includes('[') ? extractLinks(body, MAX_LINKS_PER_FILE) : { markdown: [], wikilinks: [] };
  let facts: FileFacts | null = null;
  // Held only until the facts are made.
  let source: { text: string; frontmatter: typeof frontmatter } | null = { text, frontmatter };
  return {
    size,
    mtimeMs,
    lineCount,
    frontmatterName: field(data.name),
    heading: firstHeading(body),
    description: field(data.description),
    type: type !== null && TYPES.has(type) ? (type as MemoryType) : null,
    sessionId: field(data.originSessionId),
    modified: isoDate(field(data.modified)) ?? new Date(mtimeMs).toISOString(),
    markdownTargets: links.markdown,
    wikiTargets: links.wikilinks,
    folded: size <= PARSED_BYTES ? foldCase(text) : null,
    get facts(): FileFacts {
      if (facts === null) {
        facts = fileFacts(source!.text, source!.frontmatter, isIndex, MAX_LINKS_PER_FILE);
        source = null;
      }
      return facts;
    },
  };
}

/** A scalar frontmatter value as trimmed text; YAML may hand back numbers (`name: 2024`). */
function field(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  return null;
}

function isoDate(value: string | null): string | null {
  if (value === null) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * Which version of a file a parse belongs to. Beyond (ino, size, mtime): dev, because an inode number
 * is only unique on one device, and ctime, because chmod and utimes (a tool restoring an old mtime
 * after writing in place) change it, and a file made unreadable must drop out as it did without cache.
 */
type Version = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

function sameVersion(a: Version, b: Version): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.dev === b.dev;
}

interface Cached {
  version: Version;
  parsed: ParsedFile;
}

/** One load's use of the cache. */
export interface FileCacheView {
  /** Whether an earlier load parsed `filepath`: only then is a stat before reading it worth its cost. */
  knows(filepath: string): boolean;
  /** The parse of `filepath` when `stats` (stat or fstat of it) shows the version it was made from. */
  lookup(filepath: string, stats: Version): ParsedFile | null;
  remember(filepath: string, stats: Version, parsed: ParsedFile): void;
  /** The load is complete: what it saw replaces the cache, unless a newer load has started since. */
  finish(): void;
}

/**
 * Parses keyed by filepath, kept only for the files the latest complete load saw, so the cache never
 * outgrows one listing for long. Concurrent loads (an invalidate() during a load starts another) only ever
 * read entries that their own stat validates, so an older load finishing last cannot plant stale data.
 */
export class ParsedFileCache {
  private current = new Map<string, Cached>();
  private started = 0;

  begin(): FileCacheView {
    const load = ++this.started;
    const seen = new Map<string, Cached>();
    return {
      knows: (filepath) => this.current.has(filepath) || seen.has(filepath),
      lookup: (filepath, stats) => {
        const hit = seen.get(filepath) ?? this.current.get(filepath);
        if (hit === undefined || !sameVersion(hit.version, stats)) return null;
        seen.set(filepath, hit);
        return hit.parsed;
      },
      remember: (filepath, stats, parsed) => {
        const { dev, ino, size, mtimeMs, ctimeMs } = stats;
        seen.set(filepath, { version: { dev, ino, size, mtimeMs, ctimeMs }, parsed });
      },
      finish: () => {
        if (load === this.started) this.current = seen;
      },
    };
  }

  get size(): number {
    return this.current.size;
  }
}

/** For loads without a store (tests, one-off listings): nothing is found, nothing is kept. */
export const noFileCache: FileCacheView = {
  knows: () => false, lookup: () => null, remember: () => undefined, finish: () => undefined,
};

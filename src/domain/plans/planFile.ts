// One plan file on disk -> the metadata the service lists, plus (later) its folded text for search.
import { readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { createdTime, openRegularFile, readRegularFileSync, withRegularFileSync, type LinkResolver } from '../files.js';
import type { ScratchBuffer } from '../scratchBuffer.js';
import { foldCase } from '../fold.js';
import { fileChunks, LARGE_FILE_BYTES } from '../largeFiles.js';
import { followLink } from '../linkPolicy.js';
import { linesFromNewlines, planTitleFromBytes, titleFrom } from '../markdown/text.js';
import { TextStatsCounter } from '../markdown/textStats.js';
import { countWordsAndNewlines } from '../markdown/wordCount.js';
import type { TrigramBloom } from '../search/trigramBloom.js';
import type { PlanMetadata } from '../types.js';

/**
 * What the service knows of a plan's file: its list entry but the two fields the session logs decide, and
 * how to tell that the file moved since (mtime in ms, inode). Small, and persisted between runs (planCache.ts).
 */
export type PlanFacts = Omit<PlanMetadata, 'project' | 'sessionId'> & { modifiedMs: number; ino: number };

/**
 * Every fact of a plan and its kind, in list-entry order: the one place a fact is declared. A field added to
 * PlanMetadata (src/contract/shapes.ts) must be added here (the compiler says so) and derived in recordOf()
 * below; copies, comparisons and the check of persisted facts walk this table. A new or changed derivation
 * also bumps DERIVATION_VERSION (test/derivation/golden.test.ts says so).
 */
const FACT_KINDS = {
  filename: 'string', filepath: 'string', title: 'string', size: 'count', modified: 'string', created: 'string',
  lineCount: 'count', wordCount: 'count', modifiedMs: 'count', ino: 'count',
} as const satisfies Record<keyof PlanFacts, 'string' | 'count'>;

const FACT_KEYS = Object.keys(FACT_KINDS) as (keyof PlanFacts)[];
/** The facts a list entry shows (the rest tell whether the file moved). */
const LISTED_KEYS = FACT_KEYS.filter((key) => key !== 'modifiedMs' && key !== 'ino') as (keyof ListedFields)[];

export type ListedFields = Omit<PlanMetadata, 'project' | 'sessionId'>;

export interface PlanFileRecord extends PlanFacts {
  /**
   * The bytes of a plan read on its own (a watcher's update), until they are decoded and folded for
   * search (see PlanStore.scheduleFilters()). Plans read in a batch (at start, a rescan) are measured in
   * a scratch buffer and keep none: search preparation, after the first answers, reads them again.
   */
  bytes: Buffer | null;
  /**
   * Case-folded content as UTF-8, kept so a content search never touches the disk; null until prepared.
   * Bytes, not a string: a Buffer's contents are not on the collected heap, so the thousands of texts
   * prepared after a start are not copied by every young-generation collection meanwhile (D47).
   */
  folded: Buffer | null;
  /** Trigram filter of `folded`: most documents are ruled out without scanning their text. */
  bloom: TrigramBloom | null;
}

/** Only regular `*.md` files directly in a plans folder; never dotfiles or in-flight `*.tmp.*` writes. */
export function isPlanFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.') && !name.includes('.tmp.') && name.length > 3;
}

/**
 * A plan that is a symlink is read only when it leads to a `.md` file in the same folder (see
 * linkPolicy.ts): a repository's plansDirectory could otherwise hand `~/.ssh/id_rsa` to the listing.
 */
export const planLinks: LinkResolver = (linkPath) => {
  const followed = followLink(linkPath, path.dirname(linkPath), 'file');
  return 'real' in followed ? followed.real : null;
};

/** Whether a plan is too large to read, search or serve in one synchronous step (see largeFiles.ts). */
export function isLargePlan(record: PlanFacts): boolean {
  return record.size > LARGE_FILE_BYTES;
}

function recordOf(filepath: string, stats: Stats, title: string, lineCount: number, wordCount: number, bytes: Buffer | null): PlanFileRecord {
  return {
    filename: path.basename(filepath),
    filepath,
    title,
    size: stats.size,
    modifiedMs: stats.mtimeMs,
    ino: stats.ino,
    modified: stats.mtime.toISOString(),
    created: createdTime(stats).toISOString(),
    lineCount,
    wordCount,
    bytes,
    folded: null,
    bloom: null,
  };
}

/**
 * Reads and measures one plan; null when it vanished, is not a regular file, cannot be read or is a link
 * that may not be followed. Batches of reads pass a scratch buffer to read into: their records keep no
 * bytes (see `bytes`). A large plan is measured a chunk at a time (the promise); the rest synchronously.
 */
export function readPlanFile(filepath: string, scratch?: ScratchBuffer): PlanFileRecord | null | Promise<PlanFileRecord | null> {
  let large = false;
  const record = withRegularFileSync(filepath, (fd, stats) => {
    if (stats.size > LARGE_FILE_BYTES) {
      large = true;
      return null;
    }
    const bytes = scratch ? scratch.read(fd, stats.size) : readFileSync(fd);
    const filename = path.basename(filepath);
    const { words, newlines } = countWordsAndNewlines(bytes);
    return recordOf(filepath, stats, planTitleFromBytes(bytes, filename), linesFromNewlines(bytes, newlines), words, scratch ? null : bytes);
  }, planLinks);
  return large ? measureLargePlan(filepath) : record;
}

/** readPlanFile() of a large plan: its chunks counted as they are read, up to the size its fstat gave. */
async function measureLargePlan(filepath: string): Promise<PlanFileRecord | null> {
  const opened = await openRegularFile(filepath, planLinks);
  if (opened === null) return null;
  try {
    const counter = new TextStatsCounter();
    for await (const chunk of fileChunks(opened.handle, opened.stats.size)) counter.feed(chunk);
    const { lineCount, wordCount, heading } = counter.finish();
    return recordOf(filepath, opened.stats, titleFrom(heading, path.basename(filepath)), lineCount, wordCount, null);
  } catch {
    return null;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

/** Just the facts of a record (what the plan cache stores), whatever else the object holds. */
export function planFacts(r: PlanFacts): PlanFacts {
  const facts: Record<string, unknown> = {};
  for (const key of FACT_KEYS) facts[key] = r[key];
  return facts as PlanFacts;
}

/** A plan's list entry but its session link, in PlanMetadata's order. */
export function listedFields(r: PlanFacts): ListedFields {
  const fields: Record<string, unknown> = {};
  for (const key of LISTED_KEYS) fields[key] = r[key];
  return fields as ListedFields;
}

/** Whether two records hold the same facts. */
export function sameFacts(a: PlanFacts, b: PlanFacts): boolean {
  for (const key of FACT_KEYS) if (a[key] !== b[key]) return false;
  return true;
}

/** Persisted facts as read back: only the declared facts, each of its kind; null for anything else. */
export function readPlanFacts(value: unknown): PlanFacts | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  for (const key of FACT_KEYS) {
    const fact = v[key];
    const ok = FACT_KINDS[key] === 'string' ? typeof fact === 'string' : typeof fact === 'number' && Number.isFinite(fact) && fact >= 0;
    if (!ok) return null;
  }
  return planFacts(v as unknown as PlanFacts);
}

/** A record known from an earlier run: its text is read when search first needs it. */
export function recordFromFacts(f: PlanFacts): PlanFileRecord {
  // Completed in place rather than spread into a new object: spreading a built-up object is several
  // times slower, and a warm start restores thousands of these before its first answer.
  const record = planFacts(f) as PlanFileRecord;
  record.bytes = null;
  record.folded = null;
  record.bloom = null;
  return record;
}

/**
 * The folded text of a plan that is not large (see isLargePlan), reading the file when it was never read
 * in this run (a record restored from the cache). A file that cannot be read any more searches as empty
 * until its watcher reports it.
 */
export function foldedText(record: PlanFileRecord): Buffer {
  if (record.folded === null) foldRecord(record);
  return record.folded!;
}

/** Folds the plan's text into `record.folded` (see foldedText()); returns it as a string as well. */
export function foldRecord(record: PlanFileRecord): string {
  const bytes = record.bytes ?? readRegularFileSync(record.filepath, planLinks)?.bytes;
  const text = foldCase(bytes?.toString('utf8') ?? '');
  record.folded = Buffer.from(text, 'utf8');
  record.bytes = null;
  return text;
}

// One plan file on disk -> the metadata the service lists, plus (later) its folded text for search.
import path from 'node:path';
import { createdTime, readRegularFileSync } from '../files.js';
import type { ScratchBuffer } from '../scratchBuffer.js';
import { foldCase } from '../fold.js';
import { countLinesInBytes, planTitleFromBytes } from '../markdown/text.js';
import { countWords } from '../markdown/wordCount.js';
import type { TrigramBloom } from '../search/trigramBloom.js';

/** What the listing needs of a plan; small, and persisted between runs (planCache.ts). */
export interface PlanFacts {
  filename: string;
  filepath: string;
  title: string;
  size: number;
  modifiedMs: number;
  ino: number;
  modified: string;
  created: string;
  lineCount: number;
  wordCount: number;
}

export interface PlanFileRecord extends PlanFacts {
  /**
   * The bytes of a plan read on its own (a watcher's update), until they are decoded and folded for
   * search (see PlanStore.scheduleFilters()). Plans read in a batch (at start, a rescan) are measured in
   * a scratch buffer and keep none: search preparation, after the first answers, reads them again.
   */
  bytes: Buffer | null;
  /** Case-folded content, kept so a content search never touches the disk; null until prepared. */
  folded: string | null;
  /** Trigram filter of `folded`: most documents are ruled out without scanning their text. */
  bloom: TrigramBloom | null;
}

/** Only regular `*.md` files directly in a plans folder; never dotfiles or in-flight `*.tmp.*` writes. */
export function isPlanFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.') && !name.includes('.tmp.') && name.length > 3;
}

/**
 * Reads and measures one plan; null when it vanished, is not a regular file or cannot be read. Batches
 * of reads pass a scratch buffer to read into: their records keep no bytes (see `bytes`).
 */
export function readPlanFile(filepath: string, scratch?: ScratchBuffer): PlanFileRecord | null {
  const file = readRegularFileSync(filepath, scratch);
  if (!file) return null;
  const filename = path.basename(filepath);
  return {
    filename,
    filepath,
    title: planTitleFromBytes(file.bytes, filename),
    size: file.stats.size,
    modifiedMs: file.stats.mtimeMs,
    ino: file.stats.ino,
    modified: file.stats.mtime.toISOString(),
    created: createdTime(file.stats).toISOString(),
    lineCount: countLinesInBytes(file.bytes),
    wordCount: countWords(file.bytes),
    bytes: scratch ? null : file.bytes,
    folded: null,
    bloom: null,
  };
}

/** Just the listing facts of a record (what the plan cache stores), whatever else the object holds. */
export function planFacts(r: PlanFacts): PlanFacts {
  return {
    filename: r.filename, filepath: r.filepath, title: r.title, size: r.size, modifiedMs: r.modifiedMs, ino: r.ino,
    modified: r.modified, created: r.created, lineCount: r.lineCount, wordCount: r.wordCount,
  };
}

/** A record known from an earlier run: its text is read when search first needs it. */
export function recordFromFacts(f: PlanFacts): PlanFileRecord {
  return {
    filename: f.filename, filepath: f.filepath, title: f.title, size: f.size, modifiedMs: f.modifiedMs, ino: f.ino,
    modified: f.modified, created: f.created, lineCount: f.lineCount, wordCount: f.wordCount,
    bytes: null, folded: null, bloom: null,
  };
}

/**
 * The folded text of a plan, reading the file when it was never read in this run (a record restored
 * from the cache). A file that cannot be read any more searches as empty until its watcher reports it.
 */
export function foldedText(record: PlanFileRecord): string {
  if (record.folded === null) {
    const bytes = record.bytes ?? readRegularFileSync(record.filepath)?.bytes;
    record.folded = foldCase(bytes?.toString('utf8') ?? '');
    record.bytes = null;
  }
  return record.folded;
}

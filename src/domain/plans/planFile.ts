// One plan file on disk -> the metadata the service lists, plus its folded text for search.
import path from 'node:path';
import { createdTime, readRegularFile } from '../files.js';
import { foldCase } from '../fold.js';
import { countLines, countWords, planTitle } from '../markdown/text.js';
import type { TrigramBloom } from '../search/trigramBloom.js';

export interface PlanFileRecord {
  filename: string;
  filepath: string;
  title: string;
  size: number;
  modifiedMs: number;
  modified: string;
  created: string;
  lineCount: number;
  wordCount: number;
  /** Case-folded content, kept so a content search never touches the disk. */
  folded: string;
  /**
   * Trigram filter of `folded`: most documents are ruled out without scanning their text. Built after
   * start-up (null until then, and such a plan is simply scanned), so it never delays the first answer.
   */
  bloom: TrigramBloom | null;
}

/** Only regular `*.md` files directly in a plans folder; never dotfiles or in-flight `*.tmp.*` writes. */
export function isPlanFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.') && !name.includes('.tmp.') && name.length > 3;
}

/** Reads and measures one plan; null when it vanished, is not a regular file or cannot be read. */
export async function readPlanFile(filepath: string): Promise<PlanFileRecord | null> {
  const file = await readRegularFile(filepath);
  if (!file) return null;
  const filename = path.basename(filepath);
  const folded = foldCase(file.text);
  return {
    filename,
    filepath,
    title: planTitle(file.text, filename),
    size: file.stats.size,
    modifiedMs: file.stats.mtimeMs,
    modified: file.stats.mtime.toISOString(),
    created: createdTime(file.stats).toISOString(),
    lineCount: countLines(file.text),
    wordCount: countWords(file.text),
    folded,
    bloom: null,
  };
}

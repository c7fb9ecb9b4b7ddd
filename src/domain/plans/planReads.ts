// Reading plan folders and files for the plan store: listing, the stat that decides whether a known
// record still describes its file, and reading in time slices.
import { readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { statOrNull } from '../files.js';
import { foldCase } from '../fold.js';
import { ScratchBuffer } from '../scratchBuffer.js';
import { TimeSlicer } from '../timeSlicer.js';
import { followLink } from '../linkPolicy.js';
import { isPlanFileName, readPlanFile, type PlanFileRecord } from './planFile.js';

/** Hears of a symlink that is not listed, and why (see linkPolicy.ts). */
export type RefusedLink = (linkPath: string, reason: string) => void;

/**
 * Plan file paths directly inside a folder (absolute, normalized); a missing or unreadable folder has none.
 * A symlink is listed only when it leads to a `.md` file in the same folder; `refused` hears of the others.
 */
export function listPlanPaths(folder: string, refused?: RefusedLink): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  // The folder is a normalized absolute path and a listed name has no separator, so this is path.join()
  // without its normalization (~10 ms for 3,000 plans at start).
  const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
  const paths: string[] = [];
  for (const e of entries) {
    if (!isPlanFileName(e.name)) continue;
    if (e.isFile()) {
      paths.push(prefix + e.name);
    } else if (e.isSymbolicLink()) {
      const followed = followLink(prefix + e.name, folder, 'file');
      if ('real' in followed) paths.push(prefix + e.name);
      else refused?.(prefix + e.name, followed.refused);
    }
  }
  return paths;
}

/** Whether a record still describes the file: a plan only changes by a write, which moves one of these. */
function unmoved(record: PlanFileRecord, stats: Stats | null): boolean {
  return stats !== null && stats.isFile() && stats.mtimeMs === record.modifiedMs && stats.size === record.size &&
    stats.ino === record.ino;
}

/**
 * The restored records of `paths` when every path has one and no file moved since (one stat each), else
 * null: at start, when this holds, reading and comparing like readAll() would change nothing.
 */
export function restoredRecords(
  paths: readonly string[],
  restored: ReadonlyMap<string, PlanFileRecord>,
): PlanFileRecord[] | null {
  const records: PlanFileRecord[] = [];
  for (const filepath of paths) {
    const record = restored.get(filepath);
    if (record === undefined || !unmoved(record, statOrNull(filepath))) return null;
    records.push(record);
  }
  return records;
}

/** Large plans measured at once by readAll(). */
const LARGE_AT_ONCE = 4;

/**
 * Brings each path up to date: a known record whose file did not move is kept (one stat), anything else
 * is read (null: gone or unreadable). Synchronous reads, in time slices between which requests are
 * answered: a plan is a few KB, and an await per file cost more than reading it.
 */
export async function readAll(
  paths: readonly string[],
  known: (filepath: string) => PlanFileRecord | undefined,
): Promise<Map<string, PlanFileRecord | null>> {
  const slicer = new TimeSlicer();
  const scratch = new ScratchBuffer();
  const out = new Map<string, PlanFileRecord | null>();
  // Large plans are measured while the loop goes on: awaiting each of their chunk reads in turn left this
  // thread idle between them (docs/decisions.md, D42).
  const large: Promise<void>[] = [];
  for (const filepath of paths) {
    await slicer.maybeYield();
    const previous = known(filepath);
    if (previous && unmoved(previous, statOrNull(filepath))) {
      out.set(filepath, previous);
      continue;
    }
    const read = readPlanFile(filepath, scratch);
    if (!(read instanceof Promise)) {
      out.set(filepath, read);
      continue;
    }
    out.set(filepath, null); // Its place in the order; the measured record replaces it.
    large.push(read.then((record) => void out.set(filepath, record), () => undefined));
    // A few at a time: each holds a file open, and a hostile home can have thousands of them.
    if (large.length >= LARGE_AT_ONCE) await large.shift();
  }
  await Promise.all(large);
  return out;
}

/** Whether two reads of a plan hold the same text, as far as what is still kept of the older one tells. */
export function sameText(previous: PlanFileRecord, next: PlanFileRecord): boolean {
  const bytes = next.bytes ?? Buffer.alloc(0);
  if (previous.bytes !== null) return previous.bytes.equals(bytes);
  if (previous.folded !== null) return previous.folded.equals(Buffer.from(foldCase(bytes.toString('utf8')), 'utf8'));
  return false;
}

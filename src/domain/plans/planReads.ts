// Reading plan folders and files for the plan store: listing, the stat that decides whether a known
// record still describes its file, and reading in time slices.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { statFacts, statOrNull, type StatFacts } from '../files.js';
import { foldCase } from '../fold.js';
import { TimeSlicer } from '../timeSlicer.js';
import { isPlanFileName, readPlanFile, type PlanFileRecord } from './planFile.js';

/** Plan file paths directly inside a folder; a missing or unreadable folder has none. */
export function listPlanPaths(folder: string): string[] {
  try {
    const entries = readdirSync(folder, { withFileTypes: true });
    // Symlinks are kept here and judged by readPlanFile's fstat: a link to a regular file is a plan.
    return entries
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && isPlanFileName(e.name))
      .map((e) => path.join(folder, e.name));
  } catch {
    return [];
  }
}


/** The plan paths of a folder with their stat (null: gone meanwhile), as the start-up sweep takes them. */
export function statPlanFolder(folder: string): [string, StatFacts | null][] {
  return listPlanPaths(folder).map((file) => {
    const stats = statOrNull(file);
    return [file, stats && statFacts(stats)];
  });
}

/** Plan folders listed and stat'ed elsewhere (the start-up sweep): what it did not cover is undefined. */
export class PlanSweep {
  private readonly listings: Map<string, string[]>;
  private readonly stats = new Map<string, StatFacts | null>();

  constructor(folders: readonly (readonly [string, readonly (readonly [string, StatFacts | null])[]])[]) {
    this.listings = new Map(folders.map(([folder, entries]) => [folder, entries.map(([file]) => file)]));
    for (const [, entries] of folders) for (const [file, stats] of entries) this.stats.set(file, stats);
  }

  list(folder: string): string[] | undefined {
    return this.listings.get(folder);
  }

  readonly statOf = (file: string): StatFacts | null | undefined => this.stats.get(file);
}

/** Whether a record still describes the file: a plan only changes by a write, which moves one of these. */
function unmoved(record: PlanFileRecord, stats: StatFacts | null): boolean {
  return stats !== null && stats.regular && stats.mtimeMs === record.modifiedMs && stats.size === record.size &&
    stats.ino === record.ino;
}

/**
 * Brings each path up to date: a known record whose file did not move is kept (one stat, or the one
 * `statOf` already has), anything else is read (null: gone or unreadable). Synchronous reads, in time
 * slices between which requests are answered: a plan is a few KB, and an await per file cost more
 * than reading it.
 */
export async function readAll(
  paths: readonly string[],
  known: (filepath: string) => PlanFileRecord | undefined,
  statOf: (filepath: string) => StatFacts | null | undefined = () => undefined,
): Promise<Map<string, PlanFileRecord | null>> {
  const slicer = new TimeSlicer();
  const out = new Map<string, PlanFileRecord | null>();
  for (const filepath of paths) {
    await slicer.maybeYield();
    const previous = known(filepath);
    const keep = previous !== undefined && unmoved(previous, statOf(filepath) ?? ownStat(filepath));
    out.set(filepath, keep ? previous : readPlanFile(filepath));
  }
  return out;
}

function ownStat(filepath: string): StatFacts | null {
  const stats = statOrNull(filepath);
  return stats && statFacts(stats);
}

/** Whether two reads of a plan hold the same text, as far as what is still kept of the older one tells. */
export function sameText(previous: PlanFileRecord, next: PlanFileRecord): boolean {
  const bytes = next.bytes ?? Buffer.alloc(0);
  if (previous.bytes !== null) return previous.bytes.equals(bytes);
  if (previous.folded !== null) return previous.folded === foldCase(bytes.toString('utf8'));
  return false;
}

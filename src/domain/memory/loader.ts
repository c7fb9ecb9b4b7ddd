// One full read of every memory source: the listing GET /api/memory returns, plus what content and
// search need, so neither has to walk the directories again.
import { stat } from 'node:fs/promises';
import { foldCase } from '../fold.js';
import { type Logger, type MemoryEntry, type MemoryListing, type MemorySource, silentLogger } from '../types.js';
import { buildSource } from './entries.js';
import { refusedRealPath, rootPolicy } from './roots.js';
import { scanMemoryDir } from './scan.js';
import { type MemoryProjectInfo, compareNames, planSources } from './sources.js';

export type { MemoryProjectInfo } from './sources.js';

export interface MemoryOptions {
  claudeDir: string;
  homeDir: string;
  projects: MemoryProjectInfo[];
  logger?: Logger;
}

export interface LoadedMemory {
  listing: MemoryListing;
  /** Ids of entries whose raw text contains `q` case-insensitively, in listing order; [] for empty q. */
  search(q: string): string[];
  /** The filepath of a listed entry, or null for any other id. */
  filepathOf(id: string): string | null;
}

export async function loadMemory(o: MemoryOptions): Promise<LoadedMemory> {
  const logger = o.logger ?? silentLogger;
  const policy = await rootPolicy(o.homeDir, o.claudeDir);
  const planned = await planSources(o.claudeDir, o.homeDir, o.projects, policy, logger);
  const check = (real: string): string | null => refusedRealPath(real, policy);
  planned.sort((a, b) => compareNames(a.project, b.project) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const sources: MemorySource[] = [];
  const entries: MemoryEntry[] = [];
  const folded: string[] = [];
  for (const plan of planned) {
    let built;
    try {
      const files = await scanMemoryDir(plan.dir, logger, check);
      // The directory vanished between planning and scanning: it is simply not there any more.
      if (files === null) continue;
      built = buildSource(plan.id, files);
    } catch (error) {
      // Nothing above should throw; if it does, one source is lost rather than the whole listing.
      logger.warn(`memory dir ${plan.dir} skipped: ${String(error)}`);
      continue;
    }
    const modifiedMs = built.latestMtimeMs ?? (await dirMtime(plan.dir));
    sources.push({
      id: plan.id,
      kind: plan.kind,
      project: plan.project,
      cwd: plan.cwd,
      dir: plan.dir,
      active: plan.active,
      index: built.index,
      orphans: built.orphans,
      entryCount: built.entryCount,
      modified: new Date(modifiedMs).toISOString(),
    });
    entries.push(...built.entries);
    folded.push(...built.folded);
  }

  const filepaths = new Map(entries.map((e) => [e.id, e.filepath]));
  return {
    listing: { sources, entries },
    search(q: string): string[] {
      const needle = foldCase(q);
      if (needle === '') return [];
      const ids: string[] = [];
      folded.forEach((text, i) => {
        if (text.includes(needle)) ids.push(entries[i]!.id);
      });
      return ids;
    },
    filepathOf(id: string): string | null {
      return filepaths.get(id) ?? null;
    },
  };
}

async function dirMtime(dir: string): Promise<number> {
  try {
    return (await stat(dir)).mtimeMs;
  } catch {
    return 0;
  }
}

// One full read of every memory source: the listing GET /api/memory returns, plus what content and
// search need, so neither has to walk the directories again. A load reuses what the previous one built
// for every source whose files are unchanged, and the previous listing itself when nothing changed.
import { statSync } from 'node:fs';
import { foldCase } from '../fold.js';
import { type Logger, type MemoryEntry, type MemoryListing, type MemorySource, silentLogger } from '../types.js';
import { type BuiltSource, buildSource } from './entries.js';
import { rootPolicy } from './roots.js';
import type { LinkResolver } from '../files.js';
import { largeFileContains } from '../largeFiles.js';
import { followLink } from '../linkPolicy.js';
import { type FileCacheView, noFileCache } from './parsedFile.js';
import { type ScannedFile, scanMemoryDir } from './scan.js';
import { TimeSlicer } from '../timeSlicer.js';
import { type MemoryProjectInfo, compareNames, planSources } from './sources.js';

export type { MemoryProjectInfo } from './sources.js';

export interface MemoryOptions {
  claudeDir: string;
  homeDir: string;
  projects: MemoryProjectInfo[];
  logger?: Logger;
  /** Parses kept from earlier loads; finish() is called once this load has read every source. */
  cache?: FileCacheView;
  /** The previous load, whose per-source builds (and listing) this one may reuse. */
  previous?: LoadedMemory | null;
}

interface SourceBuild {
  files: ScannedFile[];
  built: BuiltSource;
}

export interface LoadedMemory {
  listing: MemoryListing;
  /**
   * Ids of entries whose raw text contains `q` case-insensitively, in listing order; [] for empty q. A
   * file larger than PARSED_BYTES is read again, a chunk at a time (its text is not kept).
   */
  search(q: string): Promise<string[]>;
  /** Where a listed entry is read (a symlink only as its source's link policy allows), or null for any other id. */
  fileOf(id: string): { filepath: string; links: LinkResolver } | null;
  /** Each source's build, by id and dir, for the next load. */
  readonly builds: ReadonlyMap<string, SourceBuild>;
  /** Each listed source's scanned files (with their parses), by source id: what a health check reads. */
  readonly files: ReadonlyMap<string, readonly ScannedFile[]>;
}

export async function loadMemory(o: MemoryOptions): Promise<LoadedMemory> {
  const logger = o.logger ?? silentLogger;
  const cache = o.cache ?? noFileCache;
  const slicer = new TimeSlicer();
  const policy = rootPolicy(o.homeDir, o.claudeDir);
  const planned = await planSources(o.claudeDir, o.homeDir, o.projects, policy, logger, slicer);
  planned.sort((a, b) => compareNames(a.project, b.project) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const sources: MemorySource[] = [];
  const entries: MemoryEntry[] = [];
  const folded: (string | null)[] = [];
  const builds = new Map<string, SourceBuild>();
  const filesById = new Map<string, readonly ScannedFile[]>();
  let allReused = true;
  for (const plan of planned) {
    let built;
    try {
      const files = await scanMemoryDir(plan.dir, logger, { cache, slicer });
      // The directory vanished between planning and scanning: it is simply not there any more.
      if (files === null) continue;
      const key = `${plan.id}\0${plan.dir}`;
      const before = o.previous?.builds.get(key);
      // Entries depend only on the source id and its files' parses, which the cache hands out as the
      // same objects while the files are unchanged.
      const reused = before !== undefined && sameFiles(before.files, files);
      built = reused ? before.built : buildSource(plan.id, files);
      allReused &&= reused;
      builds.set(key, { files, built });
      filesById.set(plan.id, files);
    } catch (error) {
      // Nothing above should throw; if it does, one source is lost rather than the whole listing.
      logger.warn(`memory dir ${plan.dir} skipped: ${String(error)}`);
      continue;
    }
    const modifiedMs = built.latestMtimeMs ?? dirMtime(plan.dir);
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
  cache.finish();
  // Nothing changed: the same listing object, which callers may already have serialized.
  if (o.previous && allReused && sameSources(o.previous.listing.sources, sources)) return o.previous;

  const roots = new Map(sources.map((s) => [s.id, s.dir]));
  const filepaths = new Map(entries.map((e) => [e.id, e.filepath]));
  const fileOf = (id: string): { filepath: string; links: LinkResolver } | null => {
    const filepath = filepaths.get(id);
    const root = roots.get(id.slice(0, id.indexOf('/')));
    if (filepath === undefined || root === undefined) return null;
    return { filepath, links: (link) => {
      const followed = followLink(link, root, 'file');
      return 'real' in followed ? followed.real : null;
    } };
  };
  return {
    listing: { sources, entries },
    async search(q: string): Promise<string[]> {
      const needle = foldCase(q);
      if (needle === '') return [];
      const ids: string[] = [];
      for (let i = 0; i < entries.length; i++) {
        const text = folded[i];
        const id = entries[i]!.id;
        if (typeof text === 'string') {
          if (text.includes(needle)) ids.push(id);
          continue;
        }
        // A large file keeps no text: it is read again, a chunk at a time.
        const file = fileOf(id);
        if (file !== null && (await largeFileContains(file.filepath, file.links, needle))) ids.push(id);
      }
      return ids;
    },
    fileOf,
    builds,
    files: filesById,
  };
}

function sameFiles(a: ScannedFile[], b: ScannedFile[]): boolean {
  return a.length === b.length &&
    a.every((f, i) => f.parsed === b[i]!.parsed && f.filename === b[i]!.filename && f.filepath === b[i]!.filepath);
}

/** Field by field; `index` and `orphans` by identity, as they come from reused builds. */
function sameSources(a: MemorySource[], b: MemorySource[]): boolean {
  return a.length === b.length && a.every((s, i) => {
    const t = b[i]!;
    return s.id === t.id && s.kind === t.kind && s.project === t.project && s.cwd === t.cwd && s.dir === t.dir &&
      s.active === t.active && s.index === t.index && s.orphans === t.orphans && s.entryCount === t.entryCount &&
      s.modified === t.modified;
  });
}

function dirMtime(dir: string): number {
  try {
    return statSync(dir).mtimeMs;
  } catch {
    return 0;
  }
}

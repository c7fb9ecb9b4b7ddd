// The plan listing facts persisted between runs: a restart stats each plan instead of reading and
// measuring it (titles, line and word counts). Entries are only hints: PlanStore keeps one only while
// its file has the same size, mtime and inode, so a stale or edited cache costs reads, never wrong data.
import { CacheFile, CORRUPT, MISSING } from '../cacheFile.js';
import type { Logger } from '../types.js';
import { planFacts, type PlanFacts } from './planFile.js';

const FORMAT = 'plan-memory-viewer/plans';
const VERSION = 1;
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

const STRING_FIELDS = ['filename', 'filepath', 'title', 'modified', 'created'] as const;
const NUMBER_FIELDS = ['size', 'modifiedMs', 'ino', 'lineCount', 'wordCount'] as const;

function isPlanFacts(value: unknown): value is PlanFacts {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return STRING_FIELDS.every((k) => typeof v[k] === 'string') &&
    NUMBER_FIELDS.every((k) => typeof v[k] === 'number' && Number.isFinite(v[k]) && (v[k] as number) >= 0);
}

export class PlanCache {
  private readonly cache: CacheFile;

  constructor(cacheDir: string, claudeDir: string, private readonly logger?: Logger) {
    this.cache = new CacheFile(cacheDir, 'plans', claudeDir, MAX_CACHE_BYTES);
  }

  /** The facts of the last run; [] when there are none or the file is not one of ours. */
  load(): PlanFacts[] {
    const data = this.cache.read();
    if (data === MISSING) return [];
    const doc = data === CORRUPT ? null : (data as { format?: unknown; version?: unknown; plans?: unknown } | null);
    if (doc?.format !== FORMAT || doc.version !== VERSION || !Array.isArray(doc.plans)) {
      this.logger?.warn(`ignoring the plan cache ${this.cache.file}: not a valid cache; rebuilding it`);
      return [];
    }
    // Only the entries' own fields are kept: nothing else from the file reaches the listing.
    return doc.plans.filter(isPlanFacts).map(planFacts);
  }

  async save(plans: PlanFacts[]): Promise<void> {
    const result = await this.cache.write({ format: FORMAT, version: VERSION, plans });
    if (result !== true) this.logger?.warn(`could not save the plan cache: ${result}`);
  }
}

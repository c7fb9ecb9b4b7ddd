// The plan listing facts persisted between runs: a restart stats each plan instead of reading and
// measuring it (titles, line and word counts). Entries are only hints: PlanStore keeps one only while
// its file has the same size, mtime and inode, so a stale or edited cache costs reads, never wrong data.
import { CacheFile, CORRUPT, MISSING } from '../cacheFile.js';
import type { Logger } from '../types.js';
import { readPlanFacts, sameFacts, type PlanFacts } from './planFile.js';
import { readSavedList, type SavedList } from './savedList.js';

const FORMAT = 'plan-memory-viewer/plans';
const VERSION = 1;
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** Whether two lists hold the same facts in the same order. */
function sameFactLists(a: readonly PlanFacts[], b: readonly PlanFacts[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameFacts(a[i]!, b[i]!)) return false;
  return true;
}

/** What the file holds: the facts of every plan and, when it was built, the list made from them. */
export interface SavedPlans {
  facts: PlanFacts[];
  list: SavedList | null;
}

/** The list's bytes are in a file of their own, next to the cache's JSON. */
const LIST_FILE = 'list.json';

function sameList(a: SavedList | null, b: SavedList | null): boolean {
  return a === b || (a !== null && b !== null && a.digest === b.digest && a.viewStamp === b.viewStamp &&
    a.links.length === b.links.length && a.links.every((x, i) => x === b.links[i]));
}

export class PlanCache {
  private readonly cache: CacheFile;
  /** What the file holds (as loaded or last written): saving the same again is skipped. */
  private inFile: SavedPlans | null = null;

  constructor(cacheDir: string, claudeDir: string, private readonly logger?: Logger) {
    this.cache = new CacheFile(cacheDir, 'plans', claudeDir, MAX_CACHE_BYTES);
  }

  /** What the last run saved; no plans when there is nothing or the file is not one of ours. */
  load(): SavedPlans {
    const data = this.cache.read();
    if (data === MISSING) return { facts: [], list: null };
    const doc = data === CORRUPT ? null : (data as { format?: unknown; version?: unknown; plans?: unknown; list?: unknown } | null);
    if (doc?.format !== FORMAT || doc.version !== VERSION || !Array.isArray(doc.plans)) {
      this.logger?.warn(`ignoring the plan cache ${this.cache.file}: not a valid cache; rebuilding it`);
      return { facts: [], list: null };
    }
    const facts: PlanFacts[] = [];
    for (let i = 0; i < doc.plans.length; i++) {
      const entry = readPlanFacts(doc.plans[i]);
      if (entry !== null) facts.push(entry);
    }
    // A list is only good with all the facts it was made from (written before lists were saved: none).
    const list = facts.length === doc.plans.length && doc.list !== undefined
      ? readSavedList(doc.list, this.cache.readBytes(LIST_FILE)) : null;
    // Entries dropped as invalid are not in the file's content as far as a later save is concerned.
    const saved = { facts, list };
    if (facts.length === doc.plans.length) this.inFile = saved;
    return saved;
  }

  /** Writes the plans, unless the file holds exactly these already (a restart that found nothing changed). */
  async save(saved: SavedPlans): Promise<void> {
    if (this.inFile !== null && sameFactLists(this.inFile.facts, saved.facts) && sameList(this.inFile.list, saved.list)) return;
    const { list } = saved;
    // The list's bytes first: the cache names them by digest, so a crash between the two writes leaves a
    // list that its cache file does not vouch for, which a restart ignores.
    let result: true | string = true;
    if (list !== null && list.digest !== this.inFile?.list?.digest) result = await this.cache.writeBytes(LIST_FILE, list.json);
    if (list === null && this.inFile?.list) await this.cache.removeBytes(LIST_FILE);
    if (result === true) {
      const doc = {
        format: FORMAT, version: VERSION, plans: saved.facts,
        ...(list ? { list: { digest: list.digest, links: list.links, viewStamp: list.viewStamp } } : {}),
      };
      result = await this.cache.write(doc);
    }
    if (result !== true) this.logger?.warn(`could not save the plan cache: ${result}`);
    else this.inFile = saved;
  }
}

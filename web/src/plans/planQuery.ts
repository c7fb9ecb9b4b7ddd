// The plans list as shown: project filter, the instant client match on title / file name / project,
// the content hits of GET /api/search and the results of GET /api/find merged in, and the sort (by a column, or by find's rank: "Best
// match"). Pure and fast on 10,000 plans (haystacks are folded once per listing, not per keystroke, and
// only once a query is typed: the first screen does not need them).
import type { PlanMetadata } from '../api/types';
import { orderByRank, type Found } from '../find/boxFind';
import { foldCase } from '../search/fold';
import type { SortDir, SortKey } from '../state/url';

export const NO_PROJECT = '';

export interface PlanRow {
  plan: PlanMetadata;
  /** Matched on title, file name or project. */
  byMeta: boolean;
  /** Reported by the content search. */
  byContent: boolean;
}

export interface PlanSelection {
  rows: PlanRow[];
  /** Plans left after the project filter, before the search. */
  inScope: number;
  metaHits: number;
  contentHits: number;
}

function buildHaystacks(plans: readonly PlanMetadata[]): string[] {
  return plans.map((p) => foldCase(`${p.title}\u0000${p.filename}\u0000${p.project ?? ''}`));
}

const haystackCache = new WeakMap<readonly PlanMetadata[], string[]>();

/** buildHaystacks(plans), built on first use and kept while that listing is. */
export function haystacksOf(plans: readonly PlanMetadata[]): string[] {
  let h = haystackCache.get(plans);
  if (!h) {
    h = buildHaystacks(plans);
    haystackCache.set(plans, h);
  }
  return h;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

function compareStrings(a: string, b: string): number {
  return collator.compare(a, b);
}

// Date.parse once per plan object, not once per comparison (10,000 plans sort in a few ms).
const times = new WeakMap<PlanMetadata, { modified: number; created: number }>();
function timeOf(plan: PlanMetadata): { modified: number; created: number } {
  let t = times.get(plan);
  if (!t) {
    t = { modified: Date.parse(plan.modified) || 0, created: Date.parse(plan.created) || 0 };
    times.set(plan, t);
  }
  return t;
}

/**
 * The order the list is in: "Best match" (the default) orders by find's rank while a query is typed, and
 * without one the list is the newest first, as it always was.
 */
export function shownSort(sort: SortKey, dir: SortDir, query: string): { sort: SortKey; dir: SortDir } {
  return sort === 'best' && query.trim() === '' ? { sort: 'modified', dir: 'desc' } : { sort, dir };
}

export function comparePlans(sort: SortKey, dir: SortDir): (a: PlanMetadata, b: PlanMetadata) => number {
  const sign = dir === 'asc' ? 1 : -1;
  const primary = (a: PlanMetadata, b: PlanMetadata): number => {
    switch (sort) {
      case 'best':
        // Rank is applied after (selectPlans); before it, the tie-break's order: the newest first.
        return 0;
      case 'title':
        return compareStrings(a.title || a.filename, b.title || b.filename);
      case 'project':
        // Plans without a project go last in either direction.
        if (!a.project || !b.project) return a.project === b.project ? 0 : a.project ? -sign : sign;
        return compareStrings(a.project, b.project);
      case 'modified':
        return timeOf(a).modified - timeOf(b).modified;
      case 'created':
        return timeOf(a).created - timeOf(b).created;
      case 'size':
        return a.size - b.size;
      case 'lines':
        return a.lineCount - b.lineCount;
    }
  };
  return (a, b) => {
    const c = primary(a, b) * sign;
    if (c !== 0 && !Number.isNaN(c)) return c;
    // Stable, deterministic tie-break: newest first, then file name.
    return timeOf(b).modified - timeOf(a).modified || compareStrings(a.filename, b.filename);
  };
}

export function selectPlans(args: {
  plans: PlanMetadata[];
  query: string;
  /** File names from the content search, or null while none is known for this query. */
  contentHits: ReadonlySet<string> | null;
  projects: readonly string[];
  sort: SortKey;
  dir: SortDir;
  /** Find's results for the query (rank and snippets by file name), or null while none are known. */
  found?: ReadonlyMap<string, Found> | null;
}): PlanSelection {
  const { plans, contentHits } = args;
  const q = foldCase(args.query.trim());
  const haystacks = q ? haystacksOf(plans) : [];
  const projectFilter = args.projects.length ? new Set(args.projects) : null;
  const rows: PlanRow[] = [];
  let inScope = 0;
  let metaHits = 0;
  let contentCount = 0;
  for (let i = 0; i < plans.length; i += 1) {
    const plan = plans[i]!;
    if (projectFilter && !projectFilter.has(plan.project ?? NO_PROJECT)) continue;
    inScope += 1;
    if (!q) {
      rows.push({ plan, byMeta: false, byContent: false });
      continue;
    }
    const byMeta = (haystacks[i] ?? '').includes(q);
    // The literal search's hits, and the ranked search's: every word in any order, the last a prefix, a typo forgiven.
    const byContent = (contentHits?.has(plan.filename) ?? false) || (args.found?.has(plan.filename) ?? false);
    if (!byMeta && !byContent) continue;
    if (byMeta) metaHits += 1;
    if (byContent) contentCount += 1;
    rows.push({ plan, byMeta, byContent });
  }
  const { sort, dir } = shownSort(args.sort, args.dir, q);
  const compare = comparePlans(sort, dir);
  rows.sort((a, b) => compare(a.plan, b.plan));
  const shown = sort === 'best' ? orderByRank(rows, (r) => r.plan.filename, args.found ?? null) : rows;
  return { rows: shown, inScope, metaHits, contentHits: contentCount };
}

/** Number of plans per project ('' for none), sorted by name with "no project" last. */
export function projectCounts(plans: PlanMetadata[]): { project: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const p of plans) counts.set(p.project ?? NO_PROJECT, (counts.get(p.project ?? NO_PROJECT) ?? 0) + 1);
  return [...counts.entries()]
    .map(([project, count]) => ({ project, count }))
    .sort((a, b) => (a.project === NO_PROJECT ? 1 : b.project === NO_PROJECT ? -1 : compareStrings(a.project, b.project)));
}

// The memory list as shown: type chips, the instant client match on name / file name / description,
// the content hits of GET /api/memory/search and the results of GET /api/find merged in, and find's "Best
// match" order.
import type { MemoryEntry, MemorySource } from '../api/types';
import { orderByRank, type Found } from '../find/boxFind';
import { foldCase } from '../search/fold';

export type TypeKey = 'user' | 'feedback' | 'project' | 'reference' | 'none';
export const TYPE_KEYS: readonly TypeKey[] = ['user', 'feedback', 'project', 'reference', 'none'];

export function typeKey(entry: MemoryEntry): TypeKey {
  return entry.type ?? 'none';
}

export interface EntryHit {
  entry: MemoryEntry;
  byMeta: boolean;
  byContent: boolean;
}

export function entryHaystack(entry: MemoryEntry, source: MemorySource | undefined): string {
  return foldCase(`${entry.name}\u0000${entry.filename}\u0000${entry.description ?? ''}\u0000${source?.project ?? ''}`);
}

/** Entries passing the search (before type chips), with how they matched. */
export function searchEntries(
  entries: MemoryEntry[],
  haystacks: Map<string, string>,
  query: string,
  contentHits: ReadonlySet<string> | null,
  /** The ranked search's results for the query (every word in any order, a typo forgiven), when known. */
  found: ReadonlyMap<string, Found> | null = null,
): EntryHit[] {
  const q = foldCase(query.trim());
  if (!q) return entries.map((entry) => ({ entry, byMeta: false, byContent: false }));
  const hits: EntryHit[] = [];
  for (const entry of entries) {
    const byMeta = (haystacks.get(entry.id) ?? '').includes(q);
    const byContent = (contentHits?.has(entry.id) ?? false) || (found?.has(entry.id) ?? false);
    if (byMeta || byContent) hits.push({ entry, byMeta, byContent });
  }
  return hits;
}

export function typeCounts(hits: EntryHit[]): Record<TypeKey, number> {
  const counts: Record<TypeKey, number> = { user: 0, feedback: 0, project: 0, reference: 0, none: 0 };
  for (const h of hits) if (!h.entry.isIndex) counts[typeKey(h.entry)] += 1;
  return counts;
}

export function filterByTypes(hits: EntryHit[], types: readonly string[]): EntryHit[] {
  if (!types.length) return hits;
  const set = new Set(types);
  return hits.filter((h) => !h.entry.isIndex && set.has(typeKey(h.entry)));
}

/** Sources grouped by project name, in the order the service sends them (sorted by project). */
export function groupSources(sources: MemorySource[]): { project: string; sources: MemorySource[] }[] {
  const groups = new Map<string, MemorySource[]>();
  for (const s of sources) {
    const list = groups.get(s.project) ?? [];
    list.push(s);
    groups.set(s.project, list);
  }
  return [...groups.entries()].map(([project, list]) => ({
    project,
    // Active first, then by kind.
    sources: list.sort((a, b) => Number(b.active) - Number(a.active) || a.kind.localeCompare(b.kind)),
  }));
}

/** One collator for every comparison: localeCompare() with options builds one per call. */
const byName = new Intl.Collator(undefined, { sensitivity: 'base' });

/** Index first, then topics by name. */
export function orderEntries(entries: MemoryEntry[]): MemoryEntry[] {
  return [...entries].sort((a, b) => Number(b.isIndex) - Number(a.isIndex) || byName.compare(a.name, b.name));
}

type Group = { project: string; sources: MemorySource[] };

/**
 * "Best match": the entries of each source in find's order, the sources of a project by their best entry,
 * the projects likewise; what find did not rank keeps its usual place after what it did. Reorders only.
 */
export function rankGroups(
  groups: readonly Group[],
  visible: ReadonlyMap<string, EntryHit[]>,
  found: ReadonlyMap<string, Found>,
): { groups: Group[]; visible: Map<string, EntryHit[]> } {
  const ordered = new Map<string, EntryHit[]>();
  const best = new Map<string, Found>();
  for (const [sourceId, hits] of visible) {
    const list = orderByRank(hits, (h) => h.entry.id, found);
    ordered.set(sourceId, list);
    const top = list[0] ? found.get(list[0].entry.id) : undefined;
    if (top) best.set(sourceId, top);
  }
  const rankedGroups = groups.map((g) => {
    const sources = orderByRank(g.sources, (s) => s.id, best);
    const top = sources[0] ? best.get(sources[0].id) : undefined;
    return { group: { project: g.project, sources }, top };
  });
  const groupBest = new Map<string, Found>();
  for (const r of rankedGroups) if (r.top) groupBest.set(r.group.project, r.top);
  return { groups: orderByRank(rankedGroups.map((r) => r.group), (g) => g.project, groupBest), visible: ordered };
}

/** The project picker's words, folded; a source matches when its name, folder or kind holds every one. */
export function pickWords(pick: string): string[] {
  return foldCase(pick).split(/\s+/).filter((w) => w !== '');
}

export function matchesPick(source: MemorySource, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const hay = foldCase(`${source.project}\u0000${source.dir}\u0000${source.cwd ?? ''}\u0000${source.kind}`);
  return words.every((w) => hay.includes(w));
}

// Everything the memory view derives from GET /api/memory, the URL and the content search.
import { useMemo } from 'react';
import type { MemoryEntry, MemoryListing, MemorySource } from '../api/types';
import type { Found } from '../find/boxFind';
import type { UrlState } from '../state/url';
// The resolver straight from the shared module: './links' also parses frontmatter (the yaml package),
// which only the entry reader needs, and this model is part of the first screen.
import { LinkResolver } from '../../../src/domain/memory/linkResolver';
import type { EntryResolver } from './links';
import {
  entryHaystack, filterByTypes, groupSources, matchesPick, orderEntries, pickWords, rankGroups, searchEntries, typeCounts,
  type EntryHit, type TypeKey,
} from './memoryQuery';

export interface MemoryModel {
  sources: MemorySource[];
  entries: MemoryEntry[];
  sourceById: Map<string, MemorySource>;
  entryById: Map<string, MemoryEntry>;
  entriesBySource: Map<string, MemoryEntry[]>;
  resolverFor(sourceId: string): EntryResolver;
  /** The groups the project picker lets through (all of them when it is empty). */
  groups: { project: string; sources: MemorySource[] }[];
  /** The sources the project picker lets through, in listing order. */
  picked: MemorySource[];
  /** Search hits before the type chips (for the chip counts). */
  counts: Record<TypeKey, number>;
  /** Search hits before the type chips, MEMORY.md files included (the "all" chip). */
  matched: number;
  /** What the list shows, per source, in display order. */
  visible: Map<string, EntryHit[]>;
  /** The same, flattened in display order (keyboard navigation). */
  flat: MemoryEntry[];
  activeSource: MemorySource | null;
  activeEntry: MemoryEntry | null;
  searching: boolean;
  /** The list is in find's order ("Best match", while a query is typed). */
  ranked: boolean;
}

export function useMemoryModel(
  listing: MemoryListing | null,
  url: UrlState,
  contentHits: ReadonlySet<string> | null,
  /** Find's results for the query by entry id, or null while none are known. */
  found: ReadonlyMap<string, Found> | null = null,
): MemoryModel {
  const base = useMemo(() => {
    const sources = listing?.sources ?? [];
    const entries = listing?.entries ?? [];
    const sourceById = new Map(sources.map((s) => [s.id, s]));
    const entryById = new Map(entries.map((e) => [e.id, e]));
    const entriesBySource = new Map<string, MemoryEntry[]>();
    for (const e of entries) {
      const list = entriesBySource.get(e.sourceId) ?? [];
      list.push(e);
      entriesBySource.set(e.sourceId, list);
    }
    for (const [id, list] of entriesBySource) entriesBySource.set(id, orderEntries(list));
    const haystacks = new Map(entries.map((e) => [e.id, entryHaystack(e, sourceById.get(e.sourceId))]));
    const resolvers = new Map<string, EntryResolver>();
    const resolverFor = (sourceId: string) => {
      let r = resolvers.get(sourceId);
      if (!r) {
        r = new LinkResolver(entriesBySource.get(sourceId) ?? []);
        resolvers.set(sourceId, r);
      }
      return r;
    };
    return { sources, entries, sourceById, entryById, entriesBySource, haystacks, resolverFor, groups: groupSources(sources) };
  }, [listing]);

  const picked = useMemo(() => {
    const words = pickWords(url.pick);
    if (words.length === 0) return { sources: base.sources, groups: base.groups };
    const sources = base.sources.filter((s) => matchesPick(s, words));
    return { sources, groups: groupSources(sources) };
  }, [base, url.pick]);

  return useMemo(() => {
    const q = url.q.trim();
    const pickedIds = new Set(picked.sources.map((s) => s.id));
    // Counted over the sources the picker keeps, index files included in "all": the chips add up to the matches shown.
    const hits = searchEntries(base.entries, base.haystacks, q, contentHits, found).filter((h) => pickedIds.has(h.entry.sourceId));
    const counts = typeCounts(hits);
    const shown = filterByTypes(hits, url.types);
    const bySource = new Map<string, EntryHit[]>();
    for (const h of shown) {
      const list = bySource.get(h.entry.sourceId) ?? [];
      list.push(h);
      bySource.set(h.entry.sourceId, list);
    }
    const listed = url.entry ? base.entryById.get(url.entry) ?? null : null;
    const activeEntry = listed && pickedIds.has(listed.sourceId) ? listed : null;
    // The reader follows the project picker: a source it leaves out gives way to its first match.
    const inPick = (id: string | undefined | null) => (id && pickedIds.has(id) ? base.sourceById.get(id) : undefined);
    const activeSource = inPick(url.source) ?? inPick(activeEntry?.sourceId) ?? picked.groups[0]?.sources[0] ?? null;
    let visible = new Map<string, EntryHit[]>();
    for (const group of picked.groups) {
      for (const s of group.sources) {
        const order = base.entriesBySource.get(s.id) ?? [];
        const list = bySource.get(s.id) ?? [];
        const rank = new Map(order.map((e, i) => [e.id, i]));
        list.sort((a, b) => (rank.get(a.entry.id) ?? 0) - (rank.get(b.entry.id) ?? 0));
        visible.set(s.id, list);
      }
    }
    const ranked = q !== '' && url.memorySort === 'best';
    let groups = picked.groups;
    if (ranked && found !== null) ({ groups, visible } = rankGroups(groups, visible, found));
    const flat: MemoryEntry[] = [];
    for (const group of groups) {
      for (const s of group.sources) {
        // Without a search only the open source is expanded; with one, every source with hits.
        if (q || url.types.length || s.id === activeSource?.id) flat.push(...(visible.get(s.id) ?? []).map((h) => h.entry));
      }
    }
    return {
      ...base,
      ranked,
      groups,
      picked: picked.sources,
      counts,
      matched: hits.length,
      visible,
      flat,
      activeSource,
      activeEntry,
      searching: q !== '' || url.types.length > 0,
    };
  }, [base, picked, url.q, url.types, url.entry, url.source, url.memorySort, contentHits, found]);
}

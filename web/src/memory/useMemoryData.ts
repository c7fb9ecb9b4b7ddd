// Everything the memory view loads and derives: the listing, the search box's two searches (the server's
// literal search of the entries, and find's ranked snippets), the model of sources and entries, and the
// entry the reader shows with its content. The shell calls it whichever view is shown: the plans view
// counts the entries and links to sources, and a palette result or a link can open an entry from anywhere.
import { useCallback, useState } from 'react';
import { api } from '../api/client';
import type { MemoryEntry, MemoryListing } from '../api/types';
import { useBoxFind, type BoxFind } from '../find/useBoxFind';
import type { UrlState } from '../state/url';
import { useContent, useRemote, useServerSearch, type ContentState, type Remote } from '../state/useRemote';
import { useMemoryModel, type MemoryModel } from './useMemoryModel';

export interface MemoryData {
  remote: Remote<MemoryListing>;
  reload(): void;
  /** The server's search of the entries' text, for the box's query. */
  search: ReturnType<typeof useServerSearch>;
  /** Find's results for the box's query, by entry id (snippets, and the "Best match" order). */
  find: BoxFind;
  model: MemoryModel;
  /** The entry the reader shows (the selected one, else the source's MEMORY.md). */
  shownEntry: MemoryEntry | null;
  entryContent: ContentState;
  /** Reads the shown entry again (it may have changed on disk). */
  bumpContent(): void;
}

/** `plansShown`: the plans list is on screen (or failed), so the listing no longer competes with it. */
export function useMemoryData(url: UrlState, plansShown: boolean): MemoryData {
  // On the plans view the memory listing waits for the plans: its parsing and indexing would otherwise
  // compete with the first screen's (it fills only a count there).
  const [remote, reload] = useRemote(
    useCallback((signal: AbortSignal) => api.memory(signal), []),
    url.view === 'memory' || plansShown,
  );
  const [bump, setBump] = useState(0);
  const bumpContent = useCallback(() => setBump((b) => b + 1), []);

  const search = useServerSearch(url.view === 'memory' ? url.q : '', remote.version, (q, signal) => api.searchMemory(q, signal));
  const find = useBoxFind(url.view === 'memory' ? url.q : '', 'memory', remote.version);
  const memUrl = url.view === 'memory' ? url : { ...url, q: '', types: [] };
  const model = useMemoryModel(remote.data, memUrl, search.hits, find.found);
  // An entry named in the URL that the listing no longer has was deleted: the reader says so (MemoryView)
  // rather than showing the folder's MEMORY.md in its place.
  const entryGone = url.entry !== null && remote.data !== null && model.activeEntry === null;
  const shownEntry = entryGone
    ? null
    : model.activeEntry ?? (model.activeSource ? model.entriesBySource.get(model.activeSource.id)?.find((e) => e.isIndex) ?? null : null);
  const entryContent = useContent(url.view === 'memory' || url.entry ? shownEntry?.id ?? null : null, bump, (key, signal) =>
    api.memoryContent(key, signal),
  );

  return { remote, reload, search, find, model, shownEntry, entryContent, bumpContent };
}

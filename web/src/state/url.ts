// Everything that defines the screen lives in the query string, so a copied link or a reload shows
// the same screen. Defaults are left out to keep links short. Pure: parse and serialize only.

export type View = 'plans' | 'memory';
export type SortKey = 'title' | 'project' | 'modified' | 'created' | 'size' | 'lines';
export type SortDir = 'asc' | 'desc';
export type MemoryTab = 'entry' | 'graph' | 'health';

export interface UrlState {
  view: View;
  /** Open plan (file name). */
  plan: string | null;
  /** The one search box of the current view. */
  q: string;
  /** Project filter of the plans list; '' stands for plans without a project. */
  projects: string[];
  sort: SortKey;
  dir: SortDir;
  /** Memory: selected source id and entry id. */
  source: string | null;
  entry: string | null;
  /** Memory type filter; 'none' stands for entries without a type. */
  types: string[];
  tab: MemoryTab;
  /** Memory: the project picker's text (which sources the list and the health overview show). */
  pick: string;
  /** Reader fills the window. */
  full: boolean;
}

export const SORT_KEYS: readonly SortKey[] = ['title', 'project', 'modified', 'created', 'size', 'lines'];
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference', 'none'] as const;

export function defaultDir(sort: SortKey): SortDir {
  return sort === 'title' || sort === 'project' ? 'asc' : 'desc';
}

export const DEFAULT_STATE: UrlState = {
  view: 'plans',
  plan: null,
  q: '',
  projects: [],
  sort: 'modified',
  dir: 'desc',
  source: null,
  entry: null,
  types: [],
  tab: 'entry',
  pick: '',
  full: false,
};

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

export function parseUrlState(search: string): UrlState {
  const p = new URLSearchParams(search);
  const view: View = p.get('view') === 'memory' ? 'memory' : 'plans';
  const sortParam = p.get('sort');
  const sort: SortKey = SORT_KEYS.includes(sortParam as SortKey) ? (sortParam as SortKey) : DEFAULT_STATE.sort;
  const dirParam = p.get('dir');
  const dir: SortDir = dirParam === 'asc' || dirParam === 'desc' ? dirParam : defaultDir(sort);
  const types = unique(p.getAll('type').filter((t) => (MEMORY_TYPES as readonly string[]).includes(t)));
  return {
    view,
    plan: p.get('plan') || null,
    q: p.get('q') ?? '',
    projects: unique(p.getAll('project')),
    sort,
    dir,
    source: p.get('source') || null,
    entry: p.get('entry') || null,
    types,
    tab: p.get('tab') === 'graph' ? 'graph' : p.get('tab') === 'health' ? 'health' : 'entry',
    pick: p.get('pick') ?? '',
    full: p.get('full') === '1',
  };
}

/** The query string for a state ('' when everything is default), in a fixed parameter order. */
export function serializeUrlState(state: UrlState): string {
  const p = new URLSearchParams();
  if (state.view !== 'plans') p.set('view', state.view);
  if (state.plan) p.set('plan', state.plan);
  if (state.q) p.set('q', state.q);
  for (const project of unique(state.projects)) p.append('project', project);
  if (state.sort !== DEFAULT_STATE.sort || state.dir !== defaultDir(state.sort)) {
    p.set('sort', state.sort);
    if (state.dir !== defaultDir(state.sort)) p.set('dir', state.dir);
  }
  if (state.source) p.set('source', state.source);
  if (state.entry) p.set('entry', state.entry);
  for (const type of unique(state.types)) p.append('type', type);
  if (state.tab !== 'entry') p.set('tab', state.tab);
  if (state.pick) p.set('pick', state.pick);
  if (state.full) p.set('full', '1');
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** Link to a plan or a memory entry inside the app (used for in-app links in rendered markdown). */
export function planHref(filename: string): string {
  return serializeUrlState({ ...DEFAULT_STATE, plan: filename }) || '?';
}

export function entryHref(sourceId: string, entryId: string): string {
  return serializeUrlState({ ...DEFAULT_STATE, view: 'memory', source: sourceId, entry: entryId });
}

// Everything that defines the screen lives in the query string, so a copied link or a reload shows
// the same screen. Defaults are left out to keep links short. Pure: parse and serialize only.

export type View = 'plans' | 'memory' | 'archive' | 'session' | 'costs';
/** 'best': find's order while the box holds a query, newest first without one (planQuery.shownSort). */
export type SortKey = 'best' | 'title' | 'project' | 'modified' | 'created' | 'size' | 'lines';
/** The memory list while searching: find's order, or the usual one (index first, then by name). */
export type MemorySort = 'best' | 'name';
export type SortDir = 'asc' | 'desc';
export type MemoryTab = 'entry' | 'graph' | 'health';
/** The plan reader's tabs; null: the view's own default (the document for a listed plan, the story for an archived one). */
export type PlanTab = 'document' | 'history' | 'outcome' | null;
/** Memory: the reader's tab (null: the document). */
export type EntryTab = 'history' | 'blame' | null;
export type DiffLayout = 'inline' | 'split';

export interface UrlState {
  view: View;
  /** Open plan (file name). */
  plan: string | null;
  /** The one search box of the current view. */
  q: string;
  /** Project filter of the plans list; '' stands for plans without a project. */
  projects: string[];
  /** Plans list order; the default, 'best', is the newest first until a query is typed. */
  sort: SortKey;
  dir: SortDir;
  memorySort: MemorySort;
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
  /** Plans and archive: the reader's tab. */
  planTab: PlanTab;
  entryTab: EntryTab;
  /** History: the two versions compared (ids from the plan's history); null: the default pair. */
  from: string | null;
  to: string | null;
  /** History: changes inline or side by side, over the rendered document or its markdown. */
  layout: DiffLayout;
  raw: boolean;
  /** Session view: the session shown, and the entry it opened at (a byte cursor into its log). */
  session: string | null;
  at: number | null;
}

const VIEWS: readonly View[] = ['plans', 'memory', 'archive', 'session', 'costs'];
export const SORT_KEYS: readonly SortKey[] = ['best', 'title', 'project', 'modified', 'created', 'size', 'lines'];
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference', 'none'] as const;

export function defaultDir(sort: SortKey): SortDir {
  // Best match falls to 'desc': the best first, its only direction.
  return sort === 'title' || sort === 'project' ? 'asc' : 'desc';
}

export const DEFAULT_STATE: UrlState = {
  view: 'plans',
  plan: null,
  q: '',
  projects: [],
  sort: 'best',
  dir: 'desc',
  memorySort: 'best',
  source: null,
  entry: null,
  types: [],
  tab: 'entry',
  pick: '',
  full: false,
  planTab: null,
  entryTab: null,
  from: null,
  to: null,
  layout: 'inline',
  raw: false,
  session: null,
  at: null,
};

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

export function parseUrlState(search: string): UrlState {
  const p = new URLSearchParams(search);
  const viewParam = p.get('view');
  const view: View = VIEWS.includes(viewParam as View) ? (viewParam as View) : 'plans';
  const at = p.get('at');
  const planTab = p.get('ptab');
  const sortParam = p.get('sort');
  const sort: SortKey = SORT_KEYS.includes(sortParam as SortKey) ? (sortParam as SortKey) : DEFAULT_STATE.sort;
  const dirParam = p.get('dir');
  const dir: SortDir = sort !== 'best' && (dirParam === 'asc' || dirParam === 'desc') ? dirParam : defaultDir(sort);
  const types = unique(p.getAll('type').filter((t) => (MEMORY_TYPES as readonly string[]).includes(t)));
  return {
    view,
    plan: p.get('plan') || null,
    q: p.get('q') ?? '',
    projects: unique(p.getAll('project')),
    sort,
    dir,
    memorySort: p.get('msort') === 'name' ? 'name' : 'best',
    source: p.get('source') || null,
    entry: p.get('entry') || null,
    types,
    tab: p.get('tab') === 'graph' ? 'graph' : p.get('tab') === 'health' ? 'health' : 'entry',
    pick: p.get('pick') ?? '',
    full: p.get('full') === '1',
    planTab: planTab === 'document' || planTab === 'history' || planTab === 'outcome' ? planTab : null,
    entryTab: p.get('etab') === 'history' ? 'history' : p.get('etab') === 'blame' ? 'blame' : null,
    from: p.get('from') || null,
    to: p.get('to') || null,
    layout: p.get('layout') === 'split' ? 'split' : 'inline',
    raw: p.get('raw') === '1',
    session: p.get('session') || null,
    at: at !== null && /^(0|[1-9][0-9]{0,15})$/.test(at) ? Number(at) : null,
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
  if (state.memorySort !== DEFAULT_STATE.memorySort) p.set('msort', state.memorySort);
  if (state.source) p.set('source', state.source);
  if (state.entry) p.set('entry', state.entry);
  for (const type of unique(state.types)) p.append('type', type);
  if (state.tab !== 'entry') p.set('tab', state.tab);
  if (state.pick) p.set('pick', state.pick);
  if (state.full) p.set('full', '1');
  if (state.planTab) p.set('ptab', state.planTab);
  if (state.entryTab) p.set('etab', state.entryTab);
  if (state.from) p.set('from', state.from);
  if (state.to) p.set('to', state.to);
  if (state.layout !== 'inline') p.set('layout', state.layout);
  if (state.raw) p.set('raw', '1');
  if (state.session) p.set('session', state.session);
  if (state.at !== null) p.set('at', String(state.at));
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** Link to a plan or a memory entry inside the app (used for in-app links in rendered markdown). */
export function planHref(filename: string): string {
  return serializeUrlState({ ...DEFAULT_STATE, plan: filename }) || '?';
}

export function entryHref(sourceId: string, entryId: string, entryTab: EntryTab = null): string {
  return serializeUrlState({ ...DEFAULT_STATE, view: 'memory', source: sourceId, entry: entryId, entryTab });
}

/** The session view of a session, opened at the entry whose line starts at byte `at` when given. */
export function sessionHref(sessionId: string, at: number | null = null): string {
  return serializeUrlState({ ...DEFAULT_STATE, view: 'session', session: sessionId, at });
}

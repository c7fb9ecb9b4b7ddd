import { describe, expect, it } from 'vitest';
import type { PlanMetadata } from '../api/types';
import { boxFindQuery, type Found } from '../find/boxFind';
import { projectCounts, selectPlans, shownSort } from './planQuery';

function plan(filename: string, over: Partial<PlanMetadata> = {}): PlanMetadata {
  return {
    filename,
    filepath: `/h/plans/${filename}`,
    title: filename.replace('.md', ''),
    size: 100,
    modified: '2026-01-01T00:00:00.000Z',
    created: '2026-01-01T00:00:00.000Z',
    lineCount: 10,
    wordCount: 50,
    project: null,
    sessionId: null,
    ...over,
  };
}

const plans = [
  plan('alpha.md', { title: 'Add dark mode', project: 'webapp', size: 300, modified: '2026-01-03T00:00:00Z' }),
  plan('beta.md', { title: 'Fix login', project: 'api', size: 100, modified: '2026-01-02T00:00:00Z' }),
  plan('gamma.md', { title: 'Refactor', project: null, size: 200, modified: '2026-01-04T00:00:00Z' }),
];
const base = { plans, query: '', contentHits: null, projects: [], sort: 'modified' as const, dir: 'desc' as const };

describe('selectPlans', () => {
  it('sorts by the chosen column and direction', () => {
    expect(selectPlans(base).rows.map((r) => r.plan.filename)).toEqual(['gamma.md', 'alpha.md', 'beta.md']);
    expect(selectPlans({ ...base, sort: 'size', dir: 'asc' }).rows.map((r) => r.plan.filename)).toEqual([
      'beta.md', 'gamma.md', 'alpha.md',
    ]);
    expect(selectPlans({ ...base, sort: 'title', dir: 'asc' }).rows.map((r) => r.plan.title)).toEqual([
      'Add dark mode', 'Fix login', 'Refactor',
    ]);
    // No project sorts last both ways.
    expect(selectPlans({ ...base, sort: 'project', dir: 'asc' }).rows.at(-1)?.plan.filename).toBe('gamma.md');
    expect(selectPlans({ ...base, sort: 'project', dir: 'desc' }).rows.at(-1)?.plan.filename).toBe('gamma.md');
  });

  it('filters by several projects, including "no project"', () => {
    const s = selectPlans({ ...base, projects: ['api', ''] });
    expect(s.rows.map((r) => r.plan.filename).sort()).toEqual(['beta.md', 'gamma.md']);
    expect(s.inScope).toBe(2);
  });

  it('merges title/file/project matches with content hits and counts each kind', () => {
    const s = selectPlans({ ...base, query: 'WEBAPP', contentHits: new Set(['beta.md', 'alpha.md']) });
    expect(s.rows.map((r) => [r.plan.filename, r.byMeta, r.byContent])).toEqual([
      ['alpha.md', true, true],
      ['beta.md', false, true],
    ]);
    expect(s.metaHits).toBe(1);
    expect(s.contentHits).toBe(2);
  });

  it('matches file names and keeps content hits out of other projects when filtered', () => {
    expect(selectPlans({ ...base, query: 'gamma.md' }).rows).toHaveLength(1);
    const s = selectPlans({ ...base, query: 'zzz', contentHits: new Set(['beta.md']), projects: ['webapp'] });
    expect(s.rows).toHaveLength(0);
  });

  it('orders by find\'s rank under "Best match", the rows find did not rank after, newest first', () => {
    const more = [...plans, plan('delta.md', { title: 'Dark corners', modified: '2026-01-05T00:00:00Z' })];
    const found = new Map<string, Found>([
      ['beta.md', { rank: 0, snippets: [] }],
      ['alpha.md', { rank: 1, snippets: [] }],
      ['archived-only.md', { rank: 2, snippets: [] }],
    ]);
    const args = { ...base, plans: more, query: 'a', contentHits: new Set(['beta.md']), sort: 'best' as const, found };
    // Rows are still the literal search's (gamma and delta have an "a" in their title, beta only in its text);
    // find's order first, then the rest as the list has them without a rank.
    expect(selectPlans(args).rows.map((r) => r.plan.filename)).toEqual(['beta.md', 'alpha.md', 'delta.md', 'gamma.md']);
    // Before find answers, and once the user picks a column, find does not change the order.
    expect(selectPlans({ ...args, found: null }).rows.map((r) => r.plan.filename)).toEqual(['delta.md', 'gamma.md', 'alpha.md', 'beta.md']);
    expect(selectPlans({ ...args, sort: 'size', dir: 'asc' }).rows.map((r) => r.plan.filename)).toEqual(['delta.md', 'beta.md', 'gamma.md', 'alpha.md']);
    // Without a query, "Best match" is the newest first.
    expect(selectPlans({ ...args, query: '' }).rows.map((r) => r.plan.filename)).toEqual(['delta.md', 'gamma.md', 'alpha.md', 'beta.md']);
    expect(shownSort('best', 'desc', '  ')).toEqual({ sort: 'modified', dir: 'desc' });
    expect(shownSort('best', 'desc', 'x')).toEqual({ sort: 'best', dir: 'desc' });
  });

  it('asks find for the box\'s words in plans only: no filter, phrase or other kind can come from the text', () => {
    expect(boxFindQuery('dark mode', 'plans')).toBe('in:plans dark mode');
    expect(boxFindQuery('project:api in:memory "quoted" after:2020-01-01', 'plans')).toBe('in:plans project api in memory quoted after 2020 01 01');
    expect(boxFindQuery('fix-login.md', 'plans')).toBe('in:plans fix login md');
    // The last word stays open as a prefix (the query ends in it), like the literal search's substring match.
    expect(boxFindQuery('quok', 'plans')!.endsWith('quok')).toBe(true);
    expect(boxFindQuery('Café ÉTÉ', 'plans')).toBe('in:plans Café ÉTÉ');
    expect(boxFindQuery('  -- ** ', 'plans')).toBeNull();
    expect(boxFindQuery('', 'plans')).toBeNull();
  });

  it('counts plans per project with no-project last', () => {
    expect(projectCounts(plans)).toEqual([
      { project: 'api', count: 1 },
      { project: 'webapp', count: 1 },
      { project: '', count: 1 },
    ]);
  });
});

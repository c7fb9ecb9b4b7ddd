import { describe, expect, it } from 'vitest';
import type { PlanMetadata } from '../api/types';
import { buildHaystacks, projectCounts, selectPlans } from './planQuery';

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
const haystacks = buildHaystacks(plans);
const base = { plans, haystacks, query: '', contentHits: null, projects: [], sort: 'modified' as const, dir: 'desc' as const };

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

  it('counts plans per project with no-project last', () => {
    expect(projectCounts(plans)).toEqual([
      { project: 'api', count: 1 },
      { project: 'webapp', count: 1 },
      { project: '', count: 1 },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { MemoryEntry, MemorySource } from '../api/types';
import { boxFindQuery, type Found } from '../find/boxFind';
import { entryHaystack, filterByTypes, groupSources, rankGroups, searchEntries, typeCounts, type EntryHit } from './memoryQuery';

function entry(filename: string, over: Partial<MemoryEntry> = {}): MemoryEntry {
  return {
    id: `s/${filename}`, sourceId: 's', filename, filepath: `/m/${filename}`, isIndex: filename === 'MEMORY.md',
    name: filename.replace('.md', ''), description: null, type: null, sessionId: null, modified: '2026-01-01T00:00:00Z',
    size: 1, lineCount: 1, links: [], linkedFrom: [], inIndex: true, ...over,
  };
}
function source(id: string, project: string, over: Partial<MemorySource> = {}): MemorySource {
  return {
    id, kind: 'project', project, cwd: null, dir: `/m/${id}`, active: true, index: null, orphans: [], entryCount: 0,
    modified: '2026-01-01T00:00:00Z', ...over,
  };
}

describe('memory query', () => {
  const entries = [
    entry('MEMORY.md'),
    entry('user-role.md', { type: 'user', description: 'Senior backend engineer' }),
    entry('testing.md', { type: 'feedback' }),
    entry('misc.md'),
  ];
  const hay = new Map(entries.map((e) => [e.id, entryHaystack(e, source('s', 'webapp'))]));

  it('matches name, file name and description, merged with content hits', () => {
    const hits = searchEntries(entries, hay, 'BACKEND', new Set(['s/misc.md']));
    expect(hits.map((h) => [h.entry.filename, h.byMeta, h.byContent])).toEqual([
      ['user-role.md', true, false],
      ['misc.md', false, true],
    ]);
  });

  it('counts types (index excluded) and filters by chips', () => {
    const all = searchEntries(entries, hay, '', null);
    expect(typeCounts(all)).toEqual({ user: 1, feedback: 1, project: 0, reference: 0, none: 1 });
    expect(filterByTypes(all, ['user', 'none']).map((h) => h.entry.filename)).toEqual(['user-role.md', 'misc.md']);
    expect(filterByTypes(all, [])).toHaveLength(4);
  });

  it('groups sources by project with active ones first', () => {
    const groups = groupSources([
      source('a', 'webapp', { active: false }), source('custom-1', 'webapp', { kind: 'custom' }), source('b', 'api'),
    ]);
    expect(groups.map((g) => [g.project, g.sources.map((s) => s.id)])).toEqual([
      ['webapp', ['custom-1', 'a']],
      ['api', ['b']],
    ]);
  });
});

describe('memory "Best match"', () => {
  const hit = (e: MemoryEntry): EntryHit => ({ entry: e, byMeta: true, byContent: false });
  const a = source('a', 'alpha');
  const b1 = source('b1', 'beta');
  const b2 = source('b2', 'beta', { kind: 'custom' });
  const groups = groupSources([a, b1, b2]);
  const inA = [entry('MEMORY.md', { id: 'a/MEMORY.md', sourceId: 'a' }), entry('x.md', { id: 'a/x.md', sourceId: 'a' }), entry('y.md', { id: 'a/y.md', sourceId: 'a' })];
  const inB1 = [entry('z.md', { id: 'b1/z.md', sourceId: 'b1' })];
  const inB2 = [entry('w.md', { id: 'b2/w.md', sourceId: 'b2' })];
  const visible = new Map([['a', inA.map(hit)], ['b1', inB1.map(hit)], ['b2', inB2.map(hit)]]);
  const ids = (r: ReturnType<typeof rankGroups>) =>
    r.groups.map((g) => [g.project, g.sources.map((s) => [s.id, (r.visible.get(s.id) ?? []).map((h) => h.entry.filename)])]);

  it('orders entries by find\'s rank, sources and projects by their best entry; the unranked keep their order after', () => {
    const found = new Map<string, Found>([
      ['b1/z.md', { rank: 0, snippets: [] }],
      ['a/y.md', { rank: 1, snippets: [] }],
      ['a/MEMORY.md', { rank: 2, snippets: [] }],
    ]);
    expect(ids(rankGroups(groups, visible, found))).toEqual([
      ['beta', [['b1', ['z.md']], ['b2', ['w.md']]]],
      ['alpha', [['a', ['y.md', 'MEMORY.md', 'x.md']]]],
    ]);
  });

  it('changes nothing when find ranked none of them', () => {
    expect(ids(rankGroups(groups, visible, new Map()))).toEqual([
      ['alpha', [['a', ['MEMORY.md', 'x.md', 'y.md']]]],
      ['beta', [['b2', ['w.md']], ['b1', ['z.md']]]],
    ]);
  });

  it('asks find for the box\'s words in memory only', () => {
    expect(boxFindQuery('type:user backend', 'memory')).toBe('in:memory type user backend');
    expect(boxFindQuery('"', 'memory')).toBeNull();
  });
});

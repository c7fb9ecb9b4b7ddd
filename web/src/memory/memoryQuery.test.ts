import { describe, expect, it } from 'vitest';
import type { MemoryEntry, MemorySource } from '../api/types';
import { entryHaystack, filterByTypes, groupSources, searchEntries, typeCounts } from './memoryQuery';

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

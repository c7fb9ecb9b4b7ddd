import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../api/types';
import { buildGraph } from './graphLayout';

function entry(filename: string, links: string[], over: Partial<MemoryEntry> = {}): MemoryEntry {
  return {
    id: `s/${filename}`, sourceId: 's', filename, filepath: `/m/${filename}`, isIndex: filename === 'MEMORY.md',
    name: filename.replace('.md', ''), description: null, type: null, sessionId: null, modified: '2026-01-01T00:00:00Z',
    size: 1, lineCount: 1, links, linkedFrom: [], inIndex: filename !== 'orphan.md', ...over,
  };
}

describe('buildGraph', () => {
  it('puts the index at the centre, linked topics on rings, orphans and dangling marked', () => {
    const g = buildGraph(
      [entry('MEMORY.md', ['a.md', 'b.md', 'gone.md']), entry('a.md', ['c.md']), entry('b.md', []), entry('c.md', []),
        entry('orphan.md', ['a.md'])],
      ['orphan.md'],
    );
    const byKey = new Map(g.nodes.map((n) => [n.key, n]));
    expect(byKey.get('s/MEMORY.md')).toMatchObject({ kind: 'index', x: 0, y: 0, ring: 0 });
    expect(byKey.get('s/a.md')?.ring).toBe(1);
    expect(byKey.get('s/c.md')?.ring).toBe(2);
    expect(byKey.get('dangling:gone.md')).toMatchObject({ kind: 'dangling', ring: 1 });
    expect(byKey.get('s/orphan.md')).toMatchObject({ orphan: true, unreached: true, ring: 3 });
    expect(g.edges.filter((e) => e.dangling)).toHaveLength(1);
  });

  it('lays out 300 nodes without two nodes on the same spot', () => {
    const topics = Array.from({ length: 299 }, (_, i) => entry(`t${i}.md`, i % 3 ? [`t${(i * 7) % 299}.md`] : []));
    const g = buildGraph([entry('MEMORY.md', topics.slice(0, 100).map((t) => t.filename)), ...topics], []);
    expect(g.nodes).toHaveLength(300);
    const spots = new Set(g.nodes.map((n) => `${Math.round(n.x / 5)}:${Math.round(n.y / 5)}`));
    expect(spots.size).toBe(300);
  });

  it('places a node next to the node that links to it', () => {
    const g = buildGraph(
      [entry('MEMORY.md', ['a.md', 'b.md', 'c.md', 'd.md']), entry('a.md', []), entry('b.md', []), entry('c.md', ['child.md']),
        entry('d.md', []), entry('child.md', [])],
      [],
    );
    const node = (k: string) => g.nodes.find((n) => n.key === k)!;
    expect(node('s/child.md').angle).toBeCloseTo(node('s/c.md').angle, 5);
    expect(node('s/child.md').ring).toBe(2);
  });

  it('copes with a source that has no MEMORY.md', () => {
    const g = buildGraph([entry('a.md', [], { inIndex: false })], ['a.md']);
    expect(g.nodes.find((n) => n.key === 'index:missing')?.kind).toBe('dangling');
  });
});

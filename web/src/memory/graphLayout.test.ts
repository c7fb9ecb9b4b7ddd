import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../api/types';
import { CELL_H, LABEL_MAX, LABEL_X, buildGraph, type GraphNode } from './graphLayout';

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

  it('places a node nearer the node that links to it than to the other topics of the first ring', () => {
    const g = buildGraph(
      [entry('MEMORY.md', ['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md']), ...['a', 'b', 'd', 'e', 'f'].map((n) => entry(`${n}.md`, [])),
        entry('c.md', ['child.md']), entry('child.md', [])],
      [],
    );
    const node = (k: string) => g.nodes.find((n) => n.key === k)!;
    const child = node('s/child.md');
    expect(child.ring).toBe(2);
    const dist = (n: GraphNode) => Math.hypot(n.x - child.x, n.y - child.y);
    const others = ['a', 'b', 'd', 'e', 'f'].map((n) => dist(node(`s/${n}.md`)));
    expect(dist(node('s/c.md'))).toBeLessThanOrEqual(Math.min(...others));
  });

  it('marks topics linked only past the cut', () => {
    const g = buildGraph([entry('MEMORY.md', ['a.md', 'b.md']), entry('a.md', []), entry('b.md', [])], [], [], new Set(['b.md']));
    expect(g.nodes.filter((n) => n.pastCut).map((n) => n.key)).toEqual(['s/b.md']);
  });

  describe('150 topics linked from the index', () => {
    const topics = Array.from({ length: 150 }, (_, i) => entry(`topic-${i}.md`, i % 4 === 0 ? [`topic-${(i * 13) % 150}.md`] : []));
    const g = buildGraph([entry('MEMORY.md', topics.map((t) => t.filename)), ...topics], []);
    const placed = g.nodes.filter((n) => n.kind !== 'index');

    it('fill an area instead of a ring: the distances from the centre spread widely', () => {
      const radii = placed.map((n) => Math.hypot(n.x, n.y));
      const mean = radii.reduce((a, b) => a + b, 0) / radii.length;
      const sd = Math.sqrt(radii.reduce((a, r) => a + (r - mean) ** 2, 0) / radii.length);
      expect(sd / mean).toBeGreaterThan(0.3);
      // A quarter of the topics lie within half the largest distance (a ring would have none there).
      const max = Math.max(...radii);
      expect(radii.filter((r) => r < max / 2).length).toBeGreaterThan(placed.length / 5);
    });

    it('keep every two node centres apart', () => {
      let min = Infinity;
      for (let i = 0; i < g.nodes.length; i += 1) {
        for (let j = i + 1; j < g.nodes.length; j += 1) {
          min = Math.min(min, Math.hypot(g.nodes[i]!.x - g.nodes[j]!.x, g.nodes[i]!.y - g.nodes[j]!.y));
        }
      }
      expect(min).toBeGreaterThanOrEqual(36);
    });

    it('leave every label (one line right of its node, at most LABEL_MAX wide) clear of every other label and node', () => {
      const half = 8;
      const box = (n: GraphNode) => ({ x0: n.x + LABEL_X, x1: n.x + LABEL_X + LABEL_MAX, y0: n.y - half, y1: n.y + half });
      const overlaps: string[] = [];
      for (const a of placed) {
        const A = box(a);
        for (const b of g.nodes) {
          if (a === b) continue;
          const B = box(b);
          if (A.x0 < B.x1 && B.x0 < A.x1 && A.y0 < B.y1 && B.y0 < A.y1) overlaps.push(`${a.key} label / ${b.key} label`);
          const r = b.kind === 'index' ? 16 : 7;
          if (b.x + r > A.x0 && b.x - r < A.x1 && b.y + r > A.y0 && b.y - r < A.y1) overlaps.push(`${a.key} label / ${b.key} node`);
        }
      }
      expect(overlaps).toEqual([]);
      expect(CELL_H).toBeGreaterThan(2 * half);
    });
  });

  it('copes with a source that has no MEMORY.md', () => {
    const g = buildGraph([entry('a.md', [], { inIndex: false })], ['a.md']);
    expect(g.nodes.find((n) => n.key === 'index:missing')?.kind).toBe('dangling');
  });
});

// Link graph of one memory source as concentric rings: MEMORY.md at the centre, then the topics it
// links to, then what those link to, and so on; topics nothing reaches from the index (orphans)
// on the outer ring; the index's links to files that do not exist (dangling) as their own marked nodes.
// Deterministic and O(nodes + edges), so 300 nodes lay out instantly.
import type { MemoryEntry } from '../api/types';
import { LinkResolver } from './links';

export interface GraphNode {
  key: string;
  label: string;
  kind: 'index' | 'topic' | 'dangling';
  entry: MemoryEntry | null;
  /** Topic the index does not link to (the source's `orphans`). */
  orphan: boolean;
  /** Not reachable from the index by following links. */
  unreached: boolean;
  type: string | null;
  ring: number;
  x: number;
  y: number;
  angle: number;
  /** Crowded rings get labels along the radius so they do not overlap. */
  radial: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  dangling: boolean;
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  radius: number;
}

const RING_GAP = 110;
const NODE_SPACING = 30;

export function buildGraph(entries: MemoryEntry[], orphans: readonly string[], danglingFromIndex: readonly string[] = []): Graph {
  const resolver = new LinkResolver(entries);
  const orphanSet = new Set(orphans);
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const out = new Map<string, string[]>();

  const index = entries.find((e) => e.isIndex) ?? null;
  const indexKey = index ? index.id : 'index:missing';
  nodes.set(indexKey, {
    key: indexKey, label: 'MEMORY.md', kind: index ? 'index' : 'dangling', entry: index, orphan: false,
    unreached: false, type: null, ring: 0, x: 0, y: 0, angle: 0, radial: false,
  });
  for (const e of entries) {
    if (e.isIndex) continue;
    nodes.set(e.id, {
      key: e.id, label: e.name || e.filename, kind: 'topic', entry: e, orphan: orphanSet.has(e.filename) || !e.inIndex,
      unreached: true, type: e.type, ring: -1, x: 0, y: 0, angle: 0, radial: false,
    });
  }
  const addEdge = (from: string, targetName: string) => {
    const target = resolver.entry(targetName);
    let to: string;
    if (target) to = target.id;
    else {
      to = `dangling:${targetName}`;
      if (!nodes.has(to)) {
        nodes.set(to, {
          key: to, label: targetName, kind: 'dangling', entry: null, orphan: false, unreached: true,
          type: null, ring: -1, x: 0, y: 0, angle: 0, radial: false,
        });
      }
    }
    if (to === from) return;
    const list = out.get(from) ?? [];
    if (list.includes(to)) return;
    list.push(to);
    out.set(from, list);
    edges.push({ from, to, dangling: !target });
  };
  for (const e of entries) for (const link of e.links) addEdge(e.id, link);
  if (index) for (const link of danglingFromIndex) addEdge(index.id, link);

  // Breadth-first rings from the index.
  const rings: string[][] = [[indexKey]];
  const root = nodes.get(indexKey)!;
  root.unreached = false;
  let frontier = [indexKey];
  while (frontier.length) {
    const next: string[] = [];
    for (const key of frontier) {
      for (const to of out.get(key) ?? []) {
        const node = nodes.get(to)!;
        if (node.ring !== -1) continue;
        node.ring = rings.length;
        node.unreached = false;
        next.push(to);
      }
    }
    if (next.length) rings.push(next);
    frontier = next;
  }
  const rest = [...nodes.values()].filter((n) => n.ring === -1).map((n) => n.key);
  if (rest.length) {
    for (const key of rest) nodes.get(key)!.ring = rings.length;
    rings.push(rest);
  }

  // Each node wants the angle of the node that links to it; nodes of a ring keep a minimum gap.
  const TAU = 2 * Math.PI;
  const wanted = new Map<string, number>();
  let radius = 0;
  for (let r = 1; r < rings.length; r += 1) {
    const ring = rings[r]!;
    radius = Math.max(radius + RING_GAP, (ring.length * NODE_SPACING) / TAU);
    const gap = Math.min(TAU / ring.length, Math.max(NODE_SPACING / radius, 0.35));
    const unplaced = ring.filter((k) => !wanted.has(k));
    const placed = ring.filter((k) => wanted.has(k)).sort((a, b) => wanted.get(a)! - wanted.get(b)! || a.localeCompare(b));
    let angles: Map<string, number>;
    if (placed.length === 0) {
      angles = new Map(ring.sort((a, b) => a.localeCompare(b)).map((k, i) => [k, (TAU * i) / ring.length - Math.PI / 2]));
    } else {
      angles = new Map();
      let prev = -Infinity;
      for (const k of placed) {
        const a = Math.max(wanted.get(k)!, prev + gap);
        angles.set(k, a);
        prev = a;
      }
      const first = angles.get(placed[0]!)!;
      if (prev - first > TAU - gap * (unplaced.length + 1)) {
        // Too crowded to honour the wishes: spread evenly, in the same order.
        angles = new Map([...placed, ...unplaced].map((k, i) => [k, first + (TAU * i) / ring.length]));
      } else {
        // Nodes nothing in the previous rings links to fill the largest free arc.
        const step = (TAU - (prev - first)) / (unplaced.length + 1);
        unplaced.sort((a, b) => a.localeCompare(b)).forEach((k, i) => angles.set(k, prev + step * (i + 1)));
      }
    }
    const radial = ring.length > 14;
    for (const key of ring) {
      const node = nodes.get(key)!;
      const angle = angles.get(key)!;
      node.angle = angle;
      node.radial = radial;
      node.x = Math.round(radius * Math.cos(angle) * 10) / 10;
      node.y = Math.round(radius * Math.sin(angle) * 10) / 10;
      for (const to of out.get(key) ?? []) if (!wanted.has(to)) wanted.set(to, angle);
    }
  }
  return { nodes: [...nodes.values()], edges, radius };
}

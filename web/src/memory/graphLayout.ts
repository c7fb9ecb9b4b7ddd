// Link graph of one memory source: MEMORY.md at the centre, then the topics it links to, then what
// those link to, and so on outwards; topics nothing reaches from the index (orphans) outermost; the
// index's links to files that do not exist (dangling) as their own marked nodes. Nodes fill an area
// of label-sized cells instead of rings, so 150 topics neither crowd one circle nor overlap labels.
// Deterministic, no simulation.
import type { MemoryEntry } from '../api/types';
import { LinkResolver } from './links';

export interface GraphNode {
  key: string;
  label: string;
  kind: 'index' | 'topic' | 'dangling';
  entry: MemoryEntry | null;
  /** An orphan topic (orphans.ts: not reached from the index, not pinned). */
  orphan: boolean;
  /** Not reachable from the index by following links. */
  unreached: boolean;
  type: string | null;
  ring: number;
  x: number;
  y: number;
  angle: number;
  /** Linked from MEMORY.md only past the cut Claude Code loads (the health check's `unreachable`). */
  pastCut: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  dangling: boolean;
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** The area the nodes and their labels cover, the index at (0, 0). */
  bounds: { minX: number; maxX: number; minY: number; maxY: number };
}

/** A cell of the lattice nodes sit on: room for a node and its label, one line high. */
export const CELL_W = 176;
export const CELL_H = 40;
export const NODE_RADIUS = 7;
/** Where a label starts, right of its node, and the widest it may be drawn (LinkGraph squeezes longer ones). */
export const LABEL_X = 12;
export const LABEL_MAX = CELL_W - LABEL_X - 14;
/** How much wider than high the area the nodes fill is. */
const ASPECT = 1.6;

export function buildGraph(
  entries: MemoryEntry[],
  orphans: readonly string[],
  danglingFromIndex: readonly string[] = [],
  pastCut: ReadonlySet<string> = new Set(),
): Graph {
  const resolver = new LinkResolver(entries);
  const orphanSet = new Set(orphans);
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const out = new Map<string, string[]>();

  const index = entries.find((e) => e.isIndex) ?? null;
  const indexKey = index ? index.id : 'index:missing';
  nodes.set(indexKey, {
    key: indexKey, label: 'MEMORY.md', kind: index ? 'index' : 'dangling', entry: index, orphan: false,
    unreached: false, type: null, ring: 0, x: 0, y: 0, angle: 0, pastCut: false,
  });
  for (const e of entries) {
    if (e.isIndex) continue;
    nodes.set(e.id, {
      key: e.id, label: e.name || e.filename, kind: 'topic', entry: e, orphan: orphanSet.has(e.filename),
      unreached: true, type: e.type, ring: -1, x: 0, y: 0, angle: 0, pastCut: pastCut.has(e.filename),
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
          type: null, ring: -1, x: 0, y: 0, angle: 0, pastCut: false,
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

  const labelOf = (key: string) => nodes.get(key)!.label;
  // Nodes take the free cells nearest the centre, ring after ring, each ring in the order of the
  // angles its parents have, so a topic lands near what links to it.
  const slots = cellsByDistance(nodes.size - 1);
  const wanted = new Map<string, number>();
  let taken = 0;
  for (let r = 1; r < rings.length; r += 1) {
    const ring = rings[r]!;
    const band = slots.slice(taken, taken + ring.length).sort((a, b) => a.angle - b.angle);
    taken += ring.length;
    const placed = ring.filter((k) => wanted.has(k)).sort((a, b) => wanted.get(a)! - wanted.get(b)! || a.localeCompare(b));
    const unplaced = ring.filter((k) => !wanted.has(k)).sort((a, b) => labelOf(a).localeCompare(labelOf(b)) || a.localeCompare(b));
    const order = [...placed, ...unplaced];
    // Start where the first node wants to be (the top when nothing is wanted) and go round in order.
    const start = nearestAngle(band, placed.length ? wanted.get(placed[0]!)! : -Math.PI / 2);
    order.forEach((key, i) => {
      const slot = band[(start + i) % band.length]!;
      const node = nodes.get(key)!;
      node.x = slot.x;
      node.y = slot.y;
      node.angle = slot.angle;
    });
    for (const key of ring) {
      const node = nodes.get(key)!;
      for (const to of out.get(key) ?? []) if (!wanted.has(to)) wanted.set(to, node.angle);
    }
  }
  const bounds = { minX: 0, maxX: 0, minY: 0, maxY: 0 };
  for (const n of nodes.values()) {
    bounds.minX = Math.min(bounds.minX, n.x - NODE_RADIUS);
    bounds.maxX = Math.max(bounds.maxX, n.x + LABEL_X + LABEL_MAX);
    bounds.minY = Math.min(bounds.minY, n.y - CELL_H / 2);
    bounds.maxY = Math.max(bounds.maxY, n.y + CELL_H / 2);
  }
  return { nodes: [...nodes.values()], edges, bounds };
}

interface Slot {
  x: number;
  y: number;
  angle: number;
}

/**
 * The `count` cells of a brick lattice nearest the centre (which the index holds). Each cell is one
 * label wide and one line high, so no two labels can overlap; odd rows are shifted by half a cell so
 * that links from the centre do not run through the nodes of the row behind. Distance is measured
 * on an ellipse wider than high, like the screens the graph is drawn on.
 */
function cellsByDistance(count: number): Slot[] {
  if (count <= 0) return [];
  const cols = Math.ceil(Math.sqrt(count)) + 2;
  const rows = Math.ceil((cols * CELL_W) / (CELL_H * ASPECT)) + 2;
  const slots: (Slot & { d: number })[] = [];
  for (let row = -rows; row <= rows; row += 1) {
    const shift = Math.abs(row) % 2 === 1 ? CELL_W / 2 : 0;
    for (let col = -cols; col <= cols; col += 1) {
      const x = col * CELL_W + shift;
      const y = row * CELL_H;
      // The index's own cell, and the one left of it whose label would run into the larger index node.
      if (y === 0 && (x === 0 || x === -CELL_W)) continue;
      slots.push({ x, y, angle: Math.atan2(y, x), d: Math.hypot(x / ASPECT, y) });
    }
  }
  slots.sort((a, b) => a.d - b.d || a.angle - b.angle);
  return slots.slice(0, count);
}

function nearestAngle(slots: readonly Slot[], angle: number): number {
  let best = 0;
  let bestGap = Infinity;
  slots.forEach((s, i) => {
    const gap = Math.abs(Math.atan2(Math.sin(s.angle - angle), Math.cos(s.angle - angle)));
    if (gap < bestGap) {
      bestGap = gap;
      best = i;
    }
  });
  return best;
}

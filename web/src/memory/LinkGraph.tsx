// The link graph of one memory source in plain SVG: MEMORY.md at the centre, topics around it by link
// distance, orphans, dangling targets and topics linked only past the cut marked, with a legend for
// the type colours; click or Enter on a node opens it. Wheel zooms, drag pans. One unit is one CSS
// pixel at the default zoom, so labels keep their font size however many topics there are (Fit shows
// everything at once instead). Layout is computed in graphLayout.ts.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { MemoryEntry, MemoryHealthSource, MemorySource } from '../api/types';
import { formatCount, plural } from '../ui/format';
import { LABEL_MAX, LABEL_X, buildGraph, type Graph, type GraphNode } from './graphLayout';
import { findOrphans } from '../../../src/domain/memory/orphans';

interface Props {
  source: MemorySource;
  entries: MemoryEntry[];
  selectedId: string | null;
  onOpen(entry: MemoryEntry): void;
  onDangling(label: string): void;
  /** The source's health check (its `unreachable` topics are marked); undefined while it loads. */
  health: MemoryHealthSource | undefined;
}

interface View {
  k: number;
  x: number;
  y: number;
}

const PAD = 24;
const TYPES = ['user', 'feedback', 'project', 'reference'] as const;

/** Readable size (never below 1:1) centred on the index, or everything when it fits at that size. */
function initialView(graph: Graph, w: number, h: number): View {
  const fit = fitView(graph, w, h);
  return fit.k >= 1 ? fit : { k: 1, x: 0, y: 0 };
}

function fitView(graph: Graph, w: number, h: number): View {
  const b = graph.bounds;
  const k = Math.min(1.5, w / (b.maxX - b.minX + 2 * PAD), h / (b.maxY - b.minY + 2 * PAD));
  return { k, x: (-(b.minX + b.maxX) / 2) * k, y: (-(b.minY + b.maxY) / 2) * k };
}

function short(label: string, max = 22): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

export function LinkGraph({ source, entries, selectedId, onOpen, onDangling, health }: Props) {
  const unreachable = useMemo(
    () => new Set((health?.problems ?? []).flatMap((p) => (p.kind === 'unreachable' && p.target ? [p.target] : []))),
    [health],
  );
  const graph = useMemo(
    // The one definition of an orphan (orphans.ts), as the health check finds them.
    () => buildGraph(entries, findOrphans(entries, health?.pinned ?? []).map((o) => o.file), source.index?.danglingLinks ?? [], unreachable),
    [entries, source, unreachable, health],
  );
  const byKey = useMemo(() => new Map(graph.nodes.map((n) => [n.key, n])), [graph]);
  const svgRef = useRef<SVGSVGElement>(null);
  const [box, setBox] = useState({ w: 800, h: 600 });
  // null: the initial view for the current size; set once the user zooms, pans or fits.
  const [userView, setView] = useState<View | null>(null);
  const view = userView ?? initialView(graph, box.w, box.h);
  const viewRef = useRef(view);
  viewRef.current = view;
  const [hover, setHover] = useState<string | null>(null);

  useEffect(() => setView(null), [source.id]);

  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const measure = () => setBox({ w: Math.max(1, svg.clientWidth), h: Math.max(1, svg.clientHeight) });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(svg);
    return () => observer.disconnect();
  }, []);

  // A label wider than its cell (wide letters) is squeezed to fit, so labels never run into each other.
  useLayoutEffect(() => {
    for (const text of svgRef.current?.querySelectorAll<SVGTextElement>('.node-topic .label, .node-dangling .label') ?? []) {
      text.removeAttribute('textLength');
      if (text.getComputedTextLength() > LABEL_MAX) {
        text.setAttribute('textLength', String(LABEL_MAX));
        text.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    }
  }, [graph]);

  const neighbours = useMemo(() => {
    if (!hover) return null;
    const set = new Set([hover]);
    for (const e of graph.edges) {
      if (e.from === hover) set.add(e.to);
      if (e.to === hover) set.add(e.from);
    }
    return set;
  }, [hover, graph]);

  const zoom = useCallback((factor: number, cx = 0, cy = 0) => {
    setView((current) => {
      const v = current ?? viewRef.current;
      const k = Math.min(8, Math.max(0.05, v.k * factor));
      const f = k / v.k;
      return { k, x: cx - (cx - v.x) * f, y: cy - (cy - v.y) * f };
    });
  }, []);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const pt = svg.createSVGPoint();
      pt.x = e.clientX;
      pt.y = e.clientY;
      const m = svg.getScreenCTM();
      const p = m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
      zoom(Math.exp(-e.deltaY * 0.0015), p.x, p.y);
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, [zoom]);

  const drag = useRef<{ id: number; x: number; y: number; moved: boolean } | null>(null);

  const activate = (node: GraphNode) => {
    if (node.entry) onOpen(node.entry);
    else onDangling(node.label);
  };

  const counts = {
    orphans: graph.nodes.filter((n) => n.kind === 'topic' && n.orphan).length,
    dangling: graph.nodes.filter((n) => n.kind === 'dangling' && n.key !== 'index:missing').length,
    pastCut: graph.nodes.filter((n) => n.pastCut).length,
  };

  return (
    <div className="link-graph">
      <div className="graph-toolbar" role="toolbar" aria-label="Graph controls">
        <span className="muted">
          {plural(graph.nodes.length, 'node')} · {plural(graph.edges.length, 'link')} · {plural(counts.orphans, 'orphan')} · {formatCount(counts.dangling)} dangling
          {counts.pastCut > 0 && ` · ${counts.pastCut} unreachable`}
        </span>
        <button type="button" onClick={() => zoom(1.25)} aria-label="Zoom in">+</button>
        <button type="button" onClick={() => zoom(0.8)} aria-label="Zoom out">−</button>
        <button type="button" onClick={() => setView(fitView(graph, box.w, box.h))} aria-label="Fit graph">Fit</button>
        <button type="button" onClick={() => setView({ k: 1, x: 0, y: 0 })} aria-label="1:1 (readable size)">1:1</button>
      </div>
      <Legend />
      <div className="graph-viewport">
        <svg
          ref={svgRef}
          viewBox={`${-box.w / 2} ${-box.h / 2} ${box.w} ${box.h}`}
          role="group"
          aria-label={`Link graph of ${source.project}`}
          onPointerDown={(e) => {
            if (e.button !== 0 || (e.target as Element).closest('.node')) return;
            drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
            e.currentTarget.setPointerCapture(e.pointerId);
          }}
          onPointerMove={(e) => {
            const d = drag.current;
            if (!d || d.id !== e.pointerId) return;
            // The viewBox is the element's own pixel size: screen pixels are units.
            const dx = e.clientX - d.x;
            const dy = e.clientY - d.y;
            drag.current = { ...d, x: e.clientX, y: e.clientY, moved: true };
            setView((current) => {
              const v = current ?? viewRef.current;
              return { ...v, x: v.x + dx, y: v.y + dy };
            });
          }}
          onPointerUp={() => {
            drag.current = null;
          }}
        >
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="16" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
            </marker>
          </defs>
          <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
            <g className="edges">
              {graph.edges.map((e) => {
                const a = byKey.get(e.from)!;
                const b = byKey.get(e.to)!;
                const dim = neighbours && !(neighbours.has(e.from) && neighbours.has(e.to));
                return (
                  <line
                    key={`${e.from}>${e.to}`}
                    x1={a.x}
                    y1={a.y}
                    x2={b.x}
                    y2={b.y}
                    className={`edge${e.dangling ? ' dangling' : ''}${dim ? ' dim' : ''}`}
                    markerEnd="url(#arrow)"
                  />
                );
              })}
            </g>
            <g className="nodes">
              {graph.nodes.map((n) => {
                const r = n.kind === 'index' ? 16 : 7;
                const classes = [
                  'node',
                  `node-${n.kind}`,
                  n.type ? `type-${n.type}` : '',
                  n.orphan ? 'orphan' : '',
                  n.pastCut ? 'unreachable' : '',
                  n.entry && n.entry.id === selectedId ? 'selected' : '',
                  neighbours && !neighbours.has(n.key) ? 'dim' : '',
                ].join(' ');
                const status = n.kind === 'dangling' ? ' (dangling: file does not exist)' : n.orphan ? ' (orphan: not in MEMORY.md)'
                  : n.pastCut ? ' (unreachable: linked from MEMORY.md only past the cut Claude Code loads)' : '';
                return (
                  <g
                    key={n.key}
                    className={classes}
                    transform={`translate(${n.x} ${n.y})`}
                    tabIndex={0}
                    role="button"
                    aria-label={`${n.label}${status}`}
                    data-key={n.key}
                    onClick={() => activate(n)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        e.stopPropagation();
                        activate(n);
                      }
                    }}
                    onPointerEnter={() => setHover(n.key)}
                    onPointerLeave={() => setHover(null)}
                    onFocus={() => setHover(n.key)}
                    onBlur={() => setHover(null)}
                  >
                    <title>{`${n.label}${status}`}</title>
                    {n.pastCut && <circle r={r + 4} className="unreachable-mark" />}
                    {n.kind === 'dangling' ? (
                      <path d="M -6 -6 L 6 6 M -6 6 L 6 -6" className="dangling-mark" />
                    ) : (
                      <circle r={r} className="dot" />
                    )}
                    {n.kind === 'index' ? (
                      <text x={22} dy="0.32em" className="label index-label">MEMORY.md</text>
                    ) : (
                      <text x={LABEL_X} dy="0.32em" className="label">{short(n.label)}</text>
                    )}
                  </g>
                );
              })}
            </g>
          </g>
        </svg>
      </div>
    </div>
  );
}

/** One swatch per mark, styled by the same rules as the nodes so the colours cannot drift apart. */
function Legend() {
  const item = (label: string, classes: string, mark?: 'dangling' | 'unreachable') => (
    <li key={label}>
      <svg viewBox="-9 -9 18 18" width="16" height="16" aria-hidden="true" className="legend-swatch">
        <g className={`graph-swatch ${classes}`}>
          {mark === 'unreachable' && <circle r={8} className="unreachable-mark" />}
          {mark === 'dangling' ? <path d="M -5 -5 L 5 5 M -5 5 L 5 -5" className="dangling-mark" /> : <circle r={mark ? 4 : 6} className="dot" />}
        </g>
      </svg>
      {label}
    </li>
  );
  return (
    <ul className="graph-legend" aria-label="Legend">
      {item('MEMORY.md', 'swatch-index')}
      {TYPES.map((t) => item(t, `type-${t}`))}
      {item('untyped', '')}
      {item('orphan (not in MEMORY.md)', 'orphan')}
      {item('unreachable (linked only past the cut)', '', 'unreachable')}
      {item('dangling link target', '', 'dangling')}
    </ul>
  );
}

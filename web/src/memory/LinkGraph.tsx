// The link graph of one memory source in plain SVG: MEMORY.md at the centre, topics on rings by link
// distance, orphans and dangling targets marked; click or Enter on a node opens it. Wheel zooms,
// drag pans. Layout is computed in graphLayout.ts (no simulation: instant at 300 nodes).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MemoryEntry, MemorySource } from '../api/types';
import { buildGraph, type GraphNode } from './graphLayout';

interface Props {
  source: MemorySource;
  entries: MemoryEntry[];
  selectedId: string | null;
  onOpen(entry: MemoryEntry): void;
  onDangling(label: string): void;
}

const PAD = 130;

function short(label: string, max = 22): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

export function LinkGraph({ source, entries, selectedId, onOpen, onDangling }: Props) {
  const graph = useMemo(() => buildGraph(entries, source.orphans, source.index?.danglingLinks ?? []), [entries, source]);
  const byKey = useMemo(() => new Map(graph.nodes.map((n) => [n.key, n])), [graph]);
  const size = (graph.radius + PAD) * 2;
  const [view, setView] = useState({ k: 1, x: 0, y: 0 });
  const [hover, setHover] = useState<string | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);

  useEffect(() => setView({ k: 1, x: 0, y: 0 }), [source.id]);

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
    setView((v) => {
      const k = Math.min(8, Math.max(0.2, v.k * factor));
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
  const scale = () => {
    const svg = svgRef.current;
    return svg ? size / Math.max(1, Math.min(svg.clientWidth, svg.clientHeight)) : 1;
  };

  const activate = (node: GraphNode) => {
    if (node.entry) onOpen(node.entry);
    else onDangling(node.label);
  };

  const counts = {
    orphans: graph.nodes.filter((n) => n.kind === 'topic' && n.orphan).length,
    dangling: graph.nodes.filter((n) => n.kind === 'dangling' && n.key !== 'index:missing').length,
  };

  return (
    <div className="link-graph">
      <div className="graph-toolbar" role="toolbar" aria-label="Graph controls">
        <span className="muted">
          {graph.nodes.length} nodes · {graph.edges.length} links · {counts.orphans} orphans · {counts.dangling} dangling
        </span>
        <button type="button" onClick={() => zoom(1.25)} aria-label="Zoom in">+</button>
        <button type="button" onClick={() => zoom(0.8)} aria-label="Zoom out">−</button>
        <button type="button" onClick={() => setView({ k: 1, x: 0, y: 0 })} aria-label="Fit graph">Fit</button>
      </div>
      <div className="graph-legend" aria-hidden="true">
        <span><i className="lg lg-index" /> MEMORY.md</span>
        <span><i className="lg lg-topic" /> topic</span>
        <span><i className="lg lg-orphan" /> orphan (not in MEMORY.md)</span>
        <span><i className="lg lg-dangling" /> dangling link target</span>
      </div>
      <div className="graph-viewport">
        <svg
          ref={svgRef}
          viewBox={`${-size / 2} ${-size / 2} ${size} ${size}`}
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
            const s = scale();
            const dx = (e.clientX - d.x) * s;
            const dy = (e.clientY - d.y) * s;
            drag.current = { ...d, x: e.clientX, y: e.clientY, moved: true };
            setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
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
                const deg = (n.angle * 180) / Math.PI;
                const left = Math.cos(n.angle) < 0;
                const r = n.kind === 'index' ? 16 : 7;
                const classes = [
                  'node',
                  `node-${n.kind}`,
                  n.type ? `type-${n.type}` : '',
                  n.orphan ? 'orphan' : '',
                  n.entry && n.entry.id === selectedId ? 'selected' : '',
                  neighbours && !neighbours.has(n.key) ? 'dim' : '',
                ].join(' ');
                const status = n.kind === 'dangling' ? ' (dangling: file does not exist)' : n.orphan ? ' (orphan: not in MEMORY.md)' : '';
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
                    {n.kind === 'dangling' ? (
                      <path d="M -6 -6 L 6 6 M -6 6 L 6 -6" className="dangling-mark" />
                    ) : (
                      <circle r={r} />
                    )}
                    {n.kind === 'index' ? (
                      <text y={32} textAnchor="middle" className="label index-label">MEMORY.md</text>
                    ) : n.radial ? (
                      <text
                        transform={`rotate(${left ? deg + 180 : deg})`}
                        x={left ? -12 : 12}
                        dy="0.32em"
                        textAnchor={left ? 'end' : 'start'}
                        className="label"
                      >
                        {short(n.label)}
                      </text>
                    ) : (
                      <text x={left ? -12 : 12} dy="0.32em" textAnchor={left ? 'end' : 'start'} className="label">
                        {short(n.label, 28)}
                      </text>
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

// One chart of the Costs view, drawn with uPlot, which is imported when the first chart is drawn (its own
// chunk: the rest of the app never waits for it). Bars of cost, points of active minutes; the table beside
// each chart holds the same numbers for screen readers and copying.
import { useEffect, useRef, useState } from 'react';
import type { CostRow } from '../api/types';

interface Props {
  rows: CostRow[];
  /** Days are a time axis; projects and plans are categories, shown by their key. */
  time: boolean;
  label: string;
  dark: boolean;
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

const loadUplot = () => Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([m]) => m.default);

export function CostChart({ rows, time, label, dark }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const el = host.current;
    if (!el || rows.length === 0) return;
    let plot: { destroy(): void } | null = null;
    let gone = false;
    let observer: ResizeObserver | null = null;
    loadUplot()
      .then((UPlot) => {
        if (gone) return;
        const xs = rows.map((r, i) => (time ? Date.parse(`${r.key}T00:00:00Z`) / 1000 : i));
        const fg = cssVar('--fg-soft', '#444');
        const grid = cssVar('--border', '#ddd');
        const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
        const width = () => Math.max(240, el.clientWidth);
        const made = new UPlot(
          {
            width: width(),
            height: 220,
            scales: { x: { time, range: (_u, min, max) => (time ? [min - 43_200, max + 43_200] : [-0.5, rows.length - 0.5]) }, usd: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] }, min: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
            axes: [
              { ...axis, ...(time ? {} : { splits: () => rows.map((_r, i) => i), values: (_u, ticks) => ticks.map((t) => (rows[t]?.key ?? '').slice(0, 14)) }) },
              { ...axis, scale: 'usd', values: (_u, ticks) => ticks.map((t) => `$${t.toFixed(t < 1 ? 2 : 0)}`) },
              { ...axis, scale: 'min', side: 1, size: 64, grid: { show: false }, values: (_u, ticks) => ticks.map((t) => `${Math.round(t)} min`) },
            ],
            series: [
              {},
              { label: 'Cost', scale: 'usd', stroke: cssVar('--accent', '#5a4aee'), fill: cssVar('--accent-soft', '#ece9ff'), paths: UPlot.paths.bars!({ size: [0.6, 60] }), points: { show: false } },
              // Points only: active minutes of separate days or projects are not a trend to join with a line.
              { label: 'Active minutes', scale: 'min', stroke: cssVar('--near', '#945800'), paths: () => null, points: { show: true, size: 8, fill: cssVar('--near', '#945800') } },
            ],
            legend: { show: true },
          },
          [xs, rows.map((r) => r.costUsd), rows.map((r) => r.activeMs / 60_000)],
          el,
        );
        plot = made;
        observer = new ResizeObserver(() => made.setSize({ width: width(), height: 220 }));
        observer.observe(el);
      })
      .catch(() => setFailed(true));
    return () => {
      gone = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [rows, time, dark]);
  if (rows.length === 0) return null;
  return (
    <figure className="cost-chart">
      <div ref={host} className="cost-chart-canvas" role="img" aria-label={`${label}: chart of cost and active minutes; the table below has the same numbers`} />
      {failed && <p className="muted">The chart could not be loaded; the table has the numbers.</p>}
    </figure>
  );
}

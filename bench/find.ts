// The ranked search (GET /api/find's domain), in the benchmark's process on the generated home: how long
// the index takes to build after the viewer is loaded (plans and memory; then sessions once the transcripts'
// facts are read), the longest event-loop stall meanwhile, the index's size, and query times for one- and
// two-word queries drawn from the home's own words, after untimed ones. Timings are reported, never asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { Viewer } from '../src/viewer.js';
import { GERUND, NOUN, THING, VERB, WORDS } from './vocabulary.js';
import { round } from './measure.js';

export interface FindBench {
  documents: number;
  /** The index in a plain binary form (what persisting it would take). */
  serializedBytes: number;
  /** Heap growth from the loaded viewer to the built index (after a GC when --expose-gc is on). */
  heapGrowthBytes: number;
  buildMs: number;
  /** Until the sessions are in too (the transcripts' facts are read in the background). */
  buildWithSessionsMs: number;
  longestStallMs: number;
  /** The longest turns while building, each with the collector's pauses that fell inside it: what a stall was. */
  longestTurns: { atMs: number; ms: number; gcMs: number }[];
  /** The collector's longest pause while building. */
  longestGcMs: number;
  /** Turns over 20 ms while building. */
  turnsOver20Ms: number;
  queries: { words: number; count: number; p50Ms: number; p95Ms: number; maxMs: number; medianTotal: number }[];
}

/** Queries run before the timed ones. */
const WARM_UP = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

type Turns = { stop: () => Pick<FindBench, 'longestTurns' | 'longestGcMs' | 'turnsOver20Ms'> };

/**
 * Times the turns from the gaps between 1 ms timers, and hears the collector's pauses, so a long stall can be
 * told apart: the collector's, or this code's.
 */
function watchTurns(t0: number): Turns {
  const gaps: { at: number; ms: number }[] = [];
  const pauses: { at: number; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ at: e.startTime, ms: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 20) gaps.push({ at: last, ms: now - last });
    last = now;
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      observer.disconnect();
      const longest = gaps.sort((a, b) => b.ms - a.ms).slice(0, 3);
      return {
        turnsOver20Ms: gaps.length,
        longestTurns: longest.map((g) => ({
          atMs: round(g.at - t0, 0), ms: round(g.ms, 1),
          gcMs: round(pauses.filter((p) => p.at >= g.at && p.at < g.at + g.ms).reduce((a, p) => a + p.ms, 0), 1),
        })),
        longestGcMs: round(Math.max(0, ...pauses.map((p) => p.ms)), 1),
      };
    },
  };
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export async function measureFind(home: string, rounds = 200): Promise<FindBench> {
  const homeDir = mkdtempSync(path.join(os.tmpdir(), 'pmv-bench-find-'));
  const viewer = await Viewer.open({ claudeDir: home, homeDir, logger: { warn: () => undefined }, watch: false, cacheDir: null, deferWatch: true });
  try {
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const start = performance.now();
    const turns = watchTurns(start);
    void viewer.startWatching();
    await viewer.finder.built;
    const buildMs = performance.now() - start;
    await viewer.history.ready;
    await viewer.finder.idle();
    const buildWithSessionsMs = performance.now() - start;
    delay.disable();
    const { longestTurns, longestGcMs, turnsOver20Ms } = turns.stop();
    gc();
    const heapGrowthBytes = process.memoryUsage().heapUsed - heapBefore;
    const stats = viewer.finder.stats();
    const pool = [...GERUND, ...NOUN, ...THING.map((t) => t.split('-')[0]!), ...VERB.map((v) => v.split('-')[0]!), ...WORDS.filter((w) => w.length > 3)];
    let seed = 11;
    const pick = (): string => pool[(seed = (seed * 48271) % 2147483647) % pool.length]!;
    // Untimed queries first: the first ones after a build otherwise also time the compiler warming up and
    // the collector clearing the build's garbage (docs/decisions.md, D56).
    for (let i = 0; i < WARM_UP; i++) await viewer.finder.find(Array.from({ length: 1 + (i % 2) }, pick).join(' '), { limit: 20 });
    seed = 7;
    const queries: FindBench['queries'] = [];
    for (const words of [1, 2]) {
      const times: number[] = [];
      const totals: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const q = Array.from({ length: words }, pick).join(' ');
        const t = performance.now();
        const answer = await viewer.finder.find(q, { limit: 20 });
        times.push(performance.now() - t);
        totals.push(answer.total);
      }
      times.sort((a, b) => a - b);
      totals.sort((a, b) => a - b);
      queries.push({
        words, count: rounds, p50Ms: round(percentile(times, 0.5), 2), p95Ms: round(percentile(times, 0.95), 2),
        maxMs: round(times.at(-1)!, 2), medianTotal: percentile(totals, 0.5),
      });
    }
    return {
      documents: stats.documents, serializedBytes: stats.serializedBytes, heapGrowthBytes,
      buildMs: round(buildMs, 0), buildWithSessionsMs: round(buildWithSessionsMs, 0), longestStallMs: round(delay.max / 1e6, 1),
      longestTurns, longestGcMs, turnsOver20Ms, queries,
    };
  } finally {
    await viewer.close();
    rmSync(homeDir, { recursive: true, force: true });
  }
}

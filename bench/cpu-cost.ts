// Server CPU caused by one action (an append to a log), resolved well below a millisecond.
//
// Why not "CPU from the action until the server is quiet for 1 s": the viewer defers work (its index is
// saved 10 s after a change; scan worker threads exit 3 s after going idle) and runs periodic work (a
// root check every second, a plan-folder reconcile every 10 s). Quiet detection ends a round before the
// deferred save, which then lands in a later round (often a control round), and whether a 10 s reconcile
// falls in a 2–4 s window is luck: ±5–40 ms per round, far above the 0.1–0.5 ms being measured.
//
// So every round, control included, is a window of the same fixed length, long enough to hold the
// deferred work and a whole number of seconds (the same count of 1 s timer runs), opened when the server
// is quiet plus a random delay; kinds are interleaved in rotating order; the cost is the median over rounds minus the
// control rounds' median, with the noise of that difference estimated from the rounds' spread.
// The counter is each thread's schedstat run time (ns), sampled every 100 ms so that a thread exiting
// inside the window (an idle scan worker) still counts up to its last sample; /proc/<pid>/stat
// utime+stime (10 ms ticks, exited threads included) is kept as a cross-check.

import { forEachThreadRunNs, processCpuMs, processTree, sleep, waitQuiet } from './measure.js';

/** Cumulative CPU of a fixed set of processes, thread by thread, surviving thread exits between samples. */
export class CpuMeter {
  private readonly last = new Map<string, number>();
  private ns = 0;
  private readonly stat0: number;

  constructor(private readonly pids: number[]) {
    this.read((key, runNs) => this.last.set(key, runNs));
    this.stat0 = this.statMs();
  }

  private read(each: (key: string, runNs: number) => void): void {
    for (const pid of this.pids) forEachThreadRunNs(pid, (tid, runNs) => each(`${pid}/${tid}`, runNs));
  }

  private statMs(): number {
    let ms = 0;
    for (const pid of this.pids) ms += processCpuMs(pid);
    return ms;
  }

  /** Milliseconds of CPU since construction. */
  sample(): number {
    const seen = new Set<string>();
    this.read((key, runNs) => {
      seen.add(key);
      // A thread born since the last sample ran only inside the window: all its time counts.
      this.ns += runNs - (this.last.get(key) ?? 0);
      this.last.set(key, runNs);
    });
    for (const key of this.last.keys()) if (!seen.has(key)) this.last.delete(key);
    return this.ns / 1e6;
  }

  /** The same from /proc/<pid>/stat: 10 ms resolution, but counts threads we never sampled. */
  statDeltaMs(): number {
    return this.statMs() - this.stat0;
  }
}

export interface Round {
  kind: string;
  /** Server CPU over the whole window. */
  ms: number;
  /** Over the first `immediateMs` only: the work done right away, before any deferred work. */
  immediateMs: number;
  /** Over the second after the window: should equal the control's, or work outlived the window. */
  spillMs: number;
  statMs: number;
}

export interface CostOptions {
  /** The server's root pid; its process tree is re-read at the start of each round. */
  pid: number;
  /** Actions by kind; `null` is a control round (nothing done). Run just after the window opens. */
  kinds: Record<string, (() => void) | null>;
  rounds: number;
  windowMs: number;
  immediateMs?: number;
  binMs?: number;
  /** After each window closes (not counted): e.g. check the action had its effect. */
  after?: (kind: string) => Promise<void>;
}

/**
 * One window: opens when the server is quiet, runs the action, samples every `binMs` until it closes, then
 * one more second to see whether work spilled out of it.
 */
async function round(kind: string, action: (() => void) | null, o: Required<Omit<CostOptions, 'after' | 'kinds'>>): Promise<Round> {
  await waitQuiet(o.pid, 300, 1, 5_000);
  // A random start: otherwise the rounds can lock onto the phase of the server's periodic work (each kind
  // then always or never catching, say, the 10 s reconcile in its first second).
  await sleep(Math.random() * 1000);
  const meter = new CpuMeter(processTree(o.pid));
  const t0 = performance.now();
  action?.();
  let immediateMs = NaN;
  let ms = NaN;
  let statMs = NaN;
  let total = 0;
  for (let at = o.binMs; at <= o.windowMs + 1000; at += o.binMs) {
    await sleep(Math.max(0, t0 + at - performance.now()));
    total = meter.sample();
    if (at === o.immediateMs) immediateMs = total;
    if (at === o.windowMs) {
      ms = total;
      statMs = meter.statDeltaMs();
    }
  }
  return { kind, ms, immediateMs, spillMs: total - ms, statMs };
}

export interface KindCost {
  /** Raw CPU per round. */
  roundsMs: number[];
  /** Median over rounds minus the control's median (0 for the control itself). */
  medianMs: number;
  rawMedianMs: number;
  /** Standard error of this kind's raw median: combine two with `seOfDifference`. */
  seMs: number;
  immediateMedianMs: number;
  immediateSeMs: number;
  /** CPU in the second after the window, minus the control's: well above the noise, the window is too short. */
  spillMs: number;
}

export interface CostResult {
  windowMs: number;
  immediateMs: number;
  rounds: Round[];
  byKind: Record<string, KindCost>;
  /**
   * Largest |stat − schedstat| over the rounds. Stat is truncated to 10 ms ticks at both ends and adjusted
   * for monotonicity, so up to ~20 ms is expected; more means a short-lived thread escaped the sampling.
   */
  statMismatchMs: number;
}

/** The median, averaging the middle two (measure.ts's takes the lower one: with 2 rounds a MAD of 0). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 === 1 ? (s[h] as number) : ((s[h - 1] as number) + (s[h] as number)) / 2;
}

/**
 * Standard error of the median of `xs`, from their median absolute deviation (normal approximation:
 * 1.2533 sigma / sqrt(n)). Per kind, not pooled: a kind with deferred work (an index save) varies more
 * than the control rounds, and pooling hid that.
 */
export function medianSe(xs: number[]): number {
  if (xs.length < 2) return NaN;
  const m = median(xs);
  return (1.2533 * 1.4826 * median(xs.map((x) => Math.abs(x - m)))) / Math.sqrt(xs.length);
}

/** Standard error of the difference of two kinds' medians: differences below about twice it are noise. */
export function seOfDifference(a: number, b: number): number {
  return Math.hypot(a, b);
}

export async function measureCost(o: CostOptions): Promise<CostResult> {
  const opts = { pid: o.pid, rounds: o.rounds, windowMs: o.windowMs, immediateMs: o.immediateMs ?? 1000, binMs: o.binMs ?? 100 };
  if (opts.windowMs % 1000 !== 0 || opts.immediateMs % opts.binMs !== 0 || opts.windowMs < opts.immediateMs) {
    throw new Error('the window must be whole seconds and hold the immediate part, a multiple of the bin');
  }
  const names = Object.keys(o.kinds);
  const rounds: Round[] = [];
  for (let k = 0; k < o.rounds; k++) {
    // Rotating the order makes each kind follow each other kind equally often, so anything a round leaves
    // behind (late GC, work that outlived the window) is charged to all kinds alike.
    for (let i = 0; i < names.length; i++) {
      const kind = names[(i + k) % names.length] as string;
      rounds.push(await round(kind, o.kinds[kind] ?? null, opts));
      await o.after?.(kind);
    }
  }
  const control = names.find((n) => o.kinds[n] === null);
  const of = (kind: string, pick: (r: Round) => number): number[] => rounds.filter((r) => r.kind === kind).map(pick);
  const base = (pick: (r: Round) => number): number => (control ? median(of(control, pick)) : 0);
  const byKind: Record<string, KindCost> = {};
  for (const kind of names) {
    const total = of(kind, (r) => r.ms);
    const immediate = of(kind, (r) => r.immediateMs);
    byKind[kind] = {
      roundsMs: total,
      medianMs: median(total) - base((r) => r.ms),
      rawMedianMs: median(total),
      seMs: medianSe(total),
      immediateMedianMs: median(immediate) - base((r) => r.immediateMs),
      immediateSeMs: medianSe(immediate),
      spillMs: median(of(kind, (r) => r.spillMs)) - base((r) => r.spillMs),
    };
  }
  return {
    windowMs: opts.windowMs, immediateMs: opts.immediateMs, rounds, byKind,
    statMismatchMs: Math.max(0, ...rounds.map((r) => Math.abs(r.statMs - r.ms))),
  };
}

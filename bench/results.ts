// The results JSON the runner writes, field by field (types only).

import type { InProcessAppendResult } from './append-in-process.js';
import type { HistoryResult } from './history.js';
import type { FindBench } from './find.js';
import type { McpFirstSearch } from './mcp-first.js';
import type { HostileCase } from './hostile.js';
import type { Round } from './cpu-cost.js';
import type { Facts, HomeParams } from './facts.js';
import type { FirstScreen } from './first-screen.js';
import type { EndpointResult } from './latency.js';
import type { Throughput } from './load.js';
import type { StartResult } from './starts.js';

export interface Results {
  startedAt: string;
  machine: Record<string, unknown>;
  server: string;
  preset: string;
  home: { dir: string; params: HomeParams; counts: Facts['counts']; generatedMs: number | null };
  readFloor: {
    ms: number; bytes: number; files: number; mbPerS: number; firstPassMs: number; byBufferMs: Record<string, number>;
  };
  /** Start-up of the same command on an empty home: the process's fixed cost (runtime, modules, listen). */
  emptyHomeReadyMs: number | null;
  /** Spawn to first answer of a bare node:http server, started `--starts` times (see bareNodeStarts). */
  bareNodeReady: { ms: number; runsMs: number[] } | null;
  emptyHomeRssBytes: number;
  /** The median of the cold starts (by readyMs), and every start's readyMs (null: never correct). */
  cold: StartResult;
  latency: Record<string, EndpointResult>;
  /** bench/load.ts (autocannon before 2026-11-21: its own limit, ~430 req/s here, capped these figures). */
  throughput: Throughput | null;
  /** The same load against a bare node:http server serving the same /api/plans bytes. */
  bareCeiling: Throughput | null;
  throughputOneConnection: Throughput | null;
  bareCeilingOneConnection: Throughput | null;
  /** Sequential latency of the same bytes from the bare server. */
  bareLatency: EndpointResult | null;
  rssAfterLoadBytes: number;
  stopMs: number;
  warm: StartResult;
  /**
   * The same warm restarts with NODE_EXTRA_CA_CERTS removed from the server's environment, when this one
   * sets it (null otherwise): Node loads that bundle at every start, before any server code runs (~80 ms
   * here), and a machine without the variable does not pay it. Informational; warmRestartMs is as measured.
   */
  warmWithoutExtraCa: StartResult | null;
  /** A fixed CPU-bound loop timed before and after the run: how steady this machine's CPU speed was. */
  cpuSteadiness: { beforeMs: number[]; afterMs: number[]; spread: number };
  freshness: {
    newPlanMs: (number | null)[];
    deletedPlanGoneMs: (number | null)[];
    linkMs: (number | null)[];
  };
  append: {
    bigLogBytes: number;
    bigLogLinkedMs: number | null;
    read1MbMs: number;
    floorPerMbMs: number;
    appendVisibleMs: number | null;
    appendVisibleRatio: number | null;
    cpuWithPollingMs: number;
    /** Median CPU of a control window per second: informational (controls of the same length are subtracted). */
    idleCpuPerSecMs: number;
    /** Raw CPU of the control rounds (same window, no append); their median is subtracted from the others. */
    controlCpuMs: number[];
    /** Every CPU round (all kinds) lasts this long, whatever the server does. */
    windowMs: number;
    cpuMs: number[];
    cpuMedianMs: number | null;
    cpuRatio: number | null;
    /** The same visible effect from appending a single line: the fixed cost of one append. */
    lineCpuMs: number[];
    lineCpuMedianMs: number | null;
    /** (CPU for 1 MB − CPU for one line) / read 1 MB: the per-byte part of the cost. */
    marginalCpuRatio: number | null;
    cpuRounds: number;
    /** Standard errors of cpuMedianMs, lineCpuMedianMs and their difference (from the rounds' spread). */
    cpuNoiseMs: number;
    lineCpuNoiseMs: number;
    marginalNoiseMs: number;
    /** |1 MB − 1 line| > 2 × marginalNoiseMs. */
    marginalResolved: boolean;
    /** The same medians over the first `immediateMs` of each window: before deferred work, less noise. */
    immediateMs: number;
    immediateCpuMs: number;
    lineImmediateCpuMs: number;
    immediateNoiseMs: number;
    marginalImmediateCpuRatio: number;
    marginalImmediateNoiseMs: number;
    /** CPU in the second after the window, beyond the control's: work the window missed. */
    spillMs: number;
    statMismatchMs: number;
    rounds: Round[];
    /** Server CPU over the first `immediateMs` of each warm-up append (before the rounds), in order. */
    warmupImmediateCpuMs?: { mb: number[]; line: number[] };
  } | null;
  /** The same appends to the session index alone, in the benchmark's process (bench/append-in-process.ts). */
  appendInProcess?: InProcessAppendResult | null;
  rssEndBytes: number;
  /** bench/first-screen.ts: cold page loads in Chromium, navigation to the first plan rows on screen. */
  firstScreen?: FirstScreen | null;
  /** bench/hostile.ts: huge plans and memory files saved and read while small requests are timed. */
  hostile?: HostileCase[];
  /** bench/history.ts (--only history): plan history built cold and warm, checked, and its endpoints' latency. */
  history?: HistoryResult;
  /** bench/find.ts: the ranked search's index and query times (--only find). */
  find?: FindBench;
  /** A fresh MCP process's first complete search (bench/mcp-first.ts). */
  mcpFirstSearch?: McpFirstSearch | null;
  warnings: string[];
}

// A server start timed from spawn to a correct plan list, with the latency of small requests before and
// after ready; several starts, their median.

import type { Facts } from './facts.js';
import { Client, dist, processCpuMs, sleep, treeRss, waitPortOpen, type Dist, type HttpResult } from './measure.js';
import type { Options } from './options.js';
import { parsePlans, verify, type Verdict } from './plan-list.js';
import { stopServer, type Server } from './server.js';

export interface ReadyResult {
  readyMs: number | null;
  /**
   * The server process's CPU time (all its threads, in 10 ms ticks) when it was ready: the work of a start,
   * which other load on the machine disturbs less than its duration.
   */
  cpuAtReadyMs: number | null;
  firstResponseMs: number | null;
  polls: number;
  verdict: Verdict | null;
  rssBytes: number;
  rssPid: number;
  /** Latency of a small request (/api/projects every 20 ms) between the first response and ready. */
  probe: Dist | null;
  /** The same in the AFTER_READY_PROBE_MS after ready, while the server's background start-up work runs. */
  afterReadyProbe?: Dist | null;
}

export const runsText = (runs: (number | null)[]): string => runs.map((ms) => (ms === null ? 'never' : ms.toFixed(0))).join(', ');

export type StartResult = ReadyResult & { ratioToFloor: number | null; runsMs: (number | null)[] };

/**
 * `starts` starts of the server, each on the port `prepare` returns once it has readied the ground (the
 * server before is stopped first), each timed from spawn to a correct plan list: one start is not a
 * measurement on a machine whose CPU speed varies. The median start counts; the last server keeps running.
 * With several ways to spawn, their starts take turns (A B A B ...), so that a slower spell of this VM
 * weighs on each alike; one result per way, in order.
 */
export async function measureStarts(
  starts: number, floorMs: number, prepare: () => Promise<number>, spawners: ((port: number) => Server)[],
  facts: Facts, opts: Options,
): Promise<{ results: StartResult[]; server: Server }> {
  const runs: ReadyResult[][] = spawners.map(() => []);
  let server: Server | null = null;
  for (let i = 0; i < starts; i++) {
    for (let k = 0; k < spawners.length; k++) {
      if (server) await stopServer(server);
      const port = await prepare();
      const t0 = performance.now();
      server = spawners[k]!(port);
      runs[k]!.push(await waitReady(server, t0, facts, opts));
    }
  }
  return { results: runs.map((r) => startResult(r, floorMs)), server: server! };
}

/** The median start of `runs`, with every start's time and the worst probe after ready. */
function startResult(runs: ReadyResult[], floorMs: number): StartResult {
  const byTime = [...runs].sort((x, y) => (x.readyMs ?? Infinity) - (y.readyMs ?? Infinity));
  const mid = byTime[(byTime.length - 1) >> 1]!;
  return {
    ...mid, ratioToFloor: mid.readyMs !== null ? mid.readyMs / floorMs : null, runsMs: runs.map((r) => r.readyMs),
    // Of the probes after ready, the start whose slowest request was slowest: "never blocked" is about the worst.
    afterReadyProbe: runs.reduce<Dist | null>((worst, r) => (r.afterReadyProbe && (!worst || r.afterReadyProbe.max > worst.max) ? r.afterReadyProbe : worst), null),
  };
}

/**
 * GET /api/plans until it answers the facts' list, or the ready timeout passes: the answer's end (in
 * performance.now() time), or null. While the port refuses, it waits for it with bare connects (no HTTP
 * client's cost per attempt). `seen` is told of every answer with its verdict (null: not a plan list).
 */
export async function pollPlanList(
  client: Client, server: Server, t0: number, facts: Facts, opts: Pick<Options, 'readyTimeoutMs' | 'pollGapMs'>,
  seen?: (res: HttpResult, verdict: Verdict | null) => void,
): Promise<number | null> {
  while (performance.now() - t0 < opts.readyTimeoutMs) {
    if (server.exited) throw new Error(`server exited before it was ready (${server.exitInfo})`);
    let res: HttpResult;
    try {
      res = await client.get('/api/plans');
    } catch {
      await waitPortOpen(server.port, opts.readyTimeoutMs - (performance.now() - t0), () => server.exited);
      continue;
    }
    const map = res.status === 200 ? parsePlans(res.body) : null;
    const verdict = map ? verify(map, facts) : null;
    seen?.(res, verdict);
    if (verdict?.ok) return res.endedAt;
    if (opts.pollGapMs > 0) await sleep(opts.pollGapMs);
  }
  return null;
}

export async function waitReady(server: Server, t0: number, facts: Facts, opts: Options): Promise<ReadyResult> {
  const client = new Client(server.port);
  let firstResponseMs: number | null = null;
  let polls = 0;
  let verdict: Verdict | null = null;
  let readyMs: number | null = null;
  let cpuAtReadyMs: number | null = null;
  let stopProbe = false;
  let probeTimes: number[] = [];
  // Set inside the callback below (an object, so the compiler does not take it for always null here).
  const started: { probeLoop: Promise<number[]> | null } = { probeLoop: null };
  try {
    const endedAt = await pollPlanList(client, server, t0, facts, opts, (res, v) => {
      polls++;
      if (firstResponseMs === null) {
        firstResponseMs = res.endedAt - t0;
        started.probeLoop = probeSmallRequests(server.port, () => stopProbe, () => !stopProbe);
      }
      if (v !== null) verdict = v;
    });
    if (endedAt !== null) {
      readyMs = endedAt - t0;
      cpuAtReadyMs = processCpuMs(server.pid);
    }
  } finally {
    stopProbe = true;
    if (started.probeLoop) probeTimes = await started.probeLoop;
    client.close();
  }
  const rss = treeRss(server.pid);
  let afterReadyProbe: Dist | null = null;
  if (readyMs !== null) {
    const t1 = performance.now();
    const times = await probeSmallRequests(server.port, () => performance.now() - t1 >= AFTER_READY_PROBE_MS, (r) => r.status === 200);
    afterReadyProbe = times.length > 0 ? dist(times) : null;
  }
  return {
    readyMs, cpuAtReadyMs, firstResponseMs, polls, verdict, rssBytes: rss.bytes, rssPid: rss.pid,
    probe: probeTimes.length > 0 ? dist(probeTimes) : null, afterReadyProbe,
  };
}

/**
 * After ready, a server may go on with start-up work (here: the watchers' crawl, search filters, the
 * memory scan) on the thread that answers requests: for this long a small request every 20 ms shows
 * whether any waits (the issue: never blocked for more than ~50 ms).
 */
export const AFTER_READY_PROBE_MS = 3000;

/**
 * A small request (`/api/projects`) every 20 ms until `done()`, on its own connection: the latencies of the
 * answers `keep` accepts (a request the server does not answer yet is skipped). Before ready and after it.
 */
async function probeSmallRequests(port: number, done: () => boolean, keep: (r: HttpResult) => boolean): Promise<number[]> {
  const client = new Client(port);
  const times: number[] = [];
  try {
    while (!done()) {
      const r = await client.get('/api/projects').catch(() => null);
      if (r !== null && keep(r)) times.push(r.ms);
      await sleep(20);
    }
  } finally {
    client.close();
  }
  return times;
}

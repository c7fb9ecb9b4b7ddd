// The start-up phases: the process's own cost (a bare Node server, ours on an empty home), cold starts and
// warm restarts on the home.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bareNodeStarts } from './bare-server.js';
import { MB, median, round } from './measure.js';
import type { RunContext } from './run-context.js';
import { freePort, startServer, stopServer, type Server } from './server.js';
import { measureStarts, runsText, waitReady } from './starts.js';

/** Starts the server on the home, in the run's cache dir and log, with `env` (by default this process's). */
function spawnOnHome(run: RunContext, env: NodeJS.ProcessEnv = process.env): (port: number) => Server {
  return (p) => startServer(run.opts.server, run.home, p, run.cacheDir, run.log, env);
}

/** Phase 2: the process's own start-up cost; the server it starts is stopped. */
export async function measureProcessStart(run: RunContext): Promise<void> {
  const { opts, facts, log, results } = run;
  const bareRuns = await bareNodeStarts(opts.starts);
  results.bareNodeReady = bareRuns.length > 0 ? { ms: median(bareRuns), runsMs: bareRuns.map((ms) => round(ms, 1)) } : null;
  console.log(`bare node:http server ready: ${results.bareNodeReady ? `${results.bareNodeReady.ms.toFixed(0)} ms` : 'never'}`);
  const emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), 'pmv-bench-empty-'));
  fs.mkdirSync(path.join(emptyHome, 'plans'));
  fs.mkdirSync(path.join(emptyHome, 'projects'));
  const emptyCache = fs.mkdtempSync(path.join(os.tmpdir(), 'pmv-bench-cache-'));
  try {
    let port0 = await freePort();
    let t00 = performance.now();
    run.server = startServer(opts.server, emptyHome, port0, emptyCache, log);
    const empty = await waitReady(run.server, t00, { ...facts, plans: {} }, opts);
    await stopServer(run.server);
    // Twice: the first start also warms the page cache for the server's own code.
    port0 = await freePort();
    t00 = performance.now();
    run.server = startServer(opts.server, emptyHome, port0, emptyCache, log);
    const empty2 = await waitReady(run.server, t00, { ...facts, plans: {} }, opts);
    await stopServer(run.server);
    results.emptyHomeReadyMs = empty2.readyMs ?? empty.readyMs;
    results.emptyHomeRssBytes = empty2.rssBytes;
    console.log(`empty home ready: ${results.emptyHomeReadyMs?.toFixed(0) ?? 'never'} ms`);
  } finally {
    fs.rmSync(emptyHome, { recursive: true, force: true });
    fs.rmSync(emptyCache, { recursive: true, force: true });
  }
}

/** Phase 3: cold starts; returns the server of the last one, still running. */
export async function measureColdStarts(run: RunContext): Promise<Server> {
  const { opts, facts, cacheDir, results, warn } = run;
  const colds = await measureStarts(opts.starts, run.readFloor.ms, async () => {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.mkdirSync(cacheDir);
    return freePort();
  }, [spawnOnHome(run)], facts, opts);
  run.server = colds.server;
  const cold = colds.results[0]!;
  results.cold = cold;
  if (cold.readyMs === null) warn(`cold start: plan list never correct: ${JSON.stringify(cold.verdict)}`);
  console.log(`cold ready: ${cold.readyMs?.toFixed(0) ?? 'never'} ms (median of ${runsText(cold.runsMs)}), ` +
    `RSS ${(cold.rssBytes / MB).toFixed(0)} MB`);
  return colds.server;
}

/**
 * Phase 6: stops `server` (timed), then warm restarts; returns the server of the last start measured as
 * everywhere else, still running.
 */
export async function measureWarmRestarts(run: RunContext, server: Server): Promise<Server> {
  const { opts, facts, results, warn } = run;
  results.stopMs = await stopServer(server);
  const { NODE_EXTRA_CA_CERTS: extraCa, ...withoutCa } = process.env;
  const spawnOn = spawnOnHome(run);
  const spawnWithoutCa = spawnOnHome(run, withoutCa);
  const warms = await measureStarts(opts.starts, run.readFloor.ms, () => freePort(),
    extraCa === undefined ? [spawnOn] : [spawnWithoutCa, spawnOn], facts, opts);
  run.server = warms.server;
  const warm = warms.results.at(-1)!;
  results.warm = warm;
  results.warmWithoutExtraCa = extraCa === undefined ? null : warms.results[0]!;
  if (results.warmWithoutExtraCa) {
    console.log(`warm ready without NODE_EXTRA_CA_CERTS: ${results.warmWithoutExtraCa.readyMs?.toFixed(0) ?? 'never'} ms ` +
      `(median of ${runsText(results.warmWithoutExtraCa.runsMs)})`);
  }
  if (warm.readyMs === null) warn(`warm restart: plan list never correct: ${JSON.stringify(warm.verdict)}`);
  console.log(`warm ready: ${warm.readyMs?.toFixed(0) ?? 'never'} ms (median of ${runsText(warm.runsMs)})`);
  return warms.server;
}

// Benchmark runner: generates (or reuses) a synthetic home, starts a server on it, and measures start-up,
// latency, throughput, memory and freshness. See docs/benchmark.md.
//
//   node --import tsx bench/run.ts [--preset small|full] [--server "node dist/cli.js"] [--home DIR] [--out FILE]
//
// Every load targets 127.0.0.1, bounded in count and time. Timings are reported, never asserted.
// The phases live in files named for what they measure; this file runs them in order and writes the results.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureAppendCost } from './append-cost.js';
import { measureAppendInProcess } from './append-in-process.js';
import { measureFind } from './find.js';
import { measureFirstScreen, type FirstScreen } from './first-screen.js';
import { measureFreshness } from './freshness.js';
import { measureHistory } from './history.js';
import { measureHostileFiles } from './hostile.js';
import { watchHomeChanges } from './home-changes.js';
import { prepareHome, undo } from './home.js';
import { measureLatencies } from './latency.js';
import { measureMcpFirstSearch, MCP_QUERY, type McpFirstSearch } from './mcp-first.js';
import { cpuSpeedSamples, MB, round, treeRss, waitSettled } from './measure.js';
import { REPO, parseOptions } from './options.js';
import { measureReadFloor } from './read-floor.js';
import { report } from './report.js';
import type { Results } from './results.js';
import type { RunContext } from './run-context.js';
import { freePort, killAll, startServer, stopServer, type Server } from './server.js';
import { waitReady } from './starts.js';
import { measureColdStarts, measureProcessStart, measureWarmRestarts } from './startup.js';
import { measureThroughput } from './throughput.js';

async function main(): Promise<void> {
  const opts = parseOptions();
  if (opts.server === 'node dist/cli.js' && !fs.existsSync(path.join(REPO, 'dist', 'cli.js'))) {
    throw new Error('dist/cli.js is missing: run `npm run build:server` (or pass --server)');
  }
  const warnings: string[] = [];
  const warn = (msg: string): void => {
    warnings.push(msg);
    console.warn(`! ${msg}`);
  };
  const load = os.loadavg()[0] ?? 0;
  if (load > 1) warn(`load average ${load.toFixed(2)} at start: other work shares the CPUs, timings are noisy`);
  const { home, facts, generatedMs } = await prepareHome(opts);
  console.log(`home ${home}: ${facts.counts.plans} plans, ${(facts.counts.logBytes / MB).toFixed(0)} MB logs` +
    (generatedMs !== null ? ` (generated in ${(generatedMs / 1000).toFixed(1)} s)` : ' (reused)'));

  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  const log = fs.createWriteStream(opts.out.replace(/\.json$/, '') + '.server.log');
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmv-bench-cache-'));
  const onSignal = (): void => {
    killAll();
    undo(home);
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killAll);

  const speedBefore = cpuSpeedSamples();
  // 1. Read floor: every .md and .jsonl byte, twice; the second (warm) pass counts.
  const readFloor = measureReadFloor(home);

  const results: Partial<Results> = {
    startedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '?', memGB: round(os.totalmem() / 1024 ** 3, 1),
      kernel: os.release(), node: process.version, platform: process.platform,
      loadAvgAtStart: os.loadavg().map((x) => round(x, 2)),
      // Node 20 loads this bundle at every start, before any of the server's code runs.
      nodeExtraCaCerts: process.env.NODE_EXTRA_CA_CERTS ?? null,
    },
    server: opts.server,
    preset: opts.preset,
    home: { dir: home, params: opts.params, counts: facts.counts, generatedMs },
    readFloor,
    warnings,
  };
  const run: RunContext = { opts, home, facts, log, cacheDir, readFloor, results, warn, server: null };

  try {
    if (opts.only === 'find') {
      results.find = await measureFind(home);
      results.rssEndBytes = process.memoryUsage().rss;
    } else if (opts.only === 'mcp') {
      results.mcpFirstSearch = await mcpFirstSearch(run);
    } else if (opts.only === 'hostile' || opts.only === 'first-screen') {
      const port = await freePort();
      const server = startServer(opts.server, home, port, cacheDir, log);
      run.server = server;
      const ready = await waitReady(server, performance.now(), facts, opts);
      if (ready.readyMs === null) throw new Error('the server never listed the home correctly');
      if (opts.only === 'hostile') results.hostile = await measureHostileFiles(run, server);
      else results.firstScreen = await firstScreen(run, server);
      results.rssEndBytes = treeRss(server.pid).bytes;
    } else if (opts.only === 'history') {
      results.history = await measureHistory(run);
      if (run.server) results.rssEndBytes = treeRss(run.server.pid).bytes;
    } else {
      await allPhases(run);
    }
  } catch (err) {
    warn(`aborted: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  } finally {
    if (run.server) await stopServer(run.server);
    killAll();
    undo(home);
    fs.rmSync(cacheDir, { recursive: true, force: true });
    log.end();
  }
  if (process.exitCode !== 1 && opts.only === null) {
    // 9b. A fresh MCP process's first search (the server is stopped: nothing else shares the cores).
    results.mcpFirstSearch = await mcpFirstSearch(run);
    // 10. The same appends to the session index alone, with no server running: the per-byte cost resolved.
    try {
      const a = await measureAppendInProcess({
        logBytes: opts.bigLogBytes, hugeShare: opts.params.hugeShare, rounds: opts.appendRounds, warmup: opts.appendWarmup,
      });
      results.appendInProcess = a;
      console.log(`append in process: 1 MB ${a.mb.medianMs.toFixed(3)} ms, 1 MB of ordinary lines ` +
        `${a.mbOrdinary.medianMs.toFixed(3)} ms, 1 line ${a.line.medianMs.toFixed(3)} ms (read 1 MB: ${a.read1MbMs.toFixed(3)} ms)`);
    } catch (err) {
      warn(`append in process failed: ${err instanceof Error ? err.message : String(err)}`);
      results.appendInProcess = null;
      process.exitCode = 1;
    }
  }
  const speedAfter = cpuSpeedSamples();
  const all = [...speedBefore, ...speedAfter];
  results.cpuSteadiness = { beforeMs: speedBefore, afterMs: speedAfter, spread: round(Math.max(...all) / Math.min(...all), 2) };

  const r = results as Partial<Results> & Pick<Results, 'home' | 'readFloor' | 'warnings'>;
  fs.writeFileSync(opts.out, JSON.stringify(r, null, 2) + '\n');
  console.log('\n' + report(r));
  console.log(`\nresults: ${path.relative(process.cwd(), opts.out)}`);
}

/** Phases 2 to 9, each on the server the one before left running. */
async function allPhases(run: RunContext): Promise<void> {
  const { results } = run;
  // 2. The process's own start-up cost: a bare Node server, then ours on an empty home (no plans, no logs).
  await measureProcessStart(run);

  // 3. Cold starts (fresh server cache dir, warm page cache).
  let server = await measureColdStarts(run);

  // 4. Sequential latencies, in steady state: once the server has gone idle after start (its search filters
  // are built in the background within about a second; a search before that scans the folded texts).
  const probe = await measureLatencies(run, server);

  // 5. Throughput.
  await measureThroughput(run, server, probe);

  // 5b. The first screen in a browser, against the warm server.
  results.firstScreen = await firstScreen(run, server);

  // 6. Warm restarts with the home unchanged. When NODE_EXTRA_CA_CERTS is set, starts without it take turns
  // with those as measured everywhere else; the last of the latter keeps running for what follows.
  server = await measureWarmRestarts(run, server);

  // 7. Freshness: a new plan (atomic write), its deletion, a log line linking an orphan plan.
  const changes = watchHomeChanges(run, server);
  await measureFreshness(run, server, changes);

  // 8. Appending 1 MB to a 200 MB log.
  await measureAppendCost(run, server, changes);
  results.rssEndBytes = treeRss(server.pid).bytes;

  // 9. Huge plans and memory files saved and read.
  results.hostile = await measureHostileFiles(run, server);
}

/** A fresh MCP process's first complete search, with the server of the other phases stopped. */
async function mcpFirstSearch(run: RunContext): Promise<McpFirstSearch | null> {
  try {
    const m = await measureMcpFirstSearch(run.home, MCP_QUERY, run.opts.starts);
    console.log(`mcp first search: ${m.coldMs} ms with no cache, ${m.warmMs} ms warm (${m.warmRunsMs.join(', ')}), ${m.total} results`);
    return m;
  } catch (err) {
    run.warn(`mcp first search not measured: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    return null;
  }
}

/** The first-screen phase; a machine without Chromium skips it with a warning instead of failing the run. */
async function firstScreen(run: RunContext, server: Server): Promise<FirstScreen | null> {
  try {
    // A warm server: the one the page loads are measured against has finished its start-up work (the
    // background builds of the history and the find index), which would otherwise share the cores.
    if (!(await waitSettled(server.pid))) run.warn('first screen: the server did not go idle within 180 s');
    const f = await measureFirstScreen(server, run.opts.pageLoads);
    console.log(`first screen: plan rows ${f.medianMs} ms after navigation (median of ${f.loads}: ${f.rowsMs.join(', ')}), ` +
      `${Math.round(f.transferBytes / 1024)} KB over the wire`);
    return f;
  } catch (err) {
    run.warn(`first screen not measured: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    return null;
  }
}

const invoked = process.argv[1] ? fs.realpathSync(process.argv[1]) : '';
if (invoked === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    killAll();
    process.exitCode = 1;
  });
}

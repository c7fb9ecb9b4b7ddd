// Cold starts and warm restarts of several server commands on one home, taking turns (A B A B ...), so that
// a slower spell of this shared machine weighs on each alike: how an A/B question about start-up is settled
// (docs/decisions.md). Timed as the benchmark times them (bench/starts.ts); each command keeps its own cache
// dir for its warm restarts, made by a cold start of the same command.
//
//   node --import tsx bench/compare-starts.ts --server "node /tmp/a/dist/cli.js" --server "node dist/cli.js" \
//     [--starts N] [--preset small|full] [--home DIR] [--out FILE]
//
// A command may set variables with env(1): --server "env NODE_DISABLE_COMPILE_CACHE=1 node dist/cli.js".

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareHome, undo } from './home.js';
import { median, round } from './measure.js';
import { parseOptions, REPO } from './options.js';
import { measureReadFloor } from './read-floor.js';
import { freePort, killAll, startServer, stopServer, type Server } from './server.js';
import { waitReady } from './starts.js';

/** The --server values, taken out of argv: the other flags are the benchmark's own (bench/options.ts). */
function takeServers(): string[] {
  const servers: string[] = [];
  for (let i = 2; i < process.argv.length; i++) {
    if (process.argv[i] === '--server' && process.argv[i + 1] !== undefined) {
      servers.push(...process.argv.splice(i, 2).slice(1));
      i--;
    }
  }
  if (servers.length < 2) throw new Error('give at least two --server commands to compare');
  return servers;
}

type Run = { ms: number | null; cpuMs: number | null };

const range = (xs: number[]): string =>
  xs.length === 0 ? 'n/a' : `median ${median(xs).toFixed(0)}, ${Math.min(...xs).toFixed(0)} to ${Math.max(...xs).toFixed(0)}`;

/**
 * Each command's starts, then their differences from the first command's start of the same turn: the
 * turns share the machine's spells of load, their differences less so.
 */
function summary(runs: Run[], reference: Run[]): string {
  const ms = runs.map((r) => r.ms).filter((x): x is number => x !== null);
  const cpu = runs.map((r) => r.cpuMs).filter((x): x is number => x !== null);
  const delta = (key: keyof Run): number[] => runs.flatMap((r, i) => {
    const a = r[key];
    const b = reference[i]?.[key];
    return a === null || b === null || b === undefined ? [] : [a - b];
  });
  return `ready ${range(ms)} ms (${runs.map((r) => (r.ms === null ? 'never' : r.ms.toFixed(0))).join(', ')}); ` +
    `CPU at ready ${range(cpu)} ms\n    minus the first command's, turn by turn: ready ${range(delta('ms'))} ms; CPU ${range(delta('cpuMs'))} ms`;
}

async function main(): Promise<void> {
  const servers = takeServers();
  const opts = parseOptions();
  const { home, facts } = await prepareHome(opts);
  const readFloor = measureReadFloor(home);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pmv-compare-'));
  const log = fs.createWriteStream(path.join(root, 'servers.log'));
  const loadAtStart = os.loadavg().map((x) => round(x, 2));
  const cold: Run[][] = servers.map(() => []);
  const warm: Run[][] = servers.map(() => []);
  const cacheOf = (k: number): string => path.join(root, `cache-${k}`);
  let server: Server | null = null;
  const start = async (k: number): Promise<Run> => {
    if (server) await stopServer(server);
    const port = await freePort();
    const t0 = performance.now();
    server = startServer(servers[k]!, home, port, cacheOf(k), log);
    const ready = await waitReady(server, t0, facts, opts);
    return { ms: ready.readyMs === null ? null : round(ready.readyMs, 1), cpuMs: ready.cpuAtReadyMs };
  };
  try {
    for (let i = 0; i < opts.starts; i++) {
      for (let k = 0; k < servers.length; k++) {
        fs.rmSync(cacheOf(k), { recursive: true, force: true });
        fs.mkdirSync(cacheOf(k));
        cold[k]!.push(await start(k));
      }
    }
    // The last cold start of each command left its cache dir; those that ended early get one made now,
    // given the time its deferred writes take (the caches 2 s after start).
    for (let k = 0; k < servers.length - 1; k++) {
      fs.rmSync(cacheOf(k), { recursive: true, force: true });
      fs.mkdirSync(cacheOf(k));
      await start(k);
    }
    for (let i = 0; i < opts.starts; i++) {
      for (let k = 0; k < servers.length; k++) warm[k]!.push(await start(k));
    }
  } finally {
    if (server) await stopServer(server);
    killAll();
    undo(home);
    log.end();
  }
  const results = {
    startedAt: new Date().toISOString(), node: process.version, home, counts: facts.counts, readFloorMs: round(readFloor.ms, 1),
    loadAvg: { atStart: loadAtStart, atEnd: os.loadavg().map((x) => round(x, 2)) },
    servers: servers.map((cmd, k) => ({ cmd, cold: cold[k]!, warm: warm[k]! })),
  };
  const out = opts.out.replace(/([^/]+)\.json$/, 'compare-$1.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`read floor ${readFloor.ms.toFixed(0)} ms; load average ${loadAtStart.join(' ')} at start, ${results.loadAvg.atEnd.join(' ')} at end`);
  servers.forEach((cmd, k) => {
    console.log(`${cmd}\n  cold: ${summary(cold[k]!, cold[0]!)}\n  warm: ${summary(warm[k]!, warm[0]!)}`);
  });
  console.log(`results: ${path.relative(REPO, out)}`);
  fs.rmSync(root, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  killAll();
  process.exitCode = 1;
});

// Throughput of /api/plans under load from bench/load.ts, and the same load against a bare node:http server
// serving the same bytes: this machine's ceiling.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BARE_SERVER } from './bare-server.js';
import { RawClient, type RawResult } from './http1.js';
import { latency, type EndpointResult } from './latency.js';
import { loadTest, type Throughput } from './load.js';
import { treeRss } from './measure.js';
import type { Options } from './options.js';
import type { RunContext } from './run-context.js';
import { freePort, type Server } from './server.js';

/** Load on `/api/plans` from bench/load.ts (a separate process), every 200 checked to be `expectBytes` long. */
function loadPlans(port: number, opts: Options, connections: number, expectBytes?: number): Promise<Throughput> {
  const durationS = connections === 1 ? Math.max(1, Math.round(opts.duration / 2)) : opts.duration;
  return loadTest({ port, path: '/api/plans', connections, durationS, expectBytes });
}

interface BareCeiling {
  many: Throughput;
  one: Throughput;
  /** Sequential latency of the same bytes: the floor that client, kernel and node:http set for our figure. */
  sequential: EndpointResult;
}

/** The same load against a bare node:http server handing out the same prebuilt body: this machine's ceiling. */
async function bareCeiling(body: Buffer, opts: Options): Promise<BareCeiling> {
  const file = path.join(os.tmpdir(), `pmv-bench-body-${process.pid}.json`);
  fs.writeFileSync(file, body);
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER, file, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
    });
    const client = new RawClient(port);
    const sequential = await latency(client, '/api/plans', opts);
    client.close();
    const many = await loadPlans(port, opts, opts.connections, body.length);
    const one = await loadPlans(port, opts, 1, body.length);
    return { many, one, sequential };
  } finally {
    if (child.pid !== undefined && child.exitCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      process.kill(child.pid, 'SIGTERM');
      await gone;
    }
    fs.rmSync(file, { force: true });
  }
}

/**
 * Phase 5: the load on /api/plans, with --connections connections and with one, each 200 checked to be as
 * long as `probe` (the plan list from the latency phase); then the bare server's ceiling on the same body.
 */
export async function measureThroughput(run: RunContext, server: Server, probe: RawResult): Promise<void> {
  const { opts, results, warn } = run;
  const expectBytes = probe.status === 200 ? probe.bodyBytes : undefined;
  const checkLoad = (name: string, t: Throughput): Throughput => {
    if (t.errors > 0 || t.non2xx > 0) {
      warn(`${name}: ${t.errors} errors, ${t.non2xx} non-2xx (${JSON.stringify(t.statuses)}): ${t.errorExamples.join('; ')}`);
    }
    // Past ~90% of a core the generator, not the server, may be what limits the rate.
    if (t.clientCpuShare > 0.9) warn(`${name}: the load generator used ${(t.clientCpuShare * 100).toFixed(0)}% of a core`);
    return t;
  };
  for (const [key, connections] of [['throughput', opts.connections], ['throughputOneConnection', 1]] as const) {
    try {
      results[key] = checkLoad(key, await loadPlans(server.port, opts, connections, expectBytes));
    } catch (err) {
      results[key] = null;
      warn(String(err));
    }
  }
  console.log(`throughput: ${results.throughput?.requestsPerSec.toFixed(0) ?? 'n/a'} req/s ` +
    `(1 connection: ${results.throughputOneConnection?.requestsPerSec.toFixed(0) ?? 'n/a'})`);
  if (probe.status === 200 && probe.body) {
    try {
      const bare = await bareCeiling(probe.body, opts);
      results.bareCeiling = checkLoad('bareCeiling', bare.many);
      results.bareCeilingOneConnection = checkLoad('bareCeilingOneConnection', bare.one);
      results.bareLatency = bare.sequential;
      console.log(`bare node:http, same body: ${bare.many.requestsPerSec.toFixed(0)} req/s ` +
        `(1 connection: ${bare.one.requestsPerSec.toFixed(0)}), sequential p50 ${bare.sequential.p50.toFixed(2)} ms`);
    } catch (err) {
      results.bareCeiling = null;
      warn(String(err));
    }
  }
  results.rssAfterLoadBytes = treeRss(server.pid).bytes;
}

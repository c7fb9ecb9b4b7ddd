// Benchmark runner: generates (or reuses) a synthetic home, starts a server on it, and measures start-up,
// latency, throughput, memory and freshness. See docs/benchmark.md.
//
//   node --import tsx bench/run.ts [--preset small|full] [--server "node dist/cli.js"] [--home DIR] [--out FILE]
//
// Every load targets 127.0.0.1, bounded in count and time. Timings are reported, never asserted.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  GENERATOR_VERSION, Rng, conversationLine, encodeProjectDir, generateHome, parseBytes, writeLogChunk,
  type Facts, type HomeParams, type LineContext, type SessionFact,
} from './generate-home.js';
import { pageAlignedBuffers } from '../src/domain/alignedBuffers.js';
import { measureCost, seOfDifference, type KindCost, type Round } from './cpu-cost.js';
import { RawClient, type RawResult } from './http1.js';
import { loadTest, type Throughput } from './load.js';
import {
  Client, cpuDeltaMs, cpuSpeedSamples, dist, listFiles, median, readAll, readRangeMs, round, sleep, table, treeCpu, treeRss,
  waitPortOpen, waitQuiet, type Dist, type HttpResult,
} from './measure.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;

const PRESETS: Record<string, HomeParams> = {
  full: { plans: 3000, projects: 300, logBytes: 2 * 1024 * MB, hugeShare: 0.02, memorySources: 150, topics: 10, seed: 1 },
  small: { plans: 300, projects: 30, logBytes: 100 * MB, hugeShare: 0.02, memorySources: 15, topics: 10, seed: 1 },
};

interface Options {
  server: string;
  home: string | null;
  params: HomeParams;
  preset: string;
  out: string;
  requests: number;
  warmup: number;
  duration: number;
  connections: number;
  bigLogBytes: number;
  readyTimeoutMs: number;
  pollGapMs: number;
  rounds: number;
  starts: number;
  cpuRounds: number;
  cpuWindowS: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: 'node dist/cli.js' },
      home: { type: 'string' },
      preset: { type: 'string', default: 'full' },
      out: { type: 'string' },
      plans: { type: 'string' },
      projects: { type: 'string' },
      'log-bytes': { type: 'string' },
      'huge-share': { type: 'string' },
      'memory-sources': { type: 'string' },
      topics: { type: 'string' },
      seed: { type: 'string' },
      requests: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '20' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '16' },
      'big-log': { type: 'string', default: '200MB' },
      'ready-timeout': { type: 'string', default: '300' },
      'poll-gap-ms': { type: 'string', default: '0' },
      rounds: { type: 'string', default: '3' },
      starts: { type: 'string', default: '5' },
      'cpu-rounds': { type: 'string', default: '5' },
      'cpu-window': { type: 'string', default: '11' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(`usage: node --import tsx bench/run.ts [options]
  --server CMD         server command; gets --port --host --claude-dir appended (default "node dist/cli.js", run in the repo)
  --preset small|full  home size (full: 3000 plans, 300 projects, 2 GB logs, 150 memory sources x 10 topics)
  --home DIR           use/generate this home (default: a cache dir under ${os.tmpdir()} keyed by the params)
  --plans --projects --log-bytes --huge-share --memory-sources --topics --seed   override preset params
  --out FILE           results JSON (default bench/results/<timestamp>.json)
  --requests N --warmup N   sequential requests per endpoint (200, 20)
  --duration S --connections N   load on /api/plans from bench/load.ts (10 s, 16 keep-alive connections)
  --big-log SIZE       log used for the 1 MB append test (200MB)
  --ready-timeout S    give up waiting for a correct plan list (300)
  --poll-gap-ms MS     pause between readiness polls (0: as fast as possible)
  --rounds N           repetitions of each freshness measure (3)
  --starts N           cold starts and warm restarts measured; the median counts (5)
  --cpu-rounds N       rounds of each kind (1 MB, 1 line, control) for the append CPU cost (5)
  --cpu-window S       whole seconds per CPU round; must hold the server's deferred work (11: it saves 10 s after a change)`);
    process.exit(0);
  }
  const preset = PRESETS[values.preset];
  if (!preset) throw new Error(`unknown preset ${values.preset} (small|full)`);
  const params: HomeParams = { ...preset };
  if (values.plans) params.plans = Number(values.plans);
  if (values.projects) params.projects = Number(values.projects);
  if (values['log-bytes']) params.logBytes = parseBytes(values['log-bytes']);
  if (values['huge-share']) params.hugeShare = Number(values['huge-share']);
  if (values['memory-sources']) params.memorySources = Number(values['memory-sources']);
  if (values.topics) params.topics = Number(values.topics);
  if (values.seed) params.seed = Number(values.seed);
  const positive = (value: string, name: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number, at least 1`);
    return n;
  };
  const cpuWindowS = Number(values['cpu-window']);
  if (!Number.isInteger(cpuWindowS) || cpuWindowS < 2) throw new Error('--cpu-window takes whole seconds, at least 2');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    server: values.server,
    home: values.home ? path.resolve(values.home) : null,
    params,
    preset: values.preset,
    out: path.resolve(values.out ?? path.join(REPO, 'bench', 'results', `${stamp}.json`)),
    requests: Number(values.requests),
    warmup: Number(values.warmup),
    duration: Number(values.duration),
    connections: Number(values.connections),
    bigLogBytes: parseBytes(values['big-log']),
    readyTimeoutMs: Number(values['ready-timeout']) * 1000,
    pollGapMs: Number(values['poll-gap-ms']),
    rounds: Number(values.rounds),
    starts: positive(values.starts, '--starts'),
    cpuRounds: Number(values['cpu-rounds']),
    cpuWindowS,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Home and undo journal (the runner mutates the home; the journal restores it even after a crash)

interface Journal {
  remove: string[];
  truncate: { file: string; size: number }[];
}

function journalPath(home: string): string {
  return `${home}.bench-undo.json`;
}

function loadJournal(home: string): Journal {
  try {
    return JSON.parse(fs.readFileSync(journalPath(home), 'utf8')) as Journal;
  } catch {
    return { remove: [], truncate: [] };
  }
}

function saveJournal(home: string, j: Journal): void {
  fs.writeFileSync(journalPath(home), JSON.stringify(j));
}

function undo(home: string): void {
  const j = loadJournal(home);
  for (const f of j.remove) fs.rmSync(f, { force: true });
  // Truncate in reverse order of recording: the first recorded size of a file is the original one.
  for (const t of [...j.truncate].reverse()) {
    try {
      fs.truncateSync(t.file, t.size);
    } catch {
      /* gone */
    }
  }
  fs.rmSync(journalPath(home), { force: true });
}

function recordRemove(home: string, file: string): void {
  const j = loadJournal(home);
  j.remove.push(file);
  saveJournal(home, j);
}

function recordTruncate(home: string, file: string): void {
  const j = loadJournal(home);
  j.truncate.push({ file, size: fs.statSync(file).size });
  saveJournal(home, j);
}

async function prepareHome(opts: Options): Promise<{ home: string; facts: Facts; generatedMs: number | null }> {
  const key = createHash('sha1').update(JSON.stringify({ v: GENERATOR_VERSION, ...opts.params })).digest('hex').slice(0, 12);
  const home = opts.home ?? path.join(os.tmpdir(), 'plan-memory-viewer-bench', `home-${key}`);
  undo(home);
  const factsFile = path.join(home, 'facts.json');
  if (fs.existsSync(factsFile)) {
    const facts = JSON.parse(fs.readFileSync(factsFile, 'utf8')) as Facts;
    if (facts.generator === GENERATOR_VERSION) return { home, facts, generatedMs: null };
  }
  if (opts.home && fs.existsSync(home) && fs.readdirSync(home).length > 0 && !fs.existsSync(factsFile)) {
    throw new Error(`${home} is not empty and holds no facts.json: refusing to overwrite it`);
  }
  console.log(`generating home in ${home} ...`);
  const t0 = performance.now();
  const facts = await generateHome(home, opts.params);
  return { home, facts, generatedMs: performance.now() - t0 };
}

// ---------------------------------------------------------------------------------------------------------
// Server process

interface Server {
  child: ChildProcess;
  pid: number;
  port: number;
  exited: boolean;
  exitInfo: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const running = new Set<Server>();

function startServer(
  cmd: string, home: string, port: number, cacheDir: string, log: fs.WriteStream, baseEnv: NodeJS.ProcessEnv = process.env,
): Server {
  const quoted = `'${home.replace(/'/g, `'\\''`)}'`;
  const child = spawn('/bin/sh', ['-c', `exec ${cmd} --port ${port} --host 127.0.0.1 --claude-dir ${quoted}`], {
    cwd: REPO,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...baseEnv, XDG_CACHE_HOME: cacheDir, CLAUDE_CONFIG_DIR: home },
  });
  if (child.pid === undefined) throw new Error(`could not spawn: ${cmd}`);
  const server: Server = { child, pid: child.pid, port, exited: false, exitInfo: '' };
  child.stdout?.on('data', (d: Buffer) => log.write(d));
  child.stderr?.on('data', (d: Buffer) => log.write(d));
  child.on('exit', (code, signal) => {
    server.exited = true;
    server.exitInfo = `exit code ${code} signal ${signal}`;
    running.delete(server);
  });
  running.add(server);
  return server;
}

async function stopServer(server: Server): Promise<number> {
  const t0 = performance.now();
  if (server.exited) return 0;
  const done = new Promise<void>((r) => server.child.once('exit', () => r()));
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  const timedOut = await Promise.race([done.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    await done;
  }
  return performance.now() - t0;
}

function killAll(): void {
  for (const s of running) {
    try {
      process.kill(-s.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Plan list: parse and verify against the facts

type PlanMap = Map<string, { project: string | null; sessionId: string | null }>;

function parsePlans(body: Buffer): PlanMap | null {
  try {
    const doc = JSON.parse(body.toString('utf8')) as { plans?: unknown };
    if (!Array.isArray(doc.plans)) return null;
    const map: PlanMap = new Map();
    for (const p of doc.plans as { filename: string; project: string | null; sessionId: string | null }[]) {
      map.set(p.filename, { project: p.project ?? null, sessionId: p.sessionId ?? null });
    }
    return map;
  } catch {
    return null;
  }
}

interface Verdict {
  ok: boolean;
  listed: number;
  missing: number;
  wrong: number;
  extra: number;
  examples: string[];
}

function verify(map: PlanMap, facts: Facts): Verdict {
  const v: Verdict = { ok: false, listed: map.size, missing: 0, wrong: 0, extra: 0, examples: [] };
  for (const [filename, want] of Object.entries(facts.plans)) {
    const got = map.get(filename);
    if (!got) {
      v.missing++;
      if (v.examples.length < 5) v.examples.push(`missing ${filename}`);
    } else if (got.project !== want.project || got.sessionId !== want.sessionId) {
      v.wrong++;
      if (v.examples.length < 5) {
        v.examples.push(`${filename}: got ${got.project}/${got.sessionId}, want ${want.project}/${want.sessionId}`);
      }
    }
  }
  for (const filename of map.keys()) if (!(filename in facts.plans)) v.extra++;
  v.ok = v.missing === 0 && v.wrong === 0 && v.extra === 0;
  return v;
}

/** Polls GET /api/plans, using If-None-Match when the server sends an ETag. */
class PlansPoller {
  private etag: string | null = null;
  private map: PlanMap | null = null;
  constructor(private readonly client: Client) {}

  async poll(): Promise<{ map: PlanMap | null; res: HttpResult; endedAt: number }> {
    const headers: Record<string, string> = this.etag ? { 'if-none-match': this.etag } : {};
    const res = await this.client.get('/api/plans', headers);
    const endedAt = res.endedAt;
    if (res.status === 200) {
      this.map = parsePlans(res.body);
      const etag = res.headers.etag;
      this.etag = typeof etag === 'string' ? etag : null;
    } else if (res.status !== 304) {
      this.map = null;
    }
    return { map: this.map, res, endedAt };
  }

  /** Polls until `pred` holds; returns the ms from `t0` to the end of the first response satisfying it. */
  async until(t0: number, pred: (m: PlanMap) => boolean, timeoutMs = 15_000): Promise<number | null> {
    while (performance.now() - t0 < timeoutMs) {
      const { map, endedAt } = await this.poll();
      if (map && pred(map)) return endedAt - t0;
    }
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Measures

interface ReadyResult {
  readyMs: number | null;
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

const runsText = (runs: (number | null)[]): string => runs.map((ms) => (ms === null ? 'never' : ms.toFixed(0))).join(', ');

type StartResult = ReadyResult & { ratioToFloor: number | null; runsMs: (number | null)[] };

/**
 * `starts` starts of the server, each on the port `prepare` returns once it has readied the ground (the
 * server before is stopped first), each timed from spawn to a correct plan list: one start is not a
 * measurement on a machine whose CPU speed varies. The median start counts; the last server keeps running.
 * With several ways to spawn, their starts take turns (A B A B ...), so that a slower spell of this VM
 * weighs on each alike; one result per way, in order.
 */
async function measureStarts(
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

async function waitReady(server: Server, t0: number, facts: Facts, opts: Options): Promise<ReadyResult> {
  const client = new Client(server.port);
  let firstResponseMs: number | null = null;
  let polls = 0;
  let verdict: Verdict | null = null;
  let readyMs: number | null = null;
  let stopProbe = false;
  let probeTimes: number[] = [];
  let probeLoop: Promise<number[]> | null = null;
  try {
    while (performance.now() - t0 < opts.readyTimeoutMs) {
      if (server.exited) throw new Error(`server exited before it was ready (${server.exitInfo})`);
      let res: HttpResult;
      try {
        res = await client.get('/api/plans');
      } catch {
        // Not listening (yet, or any more): wait for the port without an HTTP client's cost per attempt.
        await waitPortOpen(server.port, opts.readyTimeoutMs - (performance.now() - t0), () => server.exited);
        continue;
      }
      const endedAt = res.endedAt;
      polls++;
      if (firstResponseMs === null) {
        firstResponseMs = endedAt - t0;
        probeLoop = probeSmallRequests(server.port, () => stopProbe, () => !stopProbe);
      }
      if (res.status === 200) {
        const map = parsePlans(res.body);
        if (map) {
          verdict = verify(map, facts);
          if (verdict.ok) {
            readyMs = endedAt - t0;
            break;
          }
        }
      }
      if (opts.pollGapMs > 0) await sleep(opts.pollGapMs);
    }
  } finally {
    stopProbe = true;
    if (probeLoop) probeTimes = await probeLoop;
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
    readyMs, firstResponseMs, polls, verdict, rssBytes: rss.bytes, rssPid: rss.pid,
    probe: probeTimes.length > 0 ? dist(probeTimes) : null, afterReadyProbe,
  };
}

/**
 * After ready, a server may go on with start-up work (here: the watchers' crawl, search filters, the
 * memory scan) on the thread that answers requests: for this long a small request every 20 ms shows
 * whether any waits (the issue: never blocked for more than ~50 ms).
 */
const AFTER_READY_PROBE_MS = 3000;

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

interface EndpointResult extends Dist {
  path: string;
  status: number;
  bytes: number;
  correct: boolean | null;
  note?: string;
}

/**
 * Sequential latency: each request timed from its write to its last body byte, bodies counted but not kept.
 * The body is checked on one more, untimed request, so neither the copy nor the parse is in the timings.
 */
async function latency(client: RawClient, urlPath: string, opts: Options, headers: Record<string, string> = {},
  check?: (body: Buffer) => boolean): Promise<EndpointResult> {
  for (let i = 0; i < opts.warmup; i++) await client.get(urlPath, headers);
  const times: number[] = [];
  const statuses = new Set<number>();
  let last: RawResult | null = null;
  for (let i = 0; i < opts.requests; i++) {
    last = await client.get(urlPath, headers);
    times.push(last.ms);
    statuses.add(last.status);
  }
  let correct: boolean | null = null;
  if (check) {
    const checked = await client.get(urlPath, headers, { keepBody: true });
    try {
      correct = checked.body !== null && check(checked.body);
    } catch {
      correct = false;
    }
  }
  const result: EndpointResult = { path: urlPath, ...dist(times), status: last?.status ?? 0, bytes: last?.bodyBytes ?? 0, correct };
  if (statuses.size > 1) result.note = `mixed statuses: ${[...statuses].join(', ')}`;
  return result;
}

function sameSet(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

const BARE_SERVER = `
const fs = require('node:fs');
const http = require('node:http');
const body = fs.readFileSync(process.argv[1]);
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('up\\n'));
`;

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
 * Spawn to first answer of a bare node:http server (BARE_SERVER with a 2-byte body), each start timed as
 * readyMs is: what any Node server pays on this machine before its own code counts, Node's own start
 * included (which here includes loading the CA bundle NODE_EXTRA_CA_CERTS names, when the environment
 * sets it: the servers measured inherit this environment).
 */
async function bareNodeStarts(starts: number): Promise<number[]> {
  const file = path.join(os.tmpdir(), `pmv-bench-bare-${process.pid}.json`);
  fs.writeFileSync(file, '[]');
  const runs: number[] = [];
  try {
    for (let i = 0; i < starts; i++) {
      const port = await freePort();
      const t0 = performance.now();
      const child = spawn(process.execPath, ['-e', BARE_SERVER, file, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
      const exited = new Promise((r) => child.once('exit', r));
      const client = new Client(port);
      try {
        while (performance.now() - t0 < 10_000 && child.exitCode === null) {
          const res = await client.get('/api/plans').catch(() => null);
          if (res?.status === 200) {
            runs.push(res.endedAt - t0);
            break;
          }
          if (res === null) await waitPortOpen(port, 10_000, () => child.exitCode !== null);
        }
      } finally {
        client.close();
        child.kill('SIGTERM');
        await exited;
      }
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
  return runs;
}

function planFacts(facts: Facts): { slugless: SessionFact[]; orphans: string[] } {
  const slugless = facts.sessions.filter((s) => !s.subagent && s.slug === null).sort((a, b) => a.bytes - b.bytes);
  return { slugless, orphans: [...facts.orphanSlugs] };
}

// ---------------------------------------------------------------------------------------------------------
// Main

interface Results {
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
  } | null;
  rssEndBytes: number;
  warnings: string[];
}

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
  const files = [
    ...listFiles(path.join(home, 'plans'), (n) => n.endsWith('.md')),
    ...listFiles(path.join(home, 'projects'), (n) => n.endsWith('.md') || n.endsWith('.jsonl')),
  ];
  // The copy out of the page cache runs ~4x slower into a buffer that starts a few bytes past a page
  // boundary (where glibc puts large allocations) than into one on a boundary, on the AMD EPYC measured
  // here (see src/domain/alignedBuffers.ts): the floor is the best of a few buffer sizes and placements.
  const first = readAll(files, Buffer.allocUnsafe(8 * MB));
  const byBuffer: Record<string, number> = {};
  let floor = { ms: Infinity, bytes: 0 };
  const candidates: [string, Buffer][] = [64, 256, 1024, 8192].map((kb) => [`${kb}KB`, Buffer.allocUnsafe(kb * 1024)]);
  candidates.push(['256KB page-aligned', pageAlignedBuffers(1, 256 * 1024)[0]!]);
  for (const [name, buffer] of candidates) {
    const pass = readAll(files, buffer);
    byBuffer[name] = round(pass.ms, 1);
    if (pass.ms < floor.ms) floor = pass;
  }
  const readFloor = {
    ms: floor.ms, bytes: floor.bytes, files: files.length, mbPerS: floor.bytes / MB / (floor.ms / 1000), firstPassMs: first.ms,
    byBufferMs: byBuffer,
  };
  console.log(`read floor: ${floor.ms.toFixed(0)} ms for ${(floor.bytes / MB).toFixed(0)} MB in ${files.length} files ` +
    `(by buffer size: ${JSON.stringify(byBuffer)})`);

  let server: Server | null = null;
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

  try {
    // 2. The process's own start-up cost: a bare Node server, then ours on an empty home (no plans, no logs).
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
      server = startServer(opts.server, emptyHome, port0, emptyCache, log);
      const empty = await waitReady(server, t00, { ...facts, plans: {} }, opts);
      await stopServer(server);
      // Twice: the first start also warms the page cache for the server's own code.
      port0 = await freePort();
      t00 = performance.now();
      server = startServer(opts.server, emptyHome, port0, emptyCache, log);
      const empty2 = await waitReady(server, t00, { ...facts, plans: {} }, opts);
      await stopServer(server);
      results.emptyHomeReadyMs = empty2.readyMs ?? empty.readyMs;
      results.emptyHomeRssBytes = empty2.rssBytes;
      console.log(`empty home ready: ${results.emptyHomeReadyMs?.toFixed(0) ?? 'never'} ms`);
    } finally {
      fs.rmSync(emptyHome, { recursive: true, force: true });
      fs.rmSync(emptyCache, { recursive: true, force: true });
    }

    // 3. Cold starts (fresh server cache dir, warm page cache).
    const spawnOn = (p: number): Server => startServer(opts.server, home, p, cacheDir, log);
    const colds = await measureStarts(opts.starts, floor.ms, async () => {
      fs.rmSync(cacheDir, { recursive: true, force: true });
      fs.mkdirSync(cacheDir);
      return freePort();
    }, [spawnOn], facts, opts);
    server = colds.server;
    let port = server.port;
    const cold = colds.results[0]!;
    results.cold = cold;
    if (cold.readyMs === null) warn(`cold start: plan list never correct: ${JSON.stringify(cold.verdict)}`);
    console.log(`cold ready: ${cold.readyMs?.toFixed(0) ?? 'never'} ms (median of ${runsText(cold.runsMs)}), ` +
      `RSS ${(cold.rssBytes / MB).toFixed(0)} MB`);

    // 4. Sequential latencies, in steady state: once the server has gone idle after start (its search filters
    // are built in the background within about a second; a search before that scans the folded texts).
    const quietAfterStart = await waitQuiet(server.pid, 300, 3, 10_000);
    if (!quietAfterStart) warn('the server did not go idle within 10 s of ready; latencies include start-up work');
    const client = new RawClient(port);
    const lat: Record<string, EndpointResult> = {};
    const rare = encodeURIComponent(facts.rare.word);
    const common = encodeURIComponent(facts.common.word);
    const mem = encodeURIComponent(facts.memory.word);
    const filenamesOf = (b: Buffer): string[] => (JSON.parse(b.toString()) as { filenames: string[] }).filenames;
    lat.plans = await latency(client, '/api/plans', opts, {}, (b) => {
      const m = parsePlans(b);
      return m !== null && verify(m, facts).ok;
    });
    lat.plansGzip = await latency(client, '/api/plans', opts, { 'accept-encoding': 'gzip' });
    const probe = await client.get('/api/plans', {}, { keepBody: true });
    const etag = probe.headers.etag;
    if (typeof etag === 'string') {
      lat.plans304 = await latency(client, '/api/plans', opts, { 'if-none-match': etag });
    }
    lat.searchRare = await latency(client, `/api/search?q=${rare}`, opts, {},
      (b) => sameSet(filenamesOf(b), facts.rare.filenames));
    lat.searchCommon = await latency(client, `/api/search?q=${common}`, opts, {},
      (b) => filenamesOf(b).length === facts.common.count);
    lat.memory = await latency(client, '/api/memory', opts, {}, (b) => {
      const doc = JSON.parse(b.toString()) as { sources: unknown[]; entries: unknown[] };
      return doc.sources.length >= facts.memory.sources && doc.entries.length >= facts.memory.entries;
    });
    lat.memorySearch = await latency(client, `/api/memory/search?q=${mem}`, opts, {},
      (b) => sameSet((JSON.parse(b.toString()) as { ids: string[] }).ids, facts.memory.ids));
    const someLinked = Object.keys(facts.plans).find((f) => facts.plans[f]?.sessionId) ?? Object.keys(facts.plans)[0];
    if (someLinked) lat.planContent = await latency(client, `/api/plans/${encodeURIComponent(someLinked)}/content`, opts);
    client.close();
    for (const [name, r] of Object.entries(lat)) {
      if (r.status !== 200 && !(name === 'plans304' && r.status === 304)) warn(`${name}: status ${r.status}`);
      if (r.correct === false) warn(`${name}: response does not match the facts`);
    }
    results.latency = lat;
    console.log(`latency p50: plans ${lat.plans.p50.toFixed(2)} ms, search rare ${lat.searchRare.p50.toFixed(2)} ms`);

    // 5. Throughput.
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
        results[key] = checkLoad(key, await loadPlans(port, opts, connections, expectBytes));
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

    // 6. Warm restarts with the home unchanged. When NODE_EXTRA_CA_CERTS is set, starts without it take turns
    // with those as measured everywhere else; the last of the latter keeps running for what follows.
    results.stopMs = await stopServer(server);
    const { NODE_EXTRA_CA_CERTS: extraCa, ...withoutCa } = process.env;
    const spawnWithoutCa = (p: number): Server => startServer(opts.server, home, p, cacheDir, log, withoutCa);
    const warms = await measureStarts(opts.starts, floor.ms, () => freePort(),
      extraCa === undefined ? [spawnOn] : [spawnWithoutCa, spawnOn], facts, opts);
    server = warms.server;
    port = server.port;
    const warm = warms.results.at(-1)!;
    results.warm = warm;
    results.warmWithoutExtraCa = extraCa === undefined ? null : warms.results[0]!;
    if (results.warmWithoutExtraCa) {
      console.log(`warm ready without NODE_EXTRA_CA_CERTS: ${results.warmWithoutExtraCa.readyMs?.toFixed(0) ?? 'never'} ms ` +
        `(median of ${runsText(results.warmWithoutExtraCa.runsMs)})`);
    }
    if (warm.readyMs === null) warn(`warm restart: plan list never correct: ${JSON.stringify(warm.verdict)}`);
    console.log(`warm ready: ${warm.readyMs?.toFixed(0) ?? 'never'} ms (median of ${runsText(warm.runsMs)})`);

    // 7. Freshness: a new plan (atomic write), its deletion, a log line linking an orphan plan.
    let restless = 0;
    const settle = async (pid: number): Promise<void> => {
      if (!(await waitQuiet(pid)) && restless++ === 0) warn('the server never went idle (>= 1% CPU) within 5 s');
    };
    const poller = new PlansPoller(new Client(port));
    const { slugless, orphans } = planFacts(facts);
    const rng = new Rng(opts.params.seed + 1000);
    const fresh: Results['freshness'] = { newPlanMs: [], deletedPlanGoneMs: [], linkMs: [] };
    const tag = Date.now().toString(36);
    const plansDir = path.join(home, 'plans');
    for (let k = 0; k < opts.rounds; k++) {
      await settle(server.pid);
      const name = `bench-fresh-${tag}-${k}-happy-otter.md`;
      const file = path.join(plansDir, name);
      const tmp = `${file}.tmp.${process.pid}.${randomBytes(6).toString('hex')}`;
      recordRemove(home, file);
      recordRemove(home, tmp);
      const t = performance.now();
      fs.writeFileSync(tmp, `# Plan: Fresh plan ${k}\n\n## Context\n\nWritten by the benchmark.\n`);
      fs.renameSync(tmp, file);
      fresh.newPlanMs.push(await poller.until(t, (m) => m.has(name)));
      await settle(server.pid);
      const td = performance.now();
      fs.rmSync(file);
      fresh.deletedPlanGoneMs.push(await poller.until(td, (m) => !m.has(name)));
    }
    const midSessions = slugless.slice(Math.floor(slugless.length / 2));
    for (let k = 0; k < opts.rounds; k++) {
      const s = midSessions[k];
      const slug = orphans.shift();
      if (!s || !slug) {
        warn('not enough slugless sessions or orphan plans for the link test');
        break;
      }
      await settle(server.pid);
      const file = path.join(home, s.file);
      recordTruncate(home, file);
      const ctx: LineContext = { cwd: s.cwd, sessionId: s.sessionId, slug, agentId: null, time: Date.now(), parent: null };
      const line = conversationLine(rng, ctx, 'Let us plan this.');
      const t = performance.now();
      fs.appendFileSync(file, line);
      fresh.linkMs.push(await poller.until(t, (m) => {
        const p = m.get(`${slug}.md`);
        return p?.project === s.project && p.sessionId === s.sessionId;
      }));
    }
    results.freshness = fresh;
    if (fresh.newPlanMs.includes(null)) warn('a new plan was not listed within 15 s');
    if (fresh.linkMs.includes(null)) warn('an appended log line did not link its plan within 15 s');
    console.log(`fresh: new plan ${fresh.newPlanMs.map((x) => x?.toFixed(0)).join('/')} ms, ` +
      `link ${fresh.linkMs.map((x) => x?.toFixed(0)).join('/')} ms`);

    // 8. Appending 1 MB to a 200 MB log.
    const host = slugless[0] ?? facts.sessions[0];
    // Each CPU round with an append links a fresh orphan plan; the big log and the latency round take two.
    const cpuRoundCount = Math.min(opts.cpuRounds, Math.floor((orphans.length - 2) / 2));
    if (cpuRoundCount < opts.cpuRounds) warn(`only ${orphans.length} orphan plans: ${cpuRoundCount} CPU rounds of each kind`);
    if (!host || cpuRoundCount < 2) {
      warn('not enough orphan plans for the append test');
      results.append = null;
    } else {
      const sessionId = randomUUID();
      const bigLog = path.join(home, 'projects', encodeProjectDir(host.cwd), `${sessionId}.jsonl`);
      recordRemove(home, bigLog);
      const ctx: LineContext = { cwd: host.cwd, sessionId, slug: null, agentId: null, time: Date.now(), parent: null };
      const firstSlug = orphans.shift() as string;
      await settle(server.pid);
      const tb = performance.now();
      // Written to a temp name (ignored as `*.tmp.*`) and renamed: the server sees a complete log at once.
      const bigTmp = `${bigLog}.tmp.${process.pid}.${randomBytes(6).toString('hex')}`;
      recordRemove(home, bigTmp);
      writeLogChunk(bigTmp, { seed: 7, ctx, bytes: opts.bigLogBytes, hugeShare: opts.params.hugeShare, finalSlug: firstSlug, append: false });
      fs.renameSync(bigTmp, bigLog);
      const tw = performance.now();
      const linked = (slug: string) => (m: PlanMap): boolean => m.get(`${slug}.md`)?.sessionId === sessionId;
      const bigLinked = await poller.until(tw, linked(firstSlug), 60_000);
      console.log(`200 MB log written in ${(tw - tb).toFixed(0)} ms, linked ${bigLinked?.toFixed(0) ?? 'never'} ms later`);
      await settle(server.pid);
      const size = fs.statSync(bigLog).size;
      const read1MbMs = Math.min(readRangeMs(bigLog, MB, 256 * 1024), readRangeMs(bigLog, MB));

      const chunk = (slug: string, seed: number, bytes = MB): Buffer => {
        const tmp = path.join(os.tmpdir(), `pmv-bench-chunk-${process.pid}.jsonl`);
        writeLogChunk(tmp, { seed, ctx, bytes, hugeShare: 0.3, finalSlug: slug, append: false });
        const b = fs.readFileSync(tmp);
        fs.rmSync(tmp);
        return b;
      };
      // Latency, polling the plan list.
      const slugA = orphans.shift() as string;
      const bufA = chunk(slugA, 11);
      await settle(server.pid);
      const cA0 = treeCpu(server.pid);
      const ta = performance.now();
      fs.appendFileSync(bigLog, bufA);
      const appendVisibleMs = await poller.until(ta, linked(slugA));
      const cpuWithPollingMs = cpuDeltaMs(cA0, treeCpu(server.pid));
      // CPU, without polling: fixed windows, control rounds and noise estimate (bench/cpu-cost.ts says why).
      const windowMs = opts.cpuWindowS * 1000;
      const immediateMs = Math.min(windowMs, Math.max(1000, Math.ceil((2 * (appendVisibleMs ?? 500)) / 100) * 100));
      // The latency round's own deferred work (the index save) must not land in the first window.
      await sleep(windowMs);
      let seed = 20;
      const prepare = (bytes: number): { slug: string; buf: Buffer } | null => {
        const slug = orphans.shift();
        return slug === undefined ? null : { slug, buf: chunk(slug, seed++, bytes) };
      };
      // The next chunk of each kind is built before its window opens, so only the append itself is inside.
      const next = { mb: prepare(MB), line: prepare(0) };
      const append = (chunkToAppend: { buf: Buffer } | null): void => {
        // cpuRoundCount leaves enough orphans; without one the round would silently be a control round.
        if (!chunkToAppend) throw new Error('append CPU: ran out of orphan plans');
        fs.appendFileSync(bigLog, chunkToAppend.buf);
      };
      const cost = await measureCost({
        pid: server.pid, rounds: cpuRoundCount, windowMs, immediateMs,
        kinds: {
          mb: () => append(next.mb),
          line: () => append(next.line),
          none: null,
        },
        after: async (kind) => {
          if (kind !== 'mb' && kind !== 'line') return;
          const done = next[kind];
          if (done && (await poller.until(performance.now(), linked(done.slug), 10_000)) === null) {
            warn(`append round (${kind}): plan not linked`);
          }
          next[kind] = prepare(kind === 'mb' ? MB : 0);
        },
      });
      const { mb, line, none } = cost.byKind as Record<'mb' | 'line' | 'none', KindCost>;
      const se = seOfDifference;
      const cpuNoiseMs = se(mb.seMs, none.seMs);
      const marginalNoiseMs = se(mb.seMs, line.seMs);
      const spill = Math.max(mb.spillMs, line.spillMs);
      if (spill > Math.max(1, 3 * cpuNoiseMs)) {
        warn(`append CPU: ${spill.toFixed(1)} ms of work after the ${opts.cpuWindowS} s window: raise --cpu-window`);
      }
      if (cost.statMismatchMs > 20) {
        warn(`append CPU: /proc stat and schedstat differ by ${cost.statMismatchMs.toFixed(0)} ms: short-lived threads?`);
      }
      const controlMedian = none.rawMedianMs;
      const marginalMs = mb.medianMs - line.medianMs;
      results.append = {
        bigLogBytes: size, bigLogLinkedMs: bigLinked, read1MbMs, floorPerMbMs: floor.ms / (floor.bytes / MB),
        appendVisibleMs, appendVisibleRatio: appendVisibleMs !== null ? appendVisibleMs / read1MbMs : null,
        cpuWithPollingMs, idleCpuPerSecMs: controlMedian / opts.cpuWindowS, controlCpuMs: none.roundsMs, windowMs,
        cpuMs: mb.roundsMs.map((x) => x - controlMedian), cpuMedianMs: mb.medianMs, cpuRatio: mb.medianMs / read1MbMs,
        lineCpuMs: line.roundsMs.map((x) => x - controlMedian), lineCpuMedianMs: line.medianMs,
        marginalCpuRatio: marginalMs / read1MbMs,
        cpuRounds: cpuRoundCount, cpuNoiseMs, lineCpuNoiseMs: se(line.seMs, none.seMs), marginalNoiseMs,
        marginalResolved: Math.abs(marginalMs) > 2 * marginalNoiseMs,
        immediateMs, immediateCpuMs: mb.immediateMedianMs, lineImmediateCpuMs: line.immediateMedianMs,
        immediateNoiseMs: se(mb.immediateSeMs, none.immediateSeMs),
        marginalImmediateCpuRatio: (mb.immediateMedianMs - line.immediateMedianMs) / read1MbMs,
        marginalImmediateNoiseMs: se(mb.immediateSeMs, line.immediateSeMs),
        spillMs: spill, statMismatchMs: cost.statMismatchMs, rounds: cost.rounds,
      };
      console.log(`append 1 MB: visible ${appendVisibleMs?.toFixed(0)} ms, CPU ${mb.medianMs.toFixed(2)} ± ` +
        `${cpuNoiseMs.toFixed(2)} ms (read 1 MB: ${read1MbMs.toFixed(2)} ms)`);
    }
    results.rssEndBytes = treeRss(server.pid).bytes;
  } catch (err) {
    warn(`aborted: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  } finally {
    if (server) await stopServer(server);
    killAll();
    undo(home);
    fs.rmSync(cacheDir, { recursive: true, force: true });
    log.end();
  }
  const speedAfter = cpuSpeedSamples();
  const all = [...speedBefore, ...speedAfter];
  results.cpuSteadiness = { beforeMs: speedBefore, afterMs: speedAfter, spread: round(Math.max(...all) / Math.min(...all), 2) };

  const r = results as Partial<Results> & Pick<Results, 'home' | 'readFloor' | 'warnings'>;
  fs.writeFileSync(opts.out, JSON.stringify(r, null, 2) + '\n');
  console.log('\n' + report(r));
  console.log(`\nresults: ${path.relative(process.cwd(), opts.out)}`);
}

// ---------------------------------------------------------------------------------------------------------
// Report

function fmt(x: number | null | undefined, digits = 1, unit = ''): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(digits)}${unit}`;
}

function status(ok: boolean | null): string {
  return ok === null ? '' : ok ? 'ok' : 'MISS';
}

function steadiness(c: Results['cpuSteadiness']): string {
  const all = [...c.beforeMs, ...c.afterMs];
  return `${fmt(Math.min(...all), 0)}-${fmt(Math.max(...all), 0)} ms (${fmt(c.spread, 1)}x apart; ` +
    `before ${c.beforeMs.map((x) => x.toFixed(0)).join(' ')}, after ${c.afterMs.map((x) => x.toFixed(0)).join(' ')})`;
}

export function report(r: Partial<Results> & Pick<Results, 'home' | 'readFloor' | 'warnings'>): string {
  const mb = (b: number | undefined): number | null => (b === undefined ? null : b / MB);
  const p = r.home.params;
  const lat = r.latency ?? {};
  const a = r.append;
  const f = r.freshness ?? { newPlanMs: [], deletedPlanGoneMs: [], linkMs: [] };
  const machine = r.machine ?? {};
  const med = (xs: (number | null)[]): number | null => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length === xs.length && v.length > 0 ? median(v) : null;
  };
  const le = (x: number | null | undefined, t: number): boolean | null => (x === null || x === undefined ? false : x <= t);
  const rows: string[][] = [['metric', 'value', 'target', '', 'closest peer']];
  const add = (name: string, value: string, target = '', ok: boolean | null = null, peer = ''): void => {
    rows.push([name, value, target, status(ok), peer]);
  };
  add('readFloorMs', fmt(r.readFloor.ms, 0, ' ms'), '', null, '500 ms');
  if (r.bareNodeReady) add('bare node:http server ready (Node start)', `${fmt(r.bareNodeReady.ms, 0, ' ms')} (median of ${runsText(r.bareNodeReady.runsMs)})`);
  add('ready on an empty home', fmt(r.emptyHomeReadyMs, 0, ' ms'));
  // Results before 2026-11-22 hold one start each.
  const runs = (x: StartResult | undefined): string => (x?.runsMs && x.runsMs.length > 1 ? ` (median of ${runsText(x.runsMs)})` : '');
  add('readyMs (cold)', fmt(r.cold?.readyMs, 0, ' ms') + runs(r.cold));
  add('readyMs / readFloorMs', fmt(r.cold?.ratioToFloor, 2), '<= 3', le(r.cold?.ratioToFloor, 3), '20');
  add('first response (cold)', fmt(r.cold?.firstResponseMs, 0, ' ms'));
  add('max small-request latency before ready', fmt(r.cold?.probe?.max, 1, ' ms'), '<= 50 ms',
    r.cold?.probe ? le(r.cold.probe.max, 50) : null);
  const afterReady = (x: StartResult | undefined): string =>
    x?.afterReadyProbe ? `${fmt(x.afterReadyProbe.max, 1, ' ms')} (p50 ${fmt(x.afterReadyProbe.p50, 2)}, n=${x.afterReadyProbe.n})` : 'n/a';
  if (r.cold?.afterReadyProbe !== undefined) {
    add(`max small-request latency, ${AFTER_READY_PROBE_MS / 1000} s after ready (cold)`, afterReady(r.cold), '<= 50 ms',
      r.cold.afterReadyProbe ? le(r.cold.afterReadyProbe.max, 50) : null);
  }
  add('warmRestartMs', fmt(r.warm?.readyMs, 0, ' ms') + runs(r.warm), '<= 500 ms', le(r.warm?.readyMs, 500), 'same as cold');
  if (r.warmWithoutExtraCa) {
    add('warm restart, NODE_EXTRA_CA_CERTS unset', fmt(r.warmWithoutExtraCa.readyMs, 0, ' ms') + runs(r.warmWithoutExtraCa));
  }
  if (r.warm?.afterReadyProbe !== undefined) {
    add(`max small-request latency, ${AFTER_READY_PROBE_MS / 1000} s after ready (warm)`, afterReady(r.warm), '<= 50 ms',
      r.warm.afterReadyProbe ? le(r.warm.afterReadyProbe.max, 50) : null);
  }
  add('RSS at ready (cold)', fmt(mb(r.cold?.rssBytes), 0, ' MB'), '<= 250 MB', le(mb(r.cold?.rssBytes), 250), '1.8 GB');
  add('RSS at ready (warm)', fmt(mb(r.warm?.rssBytes), 0, ' MB'), '<= 250 MB', le(mb(r.warm?.rssBytes), 250));
  add('RSS after load', fmt(mb(r.rssAfterLoadBytes), 0, ' MB'));
  add('RSS at end', fmt(mb(r.rssEndBytes), 0, ' MB'));
  const latRow = (name: string, key: string, target?: number, peer = ''): void => {
    const e = lat[key];
    if (!e) return;
    const value = `${fmt(e.p50, 2)} / ${fmt(e.p90, 2)} ms (${fmt(e.bytes / 1024, 0)} KB)` + (e.correct === false ? ' WRONG' : '');
    add(`${name} p50/p90`, value, target !== undefined ? `<= ${target} ms` : '', target !== undefined ? le(e.p50, target) : null, peer);
  };
  latRow('/api/plans', 'plans', 3, '13 ms');
  const bl = r.bareLatency;
  if (bl) add('  same bytes, bare node:http server p50/p90', `${fmt(bl.p50, 2)} / ${fmt(bl.p90, 2)} ms`);
  latRow('/api/plans gzip', 'plansGzip');
  latRow('/api/plans 304', 'plans304');
  latRow('/api/search rare', 'searchRare', 2, '30 ms');
  latRow('/api/search common', 'searchCommon');
  latRow('/api/memory', 'memory');
  latRow('/api/memory/search', 'memorySearch');
  latRow('/api/plans/{f}/content', 'planContent');
  const tp = r.throughput;
  add(`/api/plans req/s (${tp?.connections ?? 16} conns)`, fmt(tp?.requestsPerSec, 0), '>= 1000',
    tp ? tp.requestsPerSec >= 1000 : false, '176');
  if (r.bareCeiling) add('  same bytes, bare node:http server', fmt(r.bareCeiling.requestsPerSec, 0), '', null, '~1250');
  if (r.throughputOneConnection) add('/api/plans req/s (1 conn)', fmt(r.throughputOneConnection.requestsPerSec, 0));
  if (r.bareCeilingOneConnection) add('  same bytes, bare node:http server', fmt(r.bareCeilingOneConnection.requestsPerSec, 0));
  add('new plan listed (median)', fmt(med(f.newPlanMs), 0, ' ms'), '<= 100 ms', le(med(f.newPlanMs), 100), '485 ms');
  add('deleted plan gone (median)', fmt(med(f.deletedPlanGoneMs), 0, ' ms'));
  add('log line links a plan (median)', fmt(med(f.linkMs), 0, ' ms'), '<= 200 ms', le(med(f.linkMs), 200), '340 ms');
  if (a) {
    add(`new ${fmt(a.bigLogBytes / MB, 0)} MB log links its plan`, fmt(a.bigLogLinkedMs, 0, ' ms'));
    add('read 1 MB from page cache', fmt(a.read1MbMs, 3, ' ms'));
    add('append 1 MB: visible after', `${fmt(a.appendVisibleMs, 0, ' ms')} (${fmt(a.appendVisibleRatio, 0)}x read)`);
    const pm = (x: number | null | undefined, noise: number | undefined): string => `${fmt(x, 2)} ± ${fmt(noise, 2)} ms`;
    const win = `${fmt(a.windowMs / 1000, 0)} s`;
    add(`append 1 MB: server CPU (${win})`, `${pm(a.cpuMedianMs, a.cpuNoiseMs)} (${fmt(a.cpuRatio, 1)}x read)`, '<= 2x',
      le(a.cpuRatio, 2), 'rereads file');
    add(`append 1 line: server CPU (${win}, fixed cost)`, pm(a.lineCpuMedianMs, a.lineCpuNoiseMs));
    // Older results lack the noise figures: show them as before.
    const resolved = a.marginalResolved ?? true;
    add('append 1 MB: per-byte CPU (1 MB - 1 line)',
      resolved ? `${fmt(a.marginalCpuRatio, 1)}x read` : `below noise (±${fmt((2 * a.marginalNoiseMs) / a.read1MbMs, 0)}x read)`,
      '<= 2x', resolved ? le(a.marginalCpuRatio, 2) : null);
    if (a.immediateMs !== undefined) {
      const first = `first ${fmt(a.immediateMs / 1000, 1)} s`;
      add(`  1 MB / 1 line, ${first} only`, `${pm(a.immediateCpuMs, a.immediateNoiseMs)} / ${fmt(a.lineImmediateCpuMs, 2)} ms`);
      // As for the whole window: a difference within twice its standard error is not resolved either way.
      const noiseRatio = a.marginalImmediateNoiseMs / a.read1MbMs;
      const resolvedFirst = Math.abs(a.marginalImmediateCpuRatio) >= 2 * noiseRatio;
      add(`  per-byte CPU, ${first} only`, `${fmt(a.marginalImmediateCpuRatio, 1)} ± ${fmt(noiseRatio, 1)}x read` +
        (resolvedFirst ? '' : ' (below noise)'), '<= 2x', resolvedFirst ? le(a.marginalImmediateCpuRatio, 2) : null);
    }
  }
  const header = `plan-memory-viewer benchmark — ${r.startedAt ?? ''}\n` +
    `machine: ${String(machine.cpus)} x ${String(machine.model)}, ${String(machine.memGB)} GB, Linux ${String(machine.kernel)}, ` +
    `Node ${String(machine.node)}, load average at start ${JSON.stringify(machine.loadAvgAtStart ?? null)}\n` +
    (machine.nodeExtraCaCerts ? `NODE_EXTRA_CA_CERTS is set (${String(machine.nodeExtraCaCerts)}): Node loads it at every start\n` : '') +
    (r.cpuSteadiness ? `CPU speed: a fixed loop took ${steadiness(r.cpuSteadiness)}\n` : '') +
    `server: ${r.server ?? ''}\n` +
    `home (${r.preset ?? ''}): ${r.home.counts.plans} plans, ${p.projects} projects, ${fmt(r.home.counts.logBytes / MB, 0)} MB logs ` +
    `(${r.home.counts.hugeLines} huge lines), ${r.home.counts.memorySources} memory sources, ${r.home.counts.memoryEntries} memory files`;
  const warnings = r.warnings.length > 0 ? '\nwarnings:\n' + r.warnings.map((w) => `  - ${w}`).join('\n') : '';
  return header + '\n\n' + table(rows) + warnings;
}

const invoked = process.argv[1] ? fs.realpathSync(process.argv[1]) : '';
if (invoked === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    killAll();
    process.exitCode = 1;
  });
}

// Soak: SOAK_SECONDS (default 60) of mixed requests at full speed against the real CLI (dist/cli.js, its
// own process, so its RSS is its own) while another process rewrites the home (test/soak/writer.ts), with
// event streams open and slow clients trying to hold connections. Asserts: zero 5xx; no listing ever
// misses a plan that exists on disk before and after each of its atomic saves; RSS flat after warm-up;
// every event stream still delivering at the end; slow clients cut off by the server. The figures go to
// test-results/soak.json and docs/robustness.md.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { bannerUrl, runCli, type CliRun } from '../helpers/cli.js';
import { eventually, TempHome, uuid } from '../helpers/home.js';
import { subscribe, type EventStream } from '../adversarial/support.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const WARMUP_SECONDS = Math.min(15, Math.floor(SECONDS / 4));
const WORKERS = 32;
const STREAMS = 20;
const ROOT = path.resolve(import.meta.dirname, '../..');
const STABLE = Array.from({ length: 10 }, (_, i) => `stable-plan-${i}.md`);

let home: TempHome | null = null;
let cli: CliRun | null = null;
let cache: string | null = null;

afterAll(async () => {
  if (cli && cli.child.exitCode === null) {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
  await home?.cleanup();
  if (cache) await rm(cache, { recursive: true, force: true });
});

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/** A client that sends part of a request and then trickles; resolves with who closed and what came back. */
function slowClient(port: number, head: string, trickle: string, giveUpMs: number): Promise<{ closedBy: 'server' | 'client'; ms: number; response: string }> {
  return new Promise((resolve) => {
    const start = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    let gaveUp = false;
    socket.on('data', (d: Buffer) => void (response += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(timer);
      resolve({ closedBy: gaveUp ? 'client' : 'server', ms: Math.round(performance.now() - start), response });
    });
    if (head) socket.write(head);
    const drip = setInterval(() => {
      if (trickle && !socket.destroyed) socket.write(trickle);
    }, 1000);
    const timer = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, giveUpMs);
  });
}

interface Load {
  statuses: Map<number, number>;
  byRoute: Map<string, number>;
  latencies: number[];
  routeLatencies: Map<string, number[]>;
  /** Requests completed in each 10 s window of the run. */
  windows: number[];
  missing: { at: number; names: string[] }[];
  listings: number;
  stableContent: number[];
  errors: string[];
}

async function runLoad(port: number, until: number): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: WORKERS });
  const load: Load = { statuses: new Map(), byRoute: new Map(), latencies: [], routeLatencies: new Map(), windows: [], missing: [], listings: 0, stableContent: [], errors: [] };
  const begin = Date.now();
  const get = (method: string, pathname: string, body?: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathname, agent, headers: { Host: `127.0.0.1:${port}`, 'Accept-Encoding': Math.random() < 0.5 ? 'gzip' : 'identity', ...(body ? { 'Content-Type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, body: (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  const pick = (): [string, string, string?] => {
    const r = Math.random();
    if (r < 0.30) return ['GET', '/api/plans'];
    if (r < 0.45) return ['GET', `/api/plans/${STABLE[Math.floor(Math.random() * STABLE.length)]}/content`];
    if (r < 0.52) return ['GET', `/api/plans/churn-${Math.floor(Math.random() * 400)}.md/content`];
    if (r < 0.62) return ['GET', `/api/search?q=${['words', 'churn', 'PLAN', 'nothing-matches', 'v1'][Math.floor(Math.random() * 5)]}`];
    if (r < 0.72) return ['GET', '/api/memory'];
    if (r < 0.77) return ['GET', `/api/memory/content?id=${encodeURIComponent(`${encodeURIComponentKey}/live.md`)}`];
    if (r < 0.82) return ['GET', '/api/memory/search?q=step'];
    if (r < 0.87) return ['GET', '/api/projects'];
    if (r < 0.92) return ['GET', '/'];
    if (r < 0.95) return ['GET', '/api/openapi.json'];
    if (r < 0.97) return ['POST', '/api/open', JSON.stringify({ filepath: '/not/a/listed/file.md' })];
    return ['POST', '/api/refresh'];
  };
  const worker = async (): Promise<void> => {
    while (Date.now() < until) {
      const [method, pathname, body] = pick();
      const route = `${method} ${pathname.replace(/\?.*/, '').replace(/\/api\/plans\/[^/]+\/content/, '/api/plans/:f/content')}`;
      const start = performance.now();
      let res;
      try {
        res = await get(method, pathname, body);
      } catch (error) {
        load.errors.push(`${route}: ${String(error)}`);
        continue;
      }
      const ms = performance.now() - start;
      load.latencies.push(ms);
      const list = load.routeLatencies.get(route) ?? [];
      list.push(ms);
      load.routeLatencies.set(route, list);
      const w = Math.floor((Date.now() - begin) / 10_000);
      load.windows[w] = (load.windows[w] ?? 0) + 1;
      load.statuses.set(res.status, (load.statuses.get(res.status) ?? 0) + 1);
      load.byRoute.set(route, (load.byRoute.get(route) ?? 0) + 1);
      if (pathname === '/api/plans') {
        const names = new Set((JSON.parse(res.body) as { plans: { filename: string }[] }).plans.map((p) => p.filename));
        const missing = STABLE.filter((n) => !names.has(n));
        if (missing.length > 0) load.missing.push({ at: Date.now(), names: missing });
        load.listings++;
      }
      if (route === 'GET /api/plans/:f/content' && pathname.includes('stable-plan-')) load.stableContent.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  agent.destroy();
  return load;
}

let encodeURIComponentKey = '';

describe('soak', () => {
  it(`holds ${SECONDS} s of full-speed mixed requests while another process rewrites the home`, async () => {
    home = await TempHome.create('pmv-soak-');
    const repo = await home.repo('soak-project');
    encodeURIComponentKey = repo.replace(/[^A-Za-z0-9]/g, '-');
    for (const name of STABLE) await home.plan(name, `# Plan: ${name} v0\n`);
    await home.session(repo, uuid(1), STABLE.map((s) => s.replace(/\.md$/, '')));
    await home.write(`projects/${encodeURIComponentKey}/memory/MEMORY.md`, '# Memory\n- [Live](live.md)\n');
    await home.write(`projects/${encodeURIComponentKey}/memory/live.md`, '---\nname: live\n---\nStep 0.\n');
    cache = await mkdtemp(path.join(os.tmpdir(), 'pmv-soak-cache-'));

    cli = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, HOME: home.root, XDG_CACHE_HOME: cache } });
    const url = await bannerUrl(cli);
    const port = Number(new URL(url).port);
    const pid = cli.child.pid!;

    const streams: EventStream[] = await Promise.all(Array.from({ length: STREAMS }, () => subscribe(port)));
    const started = Date.now();
    const until = started + SECONDS * 1000;

    // Slow clients, started with the load: the server must cut them off itself.
    const slow = Promise.all([
      slowClient(port, `GET /api/plans HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, 'X-Slow: 1\r\n', 45_000),
      slowClient(port, `POST /api/refresh HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`, ' ', 60_000),
      slowClient(port, '', '', 45_000),
    ]);

    const writer = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/soak/writer.ts'), JSON.stringify({
      claudeDir: home.claude, repo, stable: STABLE, durationMs: SECONDS * 1000, pauseMs: 5,
    })], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let writerOut = '';
    let writerErr = '';
    writer.stdout!.on('data', (c: Buffer) => void (writerOut += c.toString()));
    writer.stderr!.on('data', (c: Buffer) => void (writerErr += c.toString()));
    const writerDone = new Promise<number | null>((resolve) => writer.on('exit', resolve));

    // How stale can a listing get? Every 2 s a marker plan is written; the time until it is listed is kept.
    const staleness: { t: number; ms: number }[] = [];
    const stalenessProbe = (async () => {
      for (let n = 0; Date.now() < until - 2000; n++) {
        const file = await home!.plan(`probe-${n}.md`, `# Probe ${n}\n`);
        const t0 = performance.now();
        const seen = await eventually(async () => {
          const res = await fetch(`http://127.0.0.1:${port}/api/plans`);
          return ((await res.json()) as { plans: { filename: string }[] }).plans.some((p) => p.filename === `probe-${n}.md`);
        }, 30_000, 20);
        staleness.push({ t: (Date.now() - started) / 1000, ms: seen ? Math.round(performance.now() - t0) : Infinity });
        await rm(file, { force: true });
        await new Promise((r) => setTimeout(r, 2000));
      }
    })();
    const rss: { t: number; kb: number }[] = [];
    const sampler = setInterval(() => rss.push({ t: (Date.now() - started) / 1000, kb: rssKb(pid) }), 1000);
    const load = await runLoad(port, until);
    clearInterval(sampler);
    await stalenessProbe;
    expect(await writerDone).toBe(0);
    const written = JSON.parse(writerOut) as Record<string, number>;
    const slowResults = await slow;

    // Every stream is still delivering: a change now reaches all of them.
    const before = streams.map((s) => s.count('plans'));
    await home.plan('after-the-soak.md', '# After the soak\n');
    const delivered = await eventually(() => streams.every((s) => s.text().includes('after-the-soak.md')), 15_000, 50);
    const streamStatus = streams.map((s) => s.status);
    for (const s of streams) s.close();

    const total = [...load.statuses.values()].reduce((a, b) => a + b, 0);
    const fiveHundreds = [...load.statuses].filter(([status]) => status >= 500);
    const afterWarmup = rss.filter((r) => r.t >= WARMUP_SECONDS);
    const third = Math.max(1, Math.floor(afterWarmup.length / 3));
    const early = median(afterWarmup.slice(0, third).map((r) => r.kb));
    const late = median(afterWarmup.slice(-third).map((r) => r.kb));
    const figures = {
      seconds: SECONDS,
      workers: WORKERS,
      requests: total,
      requestsPerSecond: Math.round(total / SECONDS),
      statuses: Object.fromEntries(load.statuses),
      byRoute: Object.fromEntries(load.byRoute),
      latencyMs: { p50: +percentile(load.latencies, 50).toFixed(1), p99: +percentile(load.latencies, 99).toFixed(1), max: +maxOf(load.latencies).toFixed(1) },
      latencyMsByRoute: Object.fromEntries([...load.routeLatencies].map(([route, xs]) => [route, { p50: +percentile(xs, 50).toFixed(1), p99: +percentile(xs, 99).toFixed(1), max: +maxOf(xs).toFixed(1) }])),
      requestsPer10s: load.windows,
      changeToListingMs: { p50: median(staleness.map((x) => x.ms)), max: maxOf(staleness.map((x) => x.ms)), samples: staleness.map((x) => x.ms) },
      listingsChecked: load.listings,
      listingsMissingAStablePlan: load.missing.length,
      clientErrors: load.errors.length,
      writer: written,
      rssMb: {
        start: +(rss[0]!.kb / 1024).toFixed(1),
        warmupEnd: +((afterWarmup[0]?.kb ?? NaN) / 1024).toFixed(1),
        earlyMedian: +(early / 1024).toFixed(1),
        lateMedian: +(late / 1024).toFixed(1),
        max: +(maxOf(rss.map((r) => r.kb)) / 1024).toFixed(1),
        growthAfterWarmupPercent: +(((late - early) / early) * 100).toFixed(1),
      },
      streams: { open: STREAMS, deliveringAtEnd: delivered, eventsPerStream: before },
      slowClients: slowResults.map((r) => ({ closedBy: r.closedBy, ms: r.ms, status: r.response.split('\r\n')[0] ?? '' })),
    };
    await mkdir(path.join(ROOT, 'test-results'), { recursive: true });
    await writeFile(path.join(ROOT, 'test-results', 'soak.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.info(`[soak] ${JSON.stringify(figures)}`);

    expect(writerErr).toBe('');
    expect(fiveHundreds).toEqual([]);
    expect(load.errors).toEqual([]);
    expect(load.missing).toEqual([]);
    expect(load.listings).toBeGreaterThan(100);
    expect(staleness.length).toBeGreaterThan(3);
    expect(staleness.filter((x) => x.ms === Infinity)).toEqual([]);
    expect(load.stableContent.filter((s) => s !== 200)).toEqual([]);
    expect(written.atomicSaves).toBeGreaterThan(100);
    // Flat: the late third of the run holds no more than 25% above the early third (after warm-up).
    expect(late).toBeLessThan(early * 1.25);
    expect(delivered).toBe(true);
    expect(streamStatus.every((s) => s === 200)).toBe(true);
    expect(before.every((n) => n > 0)).toBe(true);
    // Slow clients: cut off by the server with a plain-text 408, not left hanging until we gave up.
    for (const r of slowResults.slice(0, 2)) {
      expect(r.closedBy).toBe('server');
      expect(r.response).toMatch(/^HTTP\/1\.1 408 /);
      expect(r.response.toLowerCase()).toContain('content-type: text/plain');
    }
    expect(slowResults[2]!.closedBy).toBe('server');
    expect(cli.child.exitCode).toBeNull();
  });
});

/** Math.max over any number of values (spreading 100,000+ latencies into one call overflows the stack). */
function maxOf(values: readonly number[]): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return max;
}

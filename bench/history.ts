// Phase `--only history`: plan history on the generated home. Cold starts (a fresh cache dir) and warm
// restarts (the cache the cold start left), each timed from spawn to a correct plan list and on to the
// history being built (the archive and a few plans' histories as the facts say); the server's RSS then;
// the history cache's size on disk; every plan's history checked against the facts (versions' sources,
// gaps, contents, plan-mode events); and the sequential latency of GET /api/plans/{f}/history and of a
// version's content, over every plan.

import fs from 'node:fs';
import path from 'node:path';
import type { Facts } from './facts.js';
import { RawClient } from './http1.js';
import { Client, dist, median, quantile, sleep, treeRss, waitQuiet, type Dist } from './measure.js';
import { shortSha, type HistoryFact } from './plan-story.js';
import { probe } from './prober.js';
import type { RunContext } from './run-context.js';
import { freePort, startServer, stopServer, type Server } from './server.js';
import { pollPlanList } from './starts.js';

/** Plans whose histories are polled (with the archive) until they are right: the ones with most versions. */
const SAMPLED_PLANS = 8;
const POLL_GAP_MS = 50;

export interface HistoryStart {
  /** Spawn to a correct plan list. */
  readyMs: number | null;
  /** Spawn to the archive as the facts say (every log's writes read), the sampled histories not yet checked. */
  archiveMs: number | null;
  /** Spawn to the archive and the sampled histories as the facts say (null: never, within the ready timeout). */
  historyMs: number | null;
  rssAtReadyBytes: number;
  /** The server tree's RSS when the history was seen built. */
  rssWithHistoryBytes: number;
  /** The slowest small request (GET /api/projects, from a thread of its own) from ready until the history was built. */
  slowestSmallMs: number;
}

export type LatencyDist = Dist & { p95: number };

export interface HistoryResult {
  plans: number;
  archived: number;
  versions: number;
  maxVersions: number;
  /** The median start of each kind (by historyMs), and every start's historyMs. */
  cold: HistoryStart & { runsMs: (number | null)[] };
  warm: HistoryStart & { runsMs: (number | null)[] };
  /** The cache the cold start left: the transcripts' plan facts (one file) and the observed versions (a folder). */
  cacheBytes: { index: number; observed: number };
  /** Plans whose history (or a version's content) differs from the facts; at most 20 listed. */
  mismatches: string[];
  mismatchCount: number;
  /** GET /api/plans/{f}/history once per plan (the story built from the logs), then again (the story kept). */
  history: LatencyDist & { slowest: string };
  historyAgain: LatencyDist;
  /** GET /api/plans/{f}/versions/{id}, one version per plan (after its history: the story kept). */
  version: LatencyDist & { slowestBytes: number };
}

interface HistoryBody {
  versions: { id: string; source: string; size: number; gapBefore: boolean }[];
  events: { kind: string }[];
}

function latencyDist(times: number[]): LatencyDist {
  return { ...dist(times), p95: quantile([...times].sort((a, b) => a - b), 0.95) };
}

const SOURCE_LETTER: Record<string, string> = { write: 'w', edit: 'e', disk: 'd', observed: 'o' };

/** What differs between an answer and the plan's facts ('' when nothing): sources, gap, last size, events. */
function historyDiff(body: HistoryBody, want: HistoryFact): string {
  const sources = body.versions.map((v) => SOURCE_LETTER[v.source] ?? '?').join('');
  if (sources !== want.sources) return `sources ${sources}, want ${want.sources}`;
  const gap = body.versions.findIndex((v) => v.gapBefore);
  if ((gap === -1 ? null : gap) !== want.gapAt) return `gap at ${gap}, want ${want.gapAt}`;
  const last = body.versions.at(-1);
  if (last !== undefined && last.size !== want.bytes) return `last version ${last.size} bytes, want ${want.bytes}`;
  if (want.events !== null) {
    const count = (kind: string): number => body.events.filter((e) => e.kind === kind).length;
    const got = { entered: count('plan-mode-entered'), exited: count('plan-mode-exited'), approved: count('plan-approved'), rejected: count('plan-rejected') };
    if (JSON.stringify(got) !== JSON.stringify(want.events)) return `events ${JSON.stringify(got)}, want ${JSON.stringify(want.events)}`;
  }
  return '';
}

function allHistories(facts: Facts): [string, HistoryFact][] {
  return [...Object.entries(facts.history), ...Object.entries(facts.archived)].sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

const planPath = (filename: string): string => `/api/plans/${encodeURIComponent(filename)}`;

/**
 * How far the history is built: 'archive' when the archive lists exactly the archived plans, 'all' when
 * the sampled plans' histories are right too.
 */
async function historyBuilt(client: Client, facts: Facts, sampled: [string, HistoryFact][]): Promise<'none' | 'archive' | 'all'> {
  const archive = await client.get('/api/archive');
  if (archive.status !== 200) return 'none';
  const names = (JSON.parse(archive.body.toString()) as { plans: { filename: string }[] }).plans.map((p) => p.filename).sort();
  if (JSON.stringify(names) !== JSON.stringify(Object.keys(facts.archived).sort())) return 'none';
  for (const [filename, want] of sampled) {
    const res = await client.get(`${planPath(filename)}/history`);
    if (res.status !== 200 || historyDiff(JSON.parse(res.body.toString()) as HistoryBody, want) !== '') return 'archive';
  }
  return 'all';
}

/**
 * Spawn to the end of the first correct plan list (as starts.ts times it, without its probes: the history's
 * polling begins at once), or null.
 */
async function planListReady(client: Client, server: Server, t0: number, run: RunContext): Promise<number | null> {
  const endedAt = await pollPlanList(client, server, t0, run.facts, { readyTimeoutMs: run.opts.readyTimeoutMs, pollGapMs: 0 });
  return endedAt === null ? null : endedAt - t0;
}

/** One start on `cacheDir`: spawn, a correct plan list, then the history built. The server keeps running. */
async function historyStart(run: RunContext, cacheDir: string, sampled: [string, HistoryFact][]): Promise<{ start: HistoryStart; server: Server }> {
  const { opts, facts } = run;
  const port = await freePort();
  const t0 = performance.now();
  const server = startServer(opts.server, run.home, port, cacheDir, run.log);
  run.server = server;
  const client = new Client(port);
  const readyMs = await planListReady(client, server, t0, run);
  const start: HistoryStart = {
    readyMs, archiveMs: null, historyMs: null, rssAtReadyBytes: treeRss(server.pid).bytes, rssWithHistoryBytes: 0, slowestSmallMs: 0,
  };
  if (readyMs === null) {
    client.close();
    return { start, server };
  }
  const prober = probe(port);
  try {
    while (performance.now() - t0 < opts.readyTimeoutMs) {
      if (server.exited) throw new Error(`server exited (${server.exitInfo})`);
      const built = await historyBuilt(client, facts, sampled);
      if (built !== 'none') start.archiveMs ??= performance.now() - t0;
      if (built === 'all') {
        start.historyMs = performance.now() - t0;
        break;
      }
      await sleep(POLL_GAP_MS);
    }
  } finally {
    client.close();
    start.slowestSmallMs = await prober.stop();
  }
  start.rssWithHistoryBytes = treeRss(server.pid).bytes;
  return { start, server };
}

/** The median start by historyMs, with every start's historyMs. */
function medianStart(starts: HistoryStart[]): HistoryStart & { runsMs: (number | null)[] } {
  const byTime = [...starts].sort((a, b) => (a.historyMs ?? Infinity) - (b.historyMs ?? Infinity));
  return { ...byTime[(byTime.length - 1) >> 1]!, runsMs: starts.map((s) => s.historyMs) };
}

/** Bytes of the files under `dir` whose path (below it) passes `keep`. */
function bytesUnder(dir: string, keep: (rel: string) => boolean, rel = ''): number {
  let total = 0;
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = path.join(rel, entry.name);
    if (entry.isDirectory()) total += bytesUnder(dir, keep, child);
    else if (entry.isFile() && keep(child)) total += fs.statSync(path.join(dir, child)).size;
  }
  return total;
}

/**
 * Every plan's history and every version's content against the facts (untimed); the ids of each plan's
 * versions, for the timed pass.
 */
async function checkAll(port: number, facts: Facts): Promise<{ ids: Map<string, string[]>; mismatches: string[] }> {
  const client = new Client(port);
  const ids = new Map<string, string[]>();
  const mismatches: string[] = [];
  try {
    for (const [filename, want] of allHistories(facts)) {
      const res = await client.get(`${planPath(filename)}/history`);
      if (res.status !== 200) {
        mismatches.push(`${filename}: status ${res.status}`);
        continue;
      }
      const body = JSON.parse(res.body.toString()) as HistoryBody;
      ids.set(filename, body.versions.map((v) => v.id));
      const diff = historyDiff(body, want);
      if (diff !== '') {
        mismatches.push(`${filename}: ${diff}`);
        continue;
      }
      for (const [i, v] of body.versions.entries()) {
        const content = await client.get(`${planPath(filename)}/versions/${encodeURIComponent(v.id)}`);
        const text = content.status === 200 ? (JSON.parse(content.body.toString()) as { content: string }).content : null;
        if (text === null || shortSha(text) !== want.shas[i]) {
          mismatches.push(`${filename}: version ${i} (${v.source}) ${text === null ? `status ${content.status}` : 'content differs'}`);
          break;
        }
      }
    }
  } finally {
    client.close();
  }
  return { ids, mismatches };
}

/** Sequential latencies over every plan: its history (built, then kept) and one of its versions, in turn. */
async function timeAll(port: number, ids: Map<string, string[]>): Promise<Pick<HistoryResult, 'history' | 'historyAgain' | 'version'>> {
  const client = new RawClient(port);
  const first: number[] = [];
  const again: number[] = [];
  const version: number[] = [];
  let slowest = { ms: -1, filename: '' };
  let slowestVersion = { ms: -1, bytes: 0 };
  try {
    let k = 0;
    for (const [filename, versionIds] of ids) {
      const url = `${planPath(filename)}/history`;
      const a = await client.get(url);
      first.push(a.ms);
      if (a.ms > slowest.ms) slowest = { ms: a.ms, filename };
      again.push((await client.get(url)).ms);
      if (versionIds.length === 0) continue;
      // The first, the last and those between, in turn over the plans.
      const id = versionIds[k++ % versionIds.length]!;
      const v = await client.get(`${planPath(filename)}/versions/${encodeURIComponent(id)}`);
      version.push(v.ms);
      if (v.ms > slowestVersion.ms) slowestVersion = { ms: v.ms, bytes: v.bodyBytes };
    }
  } finally {
    client.close();
  }
  return {
    history: { ...latencyDist(first), slowest: slowest.filename },
    historyAgain: latencyDist(again),
    version: { ...latencyDist(version), slowestBytes: slowestVersion.bytes },
  };
}

export async function measureHistory(run: RunContext): Promise<HistoryResult> {
  const { opts, facts, warn } = run;
  const histories = allHistories(facts);
  const sampled = [...histories].sort((a, b) => b[1].sources.length - a[1].sources.length || (a[0] < b[0] ? -1 : 1)).slice(0, SAMPLED_PLANS);
  const rounds = Math.max(1, opts.rounds);

  // Cold: each start on a cache dir of its own; the last one's cache serves the warm restarts.
  const cold: HistoryStart[] = [];
  let cacheDir = '';
  for (let i = 0; i < rounds; i++) {
    if (run.server) await stopServer(run.server);
    cacheDir = path.join(run.cacheDir, `history-cold-${i}`);
    fs.mkdirSync(cacheDir, { recursive: true });
    const { start } = await historyStart(run, cacheDir, sampled);
    cold.push(start);
    console.log(`history cold start ${i + 1}: plan list ${start.readyMs?.toFixed(0) ?? 'never'} ms, history ${start.historyMs?.toFixed(0) ?? 'never'} ms`);
  }
  // The cache measured is what a run leaves once its first pass is done (every plan observed, the first
  // saves): the server is let go idle first. A stop saves what is unsaved.
  if (run.server && !(await waitQuiet(run.server.pid, 500, 5, 30_000))) warn('history: the server did not go idle within 30 s of the history being built');
  if (run.server) await stopServer(run.server);
  const inHistoryDir = (rel: string): boolean => path.dirname(rel).split(path.sep).some((d) => d.startsWith('history-'));
  const cacheBytes = {
    index: bytesUnder(cacheDir, (rel) => path.basename(rel).startsWith('history-') && !inHistoryDir(rel)),
    observed: bytesUnder(cacheDir, inHistoryDir),
  };

  const warm: HistoryStart[] = [];
  for (let i = 0; i < rounds; i++) {
    if (run.server) await stopServer(run.server);
    const { start } = await historyStart(run, cacheDir, sampled);
    warm.push(start);
    console.log(`history warm restart ${i + 1}: plan list ${start.readyMs?.toFixed(0) ?? 'never'} ms, history ${start.historyMs?.toFixed(0) ?? 'never'} ms`);
  }
  const server = run.server!;

  const { ids, mismatches } = await checkAll(server.port, facts);
  if (mismatches.length > 0) warn(`history: ${mismatches.length} plans differ from the facts, e.g. ${mismatches[0]}`);
  const timed = await timeAll(server.port, ids);
  const versionCounts = histories.map(([, h]) => h.sources.length);
  const result: HistoryResult = {
    plans: Object.keys(facts.history).length,
    archived: Object.keys(facts.archived).length,
    versions: versionCounts.reduce((a, b) => a + b, 0),
    maxVersions: Math.max(0, ...versionCounts),
    cold: medianStart(cold),
    warm: medianStart(warm),
    cacheBytes,
    mismatches: mismatches.slice(0, 20),
    mismatchCount: mismatches.length,
    ...timed,
  };
  console.log(`history: median ${median(cold.map((s) => s.historyMs ?? Infinity)).toFixed(0)} ms cold, ` +
    `${median(warm.map((s) => s.historyMs ?? Infinity)).toFixed(0)} ms warm; GET history p50 ${timed.history.p50.toFixed(1)} ms, ` +
    `p95 ${timed.history.p95.toFixed(1)} ms; version p50 ${timed.version.p50.toFixed(1)} ms, p95 ${timed.version.p95.toFixed(1)} ms`);
  return result;
}

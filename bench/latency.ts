// Sequential latency of one endpoint, and the phase that measures it on each endpoint of the server once it
// has gone idle, checking the answers against the home's facts.

import { RawClient, type RawResult } from './http1.js';
import { dist, waitQuiet, type Dist } from './measure.js';
import type { Options } from './options.js';
import { parsePlans, verify } from './plan-list.js';
import type { RunContext } from './run-context.js';
import type { Server } from './server.js';

export interface EndpointResult extends Dist {
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
export async function latency(client: RawClient, urlPath: string, opts: Options, headers: Record<string, string> = {},
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

/**
 * Phase 4: each endpoint's sequential latency, checked against the facts. Returns one more answer of the
 * plan list, its body kept, for the throughput phase to check its load against and to serve from a bare server.
 */
export async function measureLatencies(run: RunContext, server: Server): Promise<RawResult> {
  const { opts, facts, results, warn } = run;
  const quietAfterStart = await waitQuiet(server.pid, 300, 3, 10_000);
  if (!quietAfterStart) warn('the server did not go idle within 10 s of ready; latencies include start-up work');
  const client = new RawClient(server.port);
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
  // What happened after a plan's approval (the generator writes the work after it: work-lines.ts), and a
  // page of its session's conversation (extensions).
  const approved = Object.keys(facts.plans).find((f) => facts.plans[f]?.sessionId && facts.history[f]?.events?.exited === 1);
  const outcomeOf = approved ?? someLinked;
  if (outcomeOf) {
    lat.planOutcome = await latency(client, `/api/plans/${encodeURIComponent(outcomeOf)}/outcome`, opts, {}, approved === undefined ? undefined : (b) => {
      const o = JSON.parse(b.toString()) as { files: unknown[]; tests: { runs: number }; commits: unknown[] };
      return o.files.length >= 3 && o.tests.runs >= 2 && o.commits.length >= 1;
    });
  }
  const linkedSession = someLinked === undefined ? undefined : facts.plans[someLinked]?.sessionId;
  if (linkedSession) lat.transcriptPage = await latency(client, `/api/sessions/${encodeURIComponent(linkedSession)}/transcript?limit=50`, opts);
  // The session's card (it names the plan) and what it saw of memory (extensions).
  if (linkedSession && someLinked) {
    lat.sessionCard = await latency(client, `/api/sessions/${encodeURIComponent(linkedSession)}`, opts, {},
      (b) => (JSON.parse(b.toString()) as { plans: string[] }).plans.includes(someLinked));
    lat.sessionMemory = await latency(client, `/api/sessions/${encodeURIComponent(linkedSession)}/memory`, opts, {},
      (b) => (JSON.parse(b.toString()) as { sessionId: string }).sessionId === linkedSession);
  }
  client.close();
  for (const [name, r] of Object.entries(lat)) {
    if (r.status !== 200 && !(name === 'plans304' && r.status === 304)) warn(`${name}: status ${r.status}`);
    if (r.correct === false) warn(`${name}: response does not match the facts`);
  }
  results.latency = lat;
  console.log(`latency p50: plans ${lat.plans.p50.toFixed(2)} ms, search rare ${lat.searchRare.p50.toFixed(2)} ms`);
  return probe;
}

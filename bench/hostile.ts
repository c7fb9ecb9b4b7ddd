// Phase 9, hostile files: while a huge plan or memory file is saved and then read, how long the slowest
// small request waits (a stall of the event loop shows as one) and how far the server's memory grows.
// A huge plan is also read through the plan-history routes and MCP (its history, its disk version alone
// and by four readers, a JSON-RPC batch of get_plan calls at the batch cap and one of 100): security.md
// rule 21, every request's memory bounded the same way over HTTP and MCP.
// docs/security.md rule 17 and docs/robustness.md give the targets: <= 100 ms at 50 MB, <= 250 ms at
// 200 MB, RSS growth <= 2x the largest file being streamed.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client, MB, round, sleep, treeRss, waitSettled } from './measure.js';
import { probe, rssPeak } from './prober.js';
import { recordRemove } from './home.js';
import type { RunContext } from './run-context.js';
import type { Server } from './server.js';

export interface HostileCase {
  name: string;
  fileBytes: number;
  /** Slowest small request from the start of the save until the file is listed (null: never listed). */
  saveSlowestMs: number | null;
  /** Slowest small request while the file's content (and the listing it is in) is read. */
  readSlowestMs: number;
  /** Slowest small request while four clients read the content at once (plans only). */
  concurrentSlowestMs: number | null;
  /** Peak RSS of the server's process tree over the case, minus its RSS before. */
  rssGrowthBytes: number;
  /** The target for the slowest small request at this size. */
  targetMs: number;
  /** The 200 MB plan only: the plan-history and MCP routes on the same file, one stage each, in order. */
  routes?: RouteStage[];
}

export interface RouteStage {
  /** What was asked, e.g. `GET versions/{disk} x4`. */
  route: string;
  /** What came back: statuses and sizes, or what failed (`server exited: ...`). */
  outcome: string;
  /** From the stage's first request to its last answer's end. */
  ms: number;
  /** Slowest small request while the stage ran. */
  slowestMs: number;
  /** Peak RSS of the server's process tree during the stage, minus its RSS before the case. */
  rssGrowthBytes: number;
}

/** A batch of calls at the server's cap (src/mcp/limits.ts), and the one of the issue that ended the process. */
const MCP_BATCH_AT_CAP = 20;
const MCP_BATCH_HOSTILE = 100;

/** Lines of plain markdown up to `bytes` (exactly), words and headings like a real plan's. */
function markdownOf(bytes: number, title: string): Buffer {
  const head = `# ${title}\n\n## Context\n\n`;
  const line = 'The quick brown fox reads a very large plan, one line after another, and keeps going.\n';
  const body = Buffer.alloc(bytes, line);
  body.write(head, 0);
  return body;
}

/** A MEMORY.md with `links` index lines, each a link to a topic that does not exist. */
function manyLinks(links: number): Buffer {
  const lines: string[] = ['# Memory index', ''];
  for (let i = 0; i < links; i++) lines.push(`- [Topic ${i}](topic-${i}.md) — hook number ${i}`);
  return Buffer.from(lines.join('\n') + '\n');
}

/** GETs `urlPath` and counts its body's bytes without keeping them: the huge answers are read, not held. */
function download(port: number, urlPath: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => void (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** POSTs a JSON body and counts the answer's bytes without keeping them. */
function post(port: number, urlPath: string, body: string, timeoutMs = 300_000): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path: urlPath, method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => void (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms: POST ${urlPath}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A JSON-RPC batch of `calls` get_plan calls for one plan (stateless MCP answers it without a session). */
function getPlanBatch(filename: string, calls: number): string {
  return JSON.stringify(Array.from({ length: calls }, (_, i) => ({
    jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'get_plan', arguments: { filename } },
  })));
}

const sizes = (answers: { status: number; bytes: number }[]): string =>
  answers.map((a) => `${a.status} ${round(a.bytes / MB, 1)} MB`).join(', ');

/**
 * The plan-history and MCP routes on a huge plan already listed, a stage at a time: the slowest small
 * request and the RSS peak of each. A stage that ends the server ends the list (the ones after it say so).
 */
async function routeStages(server: Server, filename: string, rssBefore: number): Promise<RouteStage[]> {
  const stages: RouteStage[] = [];
  const encoded = encodeURIComponent(filename);
  // Set by the history stage, read by the ones after it.
  const found: { diskId: string | null } = { diskId: null };
  const stage = async (route: string, work: () => Promise<string>): Promise<void> => {
    if (server.exited) {
      stages.push({ route, outcome: `not run: server exited (${server.exitInfo})`, ms: 0, slowestMs: 0, rssGrowthBytes: 0 });
      return;
    }
    const p = probe(server.port);
    const rss = rssPeak(server.pid);
    let outcome: string;
    const t0 = performance.now();
    try {
      outcome = await work();
    } catch (err) {
      outcome = `failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const ms = performance.now() - t0;
    const slowestMs = await p.stop();
    const rssGrowthBytes = rss.stop() - rssBefore;
    if (server.exited) outcome += `; server exited (${server.exitInfo})`;
    stages.push({ route, outcome, ms, slowestMs, rssGrowthBytes });
  };
  const client = new Client(server.port);
  try {
    await stage('GET history', async () => {
      const res = await client.get(`/api/plans/${encoded}/history`, {}, 300_000);
      if (res.status !== 200) return `${res.status}`;
      const versions = (JSON.parse(res.body.toString()) as { versions: { id: string; source: string; size: number }[] }).versions;
      const disk = versions.find((v) => v.source === 'disk');
      found.diskId = disk?.id ?? null;
      return `200, ${versions.length} versions${disk ? `, disk ${round(disk.size / MB, 1)} MB` : ', no disk version'}`;
    });
    const version = `/api/plans/${encoded}/versions/${encodeURIComponent(found.diskId ?? 'none')}`;
    await stage('GET versions/{disk}', async () => sizes([await download(server.port, version)]));
    await stage('GET versions/{disk} x4', async () =>
      sizes(await Promise.all(Array.from({ length: 4 }, () => download(server.port, version)))));
    await stage(`POST /mcp get_plan x${MCP_BATCH_AT_CAP}`, async () => sizes([await post(server.port, '/mcp', getPlanBatch(filename, MCP_BATCH_AT_CAP))]));
    await stage(`POST /mcp get_plan x${MCP_BATCH_HOSTILE}`, async () => sizes([await post(server.port, '/mcp', getPlanBatch(filename, MCP_BATCH_HOSTILE))]));
  } finally {
    client.close();
  }
  return stages;
}

async function until(check: () => Promise<boolean>, timeoutMs = 120_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(25);
  }
  return false;
}

/** Writes `bytes` to `file` as editors and Claude Code do: a temp file in the same folder, then a rename. */
function saveAtomically(file: string, bytes: Buffer): void {
  const tmp = `${file}.tmp.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
}

async function planCase(
  run: RunContext, server: Server, name: string, bytes: number, targetMs: number, withRoutes = false,
): Promise<HostileCase> {
  const client = new Client(server.port, 4);
  const filename = `bench-hostile-${name}-${Date.now().toString(36)}.md`;
  const file = path.join(run.home, 'plans', filename);
  recordRemove(run.home, file);
  const content = markdownOf(bytes, `Hostile ${name}`);
  const listed = async (): Promise<boolean> => (await client.get('/api/plans')).body.includes(`"${filename}"`);
  const rssBefore = treeRss(server.pid).bytes;
  const rss = rssPeak(server.pid);
  try {
    let p = probe(server.port);
    saveAtomically(file, content);
    const seen = await until(listed);
    const saveSlowestMs = seen ? await p.stop() : (await p.stop(), null);

    p = probe(server.port);
    const one = await download(server.port, `/api/plans/${filename}/content`);
    if (one.status !== 200 || one.bytes < bytes) run.warn(`hostile ${name}: content answered ${one.status}, ${one.bytes} bytes`);
    // A word on every line (found in the first chunk) and one on none (every chunk searched).
    await download(server.port, `/api/search?q=${encodeURIComponent('keeps going')}`);
    await download(server.port, `/api/search?q=${encodeURIComponent('absent-word')}`);
    const readSlowestMs = await p.stop();

    p = probe(server.port);
    await Promise.all(Array.from({ length: 4 }, () => download(server.port, `/api/plans/${filename}/content`)));
    const concurrentSlowestMs = await p.stop();
    const rssGrowthBytes = rss.stop() - rssBefore;

    const routes = withRoutes ? await routeStages(server, filename, rssBefore) : undefined;
    fs.rmSync(file, { force: true });
    if (!server.exited) await until(async () => !(await listed()));
    return { name, fileBytes: bytes, saveSlowestMs, readSlowestMs, concurrentSlowestMs, rssGrowthBytes, targetMs, routes };
  } finally {
    rss.stop();
    fs.rmSync(file, { force: true });
    client.close();
  }
}

/** A file in a memory folder of its own: saved, the listing read, its content read, removed. */
async function memoryCase(
  run: RunContext, server: Server, name: string, filename: string, content: Buffer, targetMs: number,
): Promise<HostileCase> {
  const client = new Client(server.port);
  const project = path.join(run.home, 'projects', `-bench-hostile-${name}-${Date.now().toString(36)}`);
  const file = path.join(project, 'memory', filename);
  recordRemove(run.home, project);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const entryId = async (): Promise<string | null> => {
    const listing = JSON.parse((await client.get('/api/memory')).body.toString()) as { entries: { id: string; filepath: string }[] };
    return listing.entries.find((e) => e.filepath === file)?.id ?? null;
  };
  const rssBefore = treeRss(server.pid).bytes;
  const rss = rssPeak(server.pid);
  try {
    let p = probe(server.port);
    saveAtomically(file, content);
    let id: string | null = null;
    const seen = await until(async () => (id = await entryId()) !== null);
    const saveSlowestMs = seen ? await p.stop() : (await p.stop(), null);

    p = probe(server.port);
    if (id !== null) await download(server.port, `/api/memory/content?id=${encodeURIComponent(id)}`);
    await download(server.port, '/api/memory');
    await download(server.port, `/api/memory/search?q=${encodeURIComponent('absent-word')}`);
    const readSlowestMs = await p.stop();

    fs.rmSync(project, { recursive: true, force: true });
    return { name, fileBytes: content.length, saveSlowestMs, readSlowestMs, concurrentSlowestMs: null, rssGrowthBytes: rss.stop() - rssBefore, targetMs };
  } finally {
    rss.stop();
    fs.rmSync(project, { recursive: true, force: true });
    client.close();
  }
}

export async function measureHostileFiles(run: RunContext, server: Server): Promise<HostileCase[]> {
  // Each file's cost alone: a server still building its history and find index after a start (`--only
  // hostile` starts one) shares the cores with it, and its RSS grows by the index's ~140 MB meanwhile.
  if (!(await waitSettled(server.pid))) run.warn('hostile files: the server did not go idle within 180 s');
  const cases: HostileCase[] = [];
  const attempt = async (name: string, measure: () => Promise<HostileCase>): Promise<void> => {
    if (server.exited) {
      run.warn(`hostile ${name} not run: the server exited (${server.exitInfo})`);
      return;
    }
    try {
      const c = await measure();
      cases.push(c);
      console.log(`hostile ${name}: save ${c.saveSlowestMs?.toFixed(0) ?? 'never listed'} ms, read ${c.readSlowestMs.toFixed(0)} ms` +
        (c.concurrentSlowestMs !== null ? `, 4 readers ${c.concurrentSlowestMs.toFixed(0)} ms` : '') +
        `, RSS +${round(c.rssGrowthBytes / MB, 0)} MB (target ${c.targetMs} ms)`);
      for (const r of c.routes ?? []) {
        console.log(`  ${r.route}: ${r.outcome} in ${r.ms.toFixed(0)} ms; slowest small request ${r.slowestMs.toFixed(0)} ms, ` +
          `RSS ${r.rssGrowthBytes >= 0 ? '+' : ''}${round(r.rssGrowthBytes / MB, 0)} MB`);
      }
    } catch (err) {
      run.warn(`hostile ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  await attempt('plan-52MB', () => planCase(run, server, 'plan-52MB', 52 * MB, 100));
  await attempt('memory-topic-55MB', () => memoryCase(run, server, 'topic-55MB', 'huge-topic.md', markdownOf(55 * MB, 'Huge topic'), 100));
  await attempt('memory-index-100k-links', () => memoryCase(run, server, 'index-100k', 'MEMORY.md', manyLinks(100_000), 100));
  // The routes last, on the largest plan: on a build without their bounds a batch ended the server.
  await attempt('plan-200MB', () => planCase(run, server, 'plan-200MB', 200 * MB, 250, true));
  return cases;
}

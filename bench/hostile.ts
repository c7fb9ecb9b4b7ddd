// Phase 9, hostile files: while a huge plan or memory file is saved and then read, how long the slowest
// small request waits (a stall of the event loop shows as one) and how far the server's memory grows.
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
}

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

async function planCase(run: RunContext, server: Server, name: string, bytes: number, targetMs: number): Promise<HostileCase> {
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

    fs.rmSync(file, { force: true });
    await until(async () => !(await listed()));
    return { name, fileBytes: bytes, saveSlowestMs, readSlowestMs, concurrentSlowestMs, rssGrowthBytes: rss.stop() - rssBefore, targetMs };
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
    try {
      const c = await measure();
      cases.push(c);
      console.log(`hostile ${name}: save ${c.saveSlowestMs?.toFixed(0) ?? 'never listed'} ms, read ${c.readSlowestMs.toFixed(0)} ms` +
        (c.concurrentSlowestMs !== null ? `, 4 readers ${c.concurrentSlowestMs.toFixed(0)} ms` : '') +
        `, RSS +${round(c.rssGrowthBytes / MB, 0)} MB (target ${c.targetMs} ms)`);
    } catch (err) {
      run.warn(`hostile ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  await attempt('plan-52MB', () => planCase(run, server, 'plan-52MB', 52 * MB, 100));
  await attempt('memory-topic-55MB', () => memoryCase(run, server, 'topic-55MB', 'huge-topic.md', markdownOf(55 * MB, 'Huge topic'), 100));
  await attempt('memory-index-100k-links', () => memoryCase(run, server, 'index-100k', 'MEMORY.md', manyLinks(100_000), 100));
  await attempt('plan-200MB', () => planCase(run, server, 'plan-200MB', 200 * MB, 250));
  return cases;
}

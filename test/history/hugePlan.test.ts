// A plan of tens of MB through the plan-history routes and MCP (docs/security.md, rules 17, 19, 21): its
// history measures the file on disk without holding it, its disk version is streamed exactly, readers at
// once all get exact answers, get_plan answers a window of it (of the current file and of a version) and
// pages through it, and a JSON-RPC batch is bounded before any of it runs. Over POST /mcp with the SDK's
// client, and over stdio with the built CLI (dist/cli.js, `npm run build`).
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_FILE_BYTES } from '../../src/domain/largeFiles.js';
import { countLines } from '../../src/domain/markdown/text.js';
import { DEFAULT_WINDOW_BYTES, MAX_WINDOW_BYTES, MCP_BATCH_LIMIT } from '../../src/mcp/limits.js';
import type { PlanVersion } from '../../src/domain/types.js';
import { CLI } from '../helpers/cli.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { request, startServer, type Running } from '../helpers/http.js';
import { answer } from '../mcp/toolChecks.js';
import { write } from './transcript.js';

const HUGE = 'huge-plan.md';
/** Multi-byte characters on every line, so that windows and chunks fall inside them. */
const LINE = 'Step — ünïcødé 🦊 and “quotes”, one line after another, keeps going.\n';
const EARLIER = '# Huge plan\n\nThe first, short version.\n';
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

let home: TempHome;
let server: Running;
let file: string;
let bytes: Buffer;
let diskId: string;

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  home = await TempHome.create('pmv-huge-plan-');
  const repo = await home.repo('webapp');
  file = path.join(home.claude, 'plans', HUGE);
  const body = `# Huge plan\n\n${LINE.repeat(Math.ceil((24 * 1024 * 1024) / Buffer.byteLength(LINE)))}`;
  await home.plan(HUGE, body);
  bytes = await readFile(file);
  diskId = `d${sha256(bytes).slice(0, 16)}`;
  // A session wrote a first, short version of it: the story holds that and the file on disk.
  const at = new Date(Date.UTC(2026, 10, 19, 9, 0)).toISOString();
  await home.write(path.join('projects', encodeCwd(repo), `${uuid(1)}.jsonl`),
    write({ cwd: repo, sessionId: uuid(1), slug: 'huge-plan', at }, file, EARLIER) + '\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
  await server.viewer.startWatching();
  await server.viewer.history.ready;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

interface History { versions: PlanVersion[] }

describe('a huge plan through the history routes', () => {
  it('lists the file on disk as a version measured exactly: id, size and lines of the whole text', async () => {
    expect(bytes.length).toBeGreaterThan(20 * LARGE_FILE_BYTES);
    const history = await server.json<History>(`/api/plans/${HUGE}/history`);
    expect(history.versions.map((v) => v.source)).toEqual(['write', 'disk']);
    expect(history.versions[1]).toMatchObject({ id: diskId, size: bytes.length, lineCount: countLines(bytes.toString('utf8')) });
    expect(history.versions[0]).toMatchObject({ size: Buffer.byteLength(EARLIER) });
  });

  it('streams the disk version: the exact bytes, in chunks, with no length known ahead', async () => {
    const res = await server.get(`/api/plans/${HUGE}/versions/${diskId}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    // A body built whole is sent with its length; a streamed one goes out in chunks.
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(sha256((JSON.parse(res.body) as { content: string }).content)).toBe(sha256(bytes));
  });

  it('answers readers at once, each exactly: four of the disk version, the history, the content', async () => {
    const versions = Array.from({ length: 4 }, () => server.get(`/api/plans/${HUGE}/versions/${diskId}`));
    const [history, content, ...rest] = await Promise.all([
      server.get(`/api/plans/${HUGE}/history`), server.get(`/api/plans/${HUGE}/content`), ...versions,
    ]);
    expect((JSON.parse(history!.body) as History).versions.at(-1)!.id).toBe(diskId);
    for (const res of [content!, ...rest]) {
      expect(res.status).toBe(200);
      expect(sha256((JSON.parse(res.body) as { content: string }).content)).toBe(sha256(bytes));
    }
  });

  it('still answers an earlier version from the story, and no other id', async () => {
    const history = await server.json<History>(`/api/plans/${HUGE}/history`);
    expect((await server.json<{ content: string }>(`/api/plans/${HUGE}/versions/${history.versions[0]!.id}`)).content).toBe(EARLIER);
    expect((await server.get(`/api/plans/${HUGE}/versions/d0000000000000000`)).status).toBe(404);
  });
});

/** Checks get_plan's windows of the huge plan (the current file, or the disk version by its id). */
async function checkWindows(client: Client, version?: string): Promise<void> {
  const args = { filename: HUGE, ...(version ? { version } : {}) };
  const first = await answer(client, 'get_plan', args);
  expect(first).toMatchObject({ truncated: true, offset: 0, totalBytes: bytes.length, version: version ?? null });
  expect(Buffer.byteLength(first.content as string)).toBeLessThanOrEqual(DEFAULT_WINDOW_BYTES);
  expect(first.nextOffset).toBe(Buffer.byteLength(first.content as string));
  expect(first.note).toContain(`offset ${first.nextOffset}`);
  expect(Buffer.from(first.content as string).equals(bytes.subarray(0, first.nextOffset as number))).toBe(true);
  // An offset inside a character (the fox is 4 bytes) starts at the next one.
  const fox = bytes.indexOf('🦊');
  const inside = await answer(client, 'get_plan', { ...args, offset: fox + 1, maxBytes: 4096 });
  expect(inside.offset).toBe(fox + 4);
  expect(Buffer.from(inside.content as string).equals(bytes.subarray(fox + 4, inside.nextOffset as number))).toBe(true);
  // The last window says there is nothing after it.
  const last = await answer(client, 'get_plan', { ...args, offset: bytes.length - 100, maxBytes: MAX_WINDOW_BYTES });
  expect(last).toMatchObject({ truncated: true, nextOffset: null, totalBytes: bytes.length });
  expect(Buffer.from(last.content as string).equals(bytes.subarray(last.offset as number))).toBe(true);
}

describe('a huge plan over POST /mcp', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'pmv-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
  });

  it('get_plan answers a window of the file, says it is cut and where the next starts', async () => {
    await checkWindows(client);
  });

  it('get_plan of the disk version answers windows of it too', async () => {
    await checkWindows(client, diskId);
  });

  it('pages through the whole plan: the windows joined are the file', async () => {
    const hash = createHash('sha256');
    let offset: number | null = 0;
    while (offset !== null) {
      const window = await answer(client, 'get_plan', { filename: HUGE, offset, maxBytes: MAX_WINDOW_BYTES });
      expect(window.offset).toBe(offset);
      expect(Buffer.byteLength(window.content as string)).toBeLessThanOrEqual(MAX_WINDOW_BYTES);
      hash.update(window.content as string);
      offset = window.nextOffset as number | null;
    }
    expect(hash.digest('hex')).toBe(sha256(bytes));
  });

  const batch = (calls: number): string => JSON.stringify(Array.from({ length: calls }, (_, i) => ({
    jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'get_plan', arguments: { filename: HUGE } },
  })));

  it(`refuses a batch of more than ${MCP_BATCH_LIMIT} calls with a plain message, before running any`, async () => {
    const res = await request(server.port, { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: batch(MCP_BATCH_LIMIT + 1) });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      jsonrpc: '2.0', id: null,
      error: { code: -32600, message: `Invalid Request: a batch holds at most ${MCP_BATCH_LIMIT} messages, this one ${MCP_BATCH_LIMIT + 1}; send the rest in further requests` },
    });
  });

  it(`answers a batch of ${MCP_BATCH_LIMIT} get_plan calls, each a window`, async () => {
    const res = await request(server.port, { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: batch(MCP_BATCH_LIMIT) });
    expect(res.status).toBe(200);
    const answers = JSON.parse(res.body) as { id: number; result: { content: { text: string }[] } }[];
    expect(answers).toHaveLength(MCP_BATCH_LIMIT);
    for (const a of answers) {
      const plan = JSON.parse(a.result.content[0]!.text) as { truncated: boolean; content: string };
      expect(plan.truncated).toBe(true);
      expect(Buffer.byteLength(plan.content)).toBeLessThanOrEqual(DEFAULT_WINDOW_BYTES);
    }
  });

  it('survives a batch of 100 get_plan calls, and serves on', async () => {
    const res = await request(server.port, { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: batch(100) });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toContain(`at most ${MCP_BATCH_LIMIT} messages, this one 100`);
    expect((await answer(client, 'plan_history', { filename: HUGE })).versions.at(-1).id).toBe(diskId);
  });
});

describe('a huge plan over stdio (plan-memory-viewer mcp)', () => {
  let client: Client;
  let cache: string;

  beforeAll(async () => {
    cache = await mkdtemp(path.join(os.tmpdir(), 'pmv-huge-mcp-cache-'));
    client = new Client({ name: 'pmv-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--claude-dir', home.claude],
      env: { ...process.env, HOME: home.root, XDG_CACHE_HOME: cache, NO_COLOR: '1' } as Record<string, string>,
      stderr: 'pipe',
    }));
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    if (cache) await rm(cache, { recursive: true, force: true });
  });

  it('get_plan answers windows of the file and of its disk version, as over HTTP', async () => {
    const history = await answer(client, 'plan_history', { filename: HUGE });
    expect(history.versions.at(-1)).toMatchObject({ id: diskId, size: bytes.length });
    await checkWindows(client);
    await checkWindows(client, diskId);
  });
});

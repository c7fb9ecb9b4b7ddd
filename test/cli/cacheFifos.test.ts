// The viewer's own cache files, tampered with (docs/security.md, rule 22): a FIFO in place of any of them
// must not hang the built service (dist/), at start or once its plan history reads them. Each cache
// file the service writes is replaced, one at a time, in a copy of a real cache, and the service started
// on it must get ready, list the plans, finish its plan history's first pass and answer the archive.
import { execFileSync } from 'node:child_process';
import { cp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerUrl, runCli, type CliRun } from '../helpers/cli.js';
import { eventually, TempHome, uuid } from '../helpers/home.js';
import { request, type RawResponse } from '../helpers/http.js';

/** Long enough for any machine; a service blocked on a FIFO never answers at all. */
const HANG_MS = 20_000;
const SESSION = uuid(1);

let home: TempHome;
let saved: string;
/** The cache files of a real run, relative to the viewer's cache folder. */
let files: string[] = [];

function start(xdg: string): CliRun {
  return runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, XDG_CACHE_HOME: xdg } });
}

/** SIGTERM, then SIGKILL for a process whose main thread is stuck in a read (it runs no handler). */
async function stop(run: CliRun): Promise<number | null> {
  run.child.kill('SIGTERM');
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    run.child.kill('SIGKILL');
  }, HANG_MS);
  const code = await run.exited;
  clearTimeout(timer);
  return killed ? -1 : code;
}

function within<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${HANG_MS} ms`)), HANG_MS)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function listFiles(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const name = path.join(rel, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(dir, name)));
    else if (entry.isFile()) out.push(name);
  }
  return out.sort();
}

beforeAll(async () => {
  home = await TempHome.create('pmv-cache-fifos-');
  const repo = await home.repo('app');
  await home.plan('kept-plan.md', '# Kept plan\n');
  await home.plan('gone-plan.md', '# Gone plan\n\nSeen by the viewer, then deleted.\n');
  await home.session(repo, SESSION, ['kept-plan'], [JSON.stringify({ type: 'custom-title', customTitle: 'The session', sessionId: SESSION })]);
  // A first run writes every cache: the session index and each log's facts beside it, the plan facts and list,
  // and the versions of plans it observed (their index and one object per content).
  saved = path.join(home.root, 'saved-cache');
  const run = start(saved);
  await bannerUrl(run);
  const folder = path.join(saved, 'plan-memory-viewer');
  const kinds = (names: string[]) => names.map((f) => f.replace(/-[0-9a-f]{16}/, '').replace(/objects\/[0-9a-f]{64}$/, 'objects/<sha>'));
  const expected = ['history/index.json', 'history/objects/<sha>', 'plans.json', 'plans.list.json', 'session-index.facts', 'session-index.json'];
  const all = await eventually(async () => {
    const found = await listFiles(folder).catch(() => []);
    return expected.every((kind) => kinds(found).includes(kind)) ? found : null;
  }, 30_000);
  expect(all, 'every cache file written by a first run').toBeTruthy();
  expect(await stop(run)).toBe(0);
  files = await listFiles(folder);
  await rm(path.join(home.claude, 'plans', 'gone-plan.md'));
}, 60_000);

afterAll(async () => {
  await home?.cleanup();
});

describe('a FIFO in place of a cache file', () => {
  it('is refused, not read: every cache file in turn', async () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    const failures: string[] = [];
    for (const [i, rel] of files.entries()) {
      const xdg = path.join(home.root, `xdg-${i}`);
      await cp(saved, xdg, { recursive: true });
      const target = path.join(xdg, 'plan-memory-viewer', rel);
      await rm(target);
      execFileSync('mkfifo', [target]);
      const run = start(xdg);
      try {
        await check(rel, run);
      } catch (error) {
        failures.push(`${rel}: ${(error as Error).message.split('\n')[0]}`);
      }
      if ((await stop(run)) !== 0) failures.push(`${rel}: not stopped by SIGTERM`);
    }
    expect(failures).toEqual([]);
  }, 900_000);
});

/** What a service started on a cache with `rel` a FIFO must still do. */
async function check(rel: string, run: CliRun): Promise<void> {
  const url = await bannerUrl(run, HANG_MS);
  const port = Number(new URL(url).port);
  const get = (p: string): Promise<RawResponse> => within(`GET ${p}`, request(port, { path: p }));
  const plans = await get('/api/plans');
  expect(plans.status).toBe(200);
  expect(plans.body).toContain('kept-plan.md');
  // The MCP tool waits for the plan history's first pass (which reads the observed versions): it answers only once that pass is done.
  const client = new Client({ name: 'pmv-test', version: '1.0.0' });
  await within('MCP connect', client.connect(new StreamableHTTPClientTransport(new URL(`${url}mcp`))));
  try {
    const card = (await within('get_session', client.callTool({ name: 'get_session', arguments: { sessionId: SESSION } }))) as { isError?: boolean; content: { text: string }[] };
    expect(card.isError ?? false, card.content[0]?.text).toBe(false);
    expect(JSON.parse(card.content[0]!.text)).toMatchObject({ sessionId: SESSION, title: 'The session' });
  } finally {
    await client.close();
  }
  expect((await get('/api/archive')).status).toBe(200);
  // The deleted plan's story reads its observed versions: their index, then its content's object. Without
  // the index the viewer never saw it (404).
  const story = await get('/api/plans/gone-plan.md/history');
  expect(story.status, story.body).toBe(rel.endsWith('index.json') ? 404 : 200);
  const versions = story.status === 200 ? (JSON.parse(story.body) as { versions: { id: string }[] }).versions : [];
  for (const { id } of versions) expect([200, 404]).toContain((await get(`/api/plans/gone-plan.md/versions/${encodeURIComponent(id)}`)).status);
}

// Bulk memory changes over a real server on loopback: a bulk rewrite outside any session (two topics merged
// into one, three deleted, MEMORY.md rewritten) listed by GET /api/memory/changes as the served OpenAPI
// document says, then put back through POST /api/memory/changes/{id}/restore: previewed, refused with
// --read-only (403) and after a file changed since the preview (409), applied, listed among the recent
// fixes, and undone. A file whose earlier text is no longer kept is skipped and named.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryChangesBody, BulkRestoreResult } from '../../src/contract/memoryChanges.js';
import type { MemoryFixes, MemoryUndoResult } from '../../src/contract/memoryCare.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { TempHome, encodeCwd } from '../helpers/home.js';
import { request, startServer, type Running } from '../helpers/http.js';

let home: TempHome;
let server: Running;
let readOnly: Running;
let checker: OpenApiChecker;
let memDir: string;
let sourceId: string;

const OLD = new Date(Date.UTC(2026, 10, 18, 12, 0, 0));
const BULK_AT = Date.UTC(2026, 10, 20, 3, 0, 0);
const t = (seconds: number): Date => new Date(BULK_AT + seconds * 1000);

const BEFORE: Record<string, string> = {
  'MEMORY.md': '# Memory\n- [Deploy](alpha.md)\n- [Notes](beta.md)\n',
  'alpha.md': '# Deploy\nRun npm run release.\nTag the commit.\n',
  'beta.md': '# Release notes\nWrite the notes in CHANGELOG.md.\nAsk Bob before Friday deploys.\n',
  'old1.md': '# Old 1\nA note nobody reads, number 1.\n',
  'old2.md': '# Old 2\nA note nobody reads, number 2.\n',
  'old3.md': '# Old 3\nA note nobody reads, number 3.\n',
};
const MERGED = '# Shipping\nRun npm run release.\nTag the commit.\nWrite the notes in CHANGELOG.md.\nAsk Bob before Friday deploys.\n';
const NEW_INDEX = '# Memory\n- [Shipping](shipping.md)\n';

async function put(name: string, text: string, mtime: Date): Promise<void> {
  const file = path.join(memDir, name);
  await writeFile(file, text);
  await utimes(file, mtime, mtime);
}

const disk = (name: string): Promise<string | null> => readFile(path.join(memDir, name), 'utf8').catch(() => null);

async function observe(s: Running): Promise<void> {
  s.viewer.memory.invalidate();
  await s.viewer.memoryHistory.observeAll();
}

async function call<T>(s: Running, method: string, route: string, body?: unknown): Promise<{ status: number; data: T }> {
  const res = await request(s.port, {
    method, path: route, body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
  });
  const type = String(res.headers['content-type']).split(';')[0]!;
  const data = (type === 'application/json' ? JSON.parse(res.body) : res.body) as T;
  const documented = route.split('?')[0]!.replace(/^\/api\/memory\/changes\/[^/]+\/restore$/, '/api/memory/changes/{id}/restore');
  checker.assertResponse(method, documented, res.status, type, data);
  return { status: res.status, data };
}

beforeAll(async () => {
  home = await TempHome.create();
  const cwd = await home.repo('webapp');
  await mkdir(path.join(cwd, '.git'));
  await home.session(cwd, '1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f', [null]);
  sourceId = encodeCwd(cwd);
  memDir = path.join(home.claude, 'projects', sourceId, 'memory');
  await mkdir(memDir, { recursive: true });
  for (const [name, text] of Object.entries(BEFORE)) await put(name, text, OLD);
  await put('keep.md', '# Keep\n', OLD);
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, care: { careDir: path.join(home.root, 'care') }, cacheDir: path.join(home.root, 'cache') });
  readOnly = await startServer({ claudeDir: home.claude, homeDir: home.root, care: { careDir: path.join(home.root, 'care-ro'), readOnly: true }, cacheDir: path.join(home.root, 'cache-ro') });
  checker = new OpenApiChecker(await server.json('/api/openapi.json'));
  await observe(server);
  await observe(readOnly);
  // Outside any session, within a minute.
  await rm(path.join(memDir, 'alpha.md'));
  await rm(path.join(memDir, 'beta.md'));
  await put('shipping.md', MERGED, t(5));
  for (const n of [1, 2, 3]) await rm(path.join(memDir, `old${n}.md`));
  await put('MEMORY.md', NEW_INDEX, t(20));
  await utimes(memDir, t(30), t(30));
  await observe(server);
  await observe(readOnly);
});

afterAll(async () => {
  await server?.close();
  await readOnly?.close();
  await home?.cleanup();
});

describe('GET /api/memory/changes', () => {
  it('lists the bulk change with every file, as documented', async () => {
    const { status, data } = await call<MemoryChangesBody>(server, 'GET', '/api/memory/changes');
    expect(status).toBe(200);
    expect(data.changes).toHaveLength(1);
    expect(data.changes[0]).toMatchObject({ dir: memDir, sourceId, project: 'webapp', firstAt: t(5).toISOString(), lastAt: t(30).toISOString() });
    expect(data.changes[0]!.files.map((f) => [f.file, f.change, f.mergedInto])).toEqual([
      ['MEMORY.md', 'changed', null], ['alpha.md', 'deleted', 'shipping.md'], ['beta.md', 'deleted', 'shipping.md'],
      ['old1.md', 'deleted', null], ['old2.md', 'deleted', null], ['old3.md', 'deleted', null], ['shipping.md', 'created', null],
    ]);
    expect((await call<MemoryChangesBody>(server, 'GET', '/api/memory/changes?project=WEBAPP')).data.changes).toHaveLength(1);
    expect((await call<MemoryChangesBody>(server, 'GET', '/api/memory/changes?project=other')).data.changes).toEqual([]);
  });
});

describe('the memory_changes MCP tool', () => {
  it('lists the bulk change with its files, through the real SDK client', async () => {
    const client = new Client({ name: 'pmv-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
    try {
      const answer = (await client.callTool({ name: 'memory_changes', arguments: { project: 'webapp' } })) as { content: { text: string }[]; isError?: boolean };
      expect(answer.isError ?? false).toBe(false);
      const body = JSON.parse(answer.content[0]!.text) as { total: number; changes: { dir: string; files: { file: string; change: string; mergedInto: string | null }[] }[] };
      expect(body.total).toBe(1);
      expect(body.changes[0]!.dir).toBe(memDir);
      expect(body.changes[0]!.files.filter((f) => f.mergedInto !== null).map((f) => [f.file, f.mergedInto])).toEqual([['alpha.md', 'shipping.md'], ['beta.md', 'shipping.md']]);
      const none = (await client.callTool({ name: 'memory_changes', arguments: { project: 'other' } })) as { content: { text: string }[] };
      expect(JSON.parse(none.content[0]!.text)).toEqual({ total: 0, changes: [] });
    } finally {
      await client.close();
    }
  });
});

describe('POST /api/memory/changes/{id}/restore', () => {
  it('previews, refuses with --read-only and after a change, applies, and is undone like a fix', async () => {
    const roId = (await call<MemoryChangesBody>(readOnly, 'GET', '/api/memory/changes')).data.changes[0]!.id;
    const roPreview = await call<BulkRestoreResult>(readOnly, 'POST', `/api/memory/changes/${roId}/restore`, { apply: false });
    expect(roPreview.status).toBe(200);
    const refused = await call<string>(readOnly, 'POST', `/api/memory/changes/${roId}/restore`, { apply: true, hash: roPreview.data.hash });
    expect(refused).toEqual({ status: 403, data: 'Forbidden: the viewer runs with --read-only' });
    expect(await disk('MEMORY.md')).toBe(NEW_INDEX);

    const id = (await call<MemoryChangesBody>(server, 'GET', '/api/memory/changes')).data.changes[0]!.id;
    expect((await call<string>(server, 'POST', '/api/memory/changes/bnope/restore', { apply: false })).status).toBe(404);
    // old3.md's earlier text is no longer kept (as after pruning under --history-limit).
    const sha = createHash('sha256').update(BEFORE['old3.md']!).digest('hex');
    const cache = path.join(home.root, 'cache');
    const folder = (await readdir(cache)).find((f) => f.startsWith('memory-history-'))!;
    await rm(path.join(cache, folder, 'objects', sha));

    const preview = await call<BulkRestoreResult>(server, 'POST', `/api/memory/changes/${id}/restore`, { apply: false });
    expect(preview.status).toBe(200);
    expect(preview.data).toMatchObject({ applied: false, undoId: null, skipped: ['old3.md'] });
    expect([...preview.data.files].sort()).toEqual(['MEMORY.md', 'alpha.md', 'beta.md', 'old1.md', 'old2.md', 'shipping.md']);
    expect(preview.data.diff).toContain('+Tag the commit.\n');
    expect(await disk('alpha.md')).toBeNull();

    // A file of the change edited since the preview: 409 naming it, nothing written.
    await writeFile(path.join(memDir, 'shipping.md'), `${MERGED}Edited since.\n`);
    const stale = await call<string>(server, 'POST', `/api/memory/changes/${id}/restore`, { apply: true, hash: preview.data.hash });
    expect(stale.status).toBe(409);
    expect(stale.data).toContain('shipping.md changed since the preview');
    expect(await disk('alpha.md')).toBeNull();
    expect(await disk('MEMORY.md')).toBe(NEW_INDEX);

    const again = await call<BulkRestoreResult>(server, 'POST', `/api/memory/changes/${id}/restore`, { apply: false });
    const applied = await call<BulkRestoreResult>(server, 'POST', `/api/memory/changes/${id}/restore`, { apply: true, hash: again.data.hash });
    expect(applied.status).toBe(200);
    expect(applied.data.applied).toBe(true);
    expect(applied.data.undoId).not.toBeNull();
    for (const name of ['MEMORY.md', 'alpha.md', 'beta.md', 'old1.md', 'old2.md']) expect(await disk(name)).toBe(BEFORE[name]);
    expect(await disk('old3.md')).toBeNull();
    expect(await stat(path.join(memDir, 'shipping.md')).catch(() => null)).toBeNull();
    expect(await disk('keep.md')).toBe('# Keep\n');

    // The restore is the viewer's own write: no bulk change outside Claude Code.
    await observe(server);
    expect((await call<MemoryChangesBody>(server, 'GET', '/api/memory/changes')).data.changes.map((c) => c.id)).toEqual([id]);

    const fixes = await call<MemoryFixes>(server, 'GET', '/api/memory/fixes');
    expect(fixes.data.items[0]).toMatchObject({ undoId: applied.data.undoId, kind: 'restore-bulk', undoable: true });
    const undone = await call<MemoryUndoResult>(server, 'POST', '/api/memory/undo', { undoId: applied.data.undoId });
    expect(undone.status).toBe(200);
    expect(await disk('MEMORY.md')).toBe(NEW_INDEX);
    expect(await disk('shipping.md')).toBe(`${MERGED}Edited since.\n`);
    for (const name of ['alpha.md', 'beta.md', 'old1.md', 'old2.md']) expect(await disk(name)).toBeNull();
    // Nor is its undo.
    await observe(server);
    expect((await call<MemoryChangesBody>(server, 'GET', '/api/memory/changes')).data.changes.map((c) => c.id)).toEqual([id]);
  });
});

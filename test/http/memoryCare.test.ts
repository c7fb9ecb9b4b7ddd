// The memory care endpoints over a real server on loopback: answers as the served OpenAPI document says,
// a fix previewed then applied then undone through HTTP, a cross-site attempt refused (nothing written),
// and a read-only run.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryFixAllResult, MemoryFixResult, MemoryFixes, MemoryHealth, MemoryTrash, MemoryUndoResult } from '../../src/contract/memoryCare.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { TempHome, encodeCwd } from '../helpers/home.js';
import { request, startServer, type Running } from '../helpers/http.js';

let home: TempHome;
let server: Running;
let readOnly: Running;
let checker: OpenApiChecker;
let memoryDir: string;
let sourceId: string;

const INDEX = '- [Keep](keep.md) — kept\n';
const ORPHAN = '---\nname: orphan\ndescription: "Not in the index yet"\nmetadata:\n  type: project\n---\n\nBody.\n';

beforeAll(async () => {
  home = await TempHome.create();
  const cwd = await home.repo('webapp');
  await mkdir(path.join(cwd, '.git'));
  await home.session(cwd, '1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f', [null]);
  sourceId = encodeCwd(cwd);
  memoryDir = path.join(home.claude, 'projects', sourceId, 'memory');
  const care = { careDir: path.join(home.root, 'care') };
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, care });
  readOnly = await startServer({ claudeDir: home.claude, homeDir: home.root, care: { ...care, readOnly: true } });
  checker = new OpenApiChecker(await server.json('/api/openapi.json'));
});

beforeEach(async () => {
  await home.write(path.join(memoryDir, 'MEMORY.md'), INDEX);
  await home.write(path.join(memoryDir, 'keep.md'), '# Keep\n');
  await home.write(path.join(memoryDir, 'orphan.md'), ORPHAN);
  await server.viewer.refresh();
  await readOnly.viewer.refresh();
});

afterAll(async () => {
  await server?.close();
  await readOnly?.close();
  await home?.cleanup();
});

async function call<T>(s: Running, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; data: T; text: string }> {
  const res = await request(s.port, {
    method, path: route, body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
  });
  const type = String(res.headers['content-type']).split(';')[0]!;
  const data = (type === 'application/json' ? JSON.parse(res.body) : res.body) as T;
  checker.assertResponse(method, route.split('?')[0]!, res.status, type, data);
  return { status: res.status, data, text: res.body };
}

const fixBody = (extra: Record<string, unknown>) => ({ sourceId, kind: 'add-to-index', file: 'orphan.md', ...extra });
const index = () => readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8');

describe('GET /api/memory/health', () => {
  it('lists every source with its load stats and problems, as documented', async () => {
    const { status, data } = await call<MemoryHealth>(server, 'GET', '/api/memory/health');
    expect(status).toBe(200);
    expect(data.readOnly).toBe(false);
    expect(data.readOnlyReason).toBeNull();
    expect(data.staleDays).toBe(90);
    const source = data.sources.find((s) => s.sourceId === sourceId)!;
    expect(source.load).toMatchObject({ lines: 1, lineLimit: 200, charLimit: 25_000, truncated: false });
    expect(source.problems).toEqual([{
      kind: 'orphan', file: 'orphan.md', line: null, fix: 'add-to-index', target: null, related: [],
      message: expect.stringContaining('not linked from MEMORY.md') as string,
    }]);
  });
});

describe('POST /api/memory/fix and /api/memory/undo', () => {
  it('previews, applies with the hash, and undoes', async () => {
    const preview = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', fixBody({ apply: false }));
    expect(preview.status).toBe(200);
    expect(preview.data).toMatchObject({ applied: false, undoId: null, files: ['MEMORY.md'] });
    expect(preview.data.diff).toContain('+- [orphan](orphan.md) — Not in the index yet\n');
    expect(await index()).toBe(INDEX);
    const applied = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', fixBody({ apply: true, hash: preview.data.hash }));
    expect(applied.status).toBe(200);
    expect(applied.data.applied).toBe(true);
    expect(await index()).toBe(`${INDEX}- [orphan](orphan.md) — Not in the index yet\n`);
    // The listing says so at once (the fix clears the memory cache).
    const memory = await server.json<{ sources: { id: string; orphans: string[] }[] }>('/api/memory');
    expect(memory.sources.find((s) => s.id === sourceId)!.orphans).toEqual([]);
    const undone = await call<MemoryUndoResult>(server, 'POST', '/api/memory/undo', { undoId: applied.data.undoId });
    expect(undone).toMatchObject({ status: 200, data: { undone: true, files: ['MEMORY.md'] } });
    expect(await index()).toBe(INDEX);
  });

  it('answers 409 when the index changed since the preview', async () => {
    const preview = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', fixBody({ apply: false }));
    await writeFile(path.join(memoryDir, 'MEMORY.md'), `${INDEX}- [New](new.md) — saved meanwhile\n`);
    const applied = await call<string>(server, 'POST', '/api/memory/fix', fixBody({ apply: true, hash: preview.data.hash }));
    expect(applied.status).toBe(409);
    expect(await index()).toBe(`${INDEX}- [New](new.md) — saved meanwhile\n`);
  });

  it('links a topic MEMORY.md only names (link-mention): previewed, applied, undone; 409 after a change', async () => {
    const named = `${INDEX}See \`orphan.md\` too.\n`;
    await home.write(path.join(memoryDir, 'MEMORY.md'), named);
    await server.viewer.refresh();
    const health = await call<MemoryHealth>(server, 'GET', '/api/memory/health');
    const finding = health.data.sources.find((s) => s.sourceId === sourceId)!.problems.find((p) => p.kind === 'orphan')!;
    expect(finding).toMatchObject({ file: 'orphan.md', fix: 'link-mention', target: 'orphan.md', line: 2 });
    const body = { sourceId, kind: 'link-mention', file: 'orphan.md', target: 'orphan.md' };
    const preview = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', { ...body, apply: false });
    expect(preview.data).toMatchObject({ applied: false, files: ['MEMORY.md'] });
    expect(await index()).toBe(named);
    const applied = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', { ...body, apply: true, hash: preview.data.hash });
    expect(applied.status).toBe(200);
    expect(await index()).toBe(`${INDEX}See [orphan.md](orphan.md) too.\n`);
    const undone = await call<MemoryUndoResult>(server, 'POST', '/api/memory/undo', { undoId: applied.data.undoId });
    expect(undone).toMatchObject({ status: 200, data: { undone: true, files: ['MEMORY.md'] } });
    expect(await index()).toBe(named);
    const again = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', { ...body, apply: false });
    await writeFile(path.join(memoryDir, 'MEMORY.md'), `${named}- [New](new.md) — saved meanwhile\n`);
    const refused = await call<string>(server, 'POST', '/api/memory/fix', { ...body, apply: true, hash: again.data.hash });
    expect(refused.status).toBe(409);
    expect(await index()).toBe(`${named}- [New](new.md) — saved meanwhile\n`);
  });

  it('answers 400 for a malformed body and 404 for an unknown source or undo id', async () => {
    expect((await call(server, 'POST', '/api/memory/fix', { sourceId, kind: 'rm -rf', file: 'orphan.md', apply: true })).status).toBe(400);
    expect((await call(server, 'POST', '/api/memory/fix', fixBody({ apply: 'yes' }))).status).toBe(400);
    expect((await call(server, 'POST', '/api/memory/fix', fixBody({ apply: false, sourceId: 'nope' }))).status).toBe(404);
    expect((await call(server, 'POST', '/api/memory/undo', { undoId: '0'.repeat(24) })).status).toBe(404);
    expect(await index()).toBe(INDEX);
  });

  it.each([
    [{ 'Sec-Fetch-Site': 'cross-site' }],
    [{ 'Sec-Fetch-Site': 'same-site' }],
    [{ Origin: 'http://evil.example' }],
    [{ Origin: 'null' }],
  ])('refuses a cross-site attempt %j with 403 and writes nothing', async (headers) => {
    const preview = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', fixBody({ apply: false }));
    const res = await request(server.port, {
      method: 'POST', path: '/api/memory/fix', headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(fixBody({ apply: true, hash: preview.data.hash })),
    });
    expect([res.status, res.body]).toEqual([403, 'Forbidden: cross-origin request']);
    const undo = await request(server.port, { method: 'POST', path: '/api/memory/undo', headers: { 'Content-Type': 'application/json', ...headers }, body: '{"undoId":"x"}' });
    expect(undo.status).toBe(403);
    expect(await index()).toBe(INDEX);
  });

  it('takes JSON only: a text/plain POST (no CORS preflight) is refused', async () => {
    const preview = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', fixBody({ apply: false }));
    const res = await request(server.port, { method: 'POST', path: '/api/memory/fix', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(fixBody({ apply: true, hash: preview.data.hash })) });
    expect(res.status).toBe(415);
    expect(await index()).toBe(INDEX);
  });
});

describe('a read-only run', () => {
  it('says so, previews, and refuses to apply or undo', async () => {
    const health = await call<MemoryHealth>(readOnly, 'GET', '/api/memory/health');
    expect(health.data.readOnly).toBe(true);
    expect(health.data.readOnlyReason).toBe('the viewer runs with --read-only');
    const preview = await call<MemoryFixResult>(readOnly, 'POST', '/api/memory/fix', fixBody({ apply: false }));
    expect(preview.status).toBe(200);
    const applied = await call<string>(readOnly, 'POST', '/api/memory/fix', fixBody({ apply: true, hash: preview.data.hash }));
    expect([applied.status, applied.data]).toEqual([403, 'Forbidden: the viewer runs with --read-only']);
    expect((await call(readOnly, 'POST', '/api/memory/undo', { undoId: '0'.repeat(24) })).status).toBe(403);
    expect(await index()).toBe(INDEX);
  });
});

describe('GET /api/memory/trash', () => {
  it('lists a removed topic until its undo restores it', async () => {
    const body = { sourceId, kind: 'trash-topic', file: 'orphan.md' };
    const preview = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', { ...body, apply: false });
    const applied = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', { ...body, apply: true, hash: preview.data.hash });
    const trash = await call<MemoryTrash>(server, 'GET', '/api/memory/trash');
    expect(trash.data.items).toEqual([expect.objectContaining({ undoId: applied.data.undoId, file: 'orphan.md', sourceId })]);
    await call(server, 'POST', '/api/memory/undo', { undoId: applied.data.undoId });
    expect(await readFile(path.join(memoryDir, 'orphan.md'), 'utf8')).toBe(ORPHAN);
    expect((await call<MemoryTrash>(server, 'GET', '/api/memory/trash')).data.items).toEqual([]);
  });

  it('restores a trashed topic after MEMORY.md changed, and names the add-to-index fix for its line', async () => {
    const body = { sourceId, kind: 'trash-topic', file: 'keep.md' };
    const preview = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', { ...body, apply: false });
    const applied = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', { ...body, apply: true, hash: preview.data.hash });
    expect(await index()).toBe('');
    await writeFile(path.join(memoryDir, 'MEMORY.md'), '- [New](new.md) — saved since\n');
    const undone = await call<MemoryUndoResult>(server, 'POST', '/api/memory/undo', { undoId: applied.data.undoId });
    expect(undone).toMatchObject({ status: 200, data: { undone: true, files: ['keep.md'], addToIndex: { sourceId, file: 'keep.md' } } });
    expect(await readFile(path.join(memoryDir, 'keep.md'), 'utf8')).toBe('# Keep\n');
    expect(await index()).toBe('- [New](new.md) — saved since\n');
  });
});

describe('GET /api/memory/fixes', () => {
  it('lists an applied fix as documented until it is undone, with why it cannot be undone when a file changed', async () => {
    const preview = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', fixBody({ apply: false }));
    const applied = await call<MemoryFixResult>(server, 'POST', '/api/memory/fix', fixBody({ apply: true, hash: preview.data.hash }));
    const listed = await call<MemoryFixes>(server, 'GET', '/api/memory/fixes?project=webapp');
    expect(listed.status).toBe(200);
    expect(listed.data.items).toEqual([expect.objectContaining({
      undoId: applied.data.undoId, kind: 'add-to-index', file: 'orphan.md', files: ['MEMORY.md'], undoable: true, reason: null,
    })]);
    expect((await call<MemoryFixes>(readOnly, 'GET', '/api/memory/fixes')).data).toMatchObject({ readOnly: true, items: [{ undoId: applied.data.undoId }] });
    const changed = `${await index()}- [New](new.md) — saved meanwhile\n`;
    await writeFile(path.join(memoryDir, 'MEMORY.md'), changed);
    const reason = 'MEMORY.md changed since this fix; undo would overwrite that change';
    expect((await call<MemoryFixes>(server, 'GET', '/api/memory/fixes')).data.items).toMatchObject([{ undoable: false, reason }]);
    const refused = await call<string>(server, 'POST', '/api/memory/undo', { undoId: applied.data.undoId });
    expect([refused.status, refused.data]).toEqual([409, `Conflict: ${reason}`]);
    await writeFile(path.join(memoryDir, 'MEMORY.md'), `${INDEX}- [orphan](orphan.md) — Not in the index yet\n`);
    expect((await call(server, 'POST', '/api/memory/undo', { undoId: applied.data.undoId })).status).toBe(200);
    expect((await call<MemoryFixes>(server, 'GET', '/api/memory/fixes')).data.items).toEqual([]);
  });
});

describe('POST /api/memory/fix-all', () => {
  it('previews and applies every orphan of a source as one change, undone by one undo, as documented', async () => {
    await home.write(path.join(memoryDir, 'second.md'), ORPHAN.replace('name: orphan', 'name: second').replace('Not in the index yet', 'Also not in the index'));
    await server.viewer.refresh();
    const body = { sourceId, kind: 'orphan' };
    const preview = await call<MemoryFixAllResult>(server, 'POST', '/api/memory/fix-all', { ...body, apply: false });
    expect(preview.data).toMatchObject({ applied: false, undoId: null, count: 2, files: ['MEMORY.md'] });
    expect(await index()).toBe(INDEX);
    const applied = await call<MemoryFixAllResult>(server, 'POST', '/api/memory/fix-all', { ...body, apply: true, hash: preview.data.hash });
    expect(applied.data).toMatchObject({ applied: true, count: 2 });
    expect(await index()).toBe(`${INDEX}- [orphan](orphan.md) — Not in the index yet\n- [second](second.md) — Also not in the index\n`);
    expect((await call(server, 'POST', '/api/memory/undo', { undoId: applied.data.undoId })).status).toBe(200);
    expect(await index()).toBe(INDEX);
    const refused = await call<string>(readOnly, 'POST', '/api/memory/fix-all', { ...body, apply: true, hash: preview.data.hash });
    expect(refused.status).toBe(403);
    const wrongKind = await call<string>(server, 'POST', '/api/memory/fix-all', { sourceId, kind: 'secret', apply: false });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.data).toContain('kind must be one of dangling, orphan, truncated-value, stale');
    await rm(path.join(memoryDir, 'second.md'));
  });
});

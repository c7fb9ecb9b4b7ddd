// Memory fixes against a hostile or unlucky folder, over a real server on loopback: a symlinked topic
// offered as a duplicate (its removal must take the link, never the file it points to, and undo must
// bring the link back), a topic swapped for an in-tree link with the same bytes between preview and
// apply (docs/security.md, rule 23), and request values that used to reach the file system as paths
// (every such answer is a 4xx with a plain message that names what is wrong).
import { lstat, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryFixResult, MemoryHealth, MemoryUndoResult } from '../../src/contract/memoryCare.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { TempHome, encodeCwd, uuid } from '../helpers/home.js';
import { request, startServer, type Running } from '../helpers/http.js';

let home: TempHome;
let server: Running;
let checker: OpenApiChecker;
let memoryDir: string;
let sourceId: string;

const ROLE = '---\nname: user_role\ndescription: "Senior backend engineer, prefers Go"\nmetadata:\n  type: user\n---\n\nSenior backend engineer who prefers Go and integration tests.\n';
const INDEX = '- [User role](user_role.md) — senior backend engineer\n';

beforeAll(async () => {
  home = await TempHome.create('pmv-adv-care-');
  const cwd = await home.repo('webapp');
  await home.session(cwd, uuid(7), [null]);
  sourceId = encodeCwd(cwd);
  memoryDir = path.join(home.claude, 'projects', sourceId, 'memory');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, care: { careDir: path.join(home.root, 'care') } });
  checker = new OpenApiChecker(await server.json('/api/openapi.json'));
});

beforeEach(async () => {
  await rm(memoryDir, { recursive: true, force: true });
  await home.write(path.join(memoryDir, 'MEMORY.md'), INDEX);
  await home.write(path.join(memoryDir, 'user_role.md'), ROLE);
  await server.viewer.refresh();
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

async function call<T>(method: string, route: string, body?: unknown): Promise<{ status: number; data: T; type: string }> {
  const res = await request(server.port, {
    method, path: route, body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
  });
  const type = String(res.headers['content-type']).split(';')[0]!;
  const data = (type === 'application/json' ? JSON.parse(res.body) : res.body) as T;
  checker.assertResponse(method, route, res.status, type, data);
  return { status: res.status, data, type };
}

const inFolder = (file: string) => path.join(memoryDir, file);

describe('a symlinked topic offered as a duplicate (security rule 23)', () => {
  beforeEach(async () => {
    await symlink('user_role.md', inFolder('user_role_copy.md'));
    await server.viewer.refresh();
  });

  it('removes the link it showed, keeps the file it promised to keep, and undo brings the link back', async () => {
    const health = await call<MemoryHealth>('GET', '/api/memory/health');
    const duplicate = health.data.sources.find((s) => s.sourceId === sourceId)!.problems.find((p) => p.kind === 'duplicate')!;
    expect(duplicate).toMatchObject({ file: 'user_role_copy.md', fix: 'trash-topic' });
    expect(duplicate.message).toContain('Removing this one keeps user_role.md');

    const body = { sourceId, kind: 'trash-topic', file: 'user_role_copy.md' };
    const preview = await call<MemoryFixResult>('POST', '/api/memory/fix', { ...body, apply: false });
    expect(preview.status).toBe(200);
    expect(preview.data.files).toEqual(['user_role_copy.md']);
    // The preview says what goes: the link (its text, as git shows a symlink), not the topic's lines.
    expect(preview.data.diff).toContain('--- a/user_role_copy.md\t(symlink to user_role.md)\n+++ /dev/null\n');
    expect(preview.data.diff).toContain('-user_role.md\n');
    expect(preview.data.diff).not.toContain('Senior backend engineer who prefers Go');

    const applied = await call<MemoryFixResult>('POST', '/api/memory/fix', { ...body, apply: true, hash: preview.data.hash });
    expect(applied.status).toBe(200);
    expect(await readFile(inFolder('user_role.md'), 'utf8')).toBe(ROLE);
    await expect(lstat(inFolder('user_role_copy.md'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(inFolder('MEMORY.md'), 'utf8')).toBe(INDEX);

    const undone = await call<MemoryUndoResult>('POST', '/api/memory/undo', { undoId: applied.data.undoId });
    expect(undone.status).toBe(200);
    expect((await lstat(inFolder('user_role_copy.md'))).isSymbolicLink()).toBe(true);
    expect(await readlink(inFolder('user_role_copy.md'))).toBe('user_role.md');
    expect(await readFile(inFolder('user_role.md'), 'utf8')).toBe(ROLE);
  });

  it('shows a rewrite through an in-tree link as written at the file the link points to', async () => {
    await rm(inFolder('user_role_copy.md'));
    await writeFile(inFolder('orphan.md'), '---\nname: orphan\ndescription: "Not linked"\n---\n\nBody.\n');
    await rm(inFolder('MEMORY.md'));
    await home.write(inFolder('real/index.md'), INDEX);
    await symlink('real/index.md', inFolder('MEMORY.md'));
    await server.viewer.refresh();
    const body = { sourceId, kind: 'add-to-index', file: 'orphan.md' };
    const preview = await call<MemoryFixResult>('POST', '/api/memory/fix', { ...body, apply: false });
    expect(preview.status).toBe(200);
    expect(preview.data.diff).toContain('--- a/MEMORY.md\t(symlink to real/index.md: the change is written there)\n');
  });
});

describe('a topic swapped between preview and apply (security rule 23)', () => {
  it('refuses an in-tree symlink with identical bytes in place of the previewed file', async () => {
    const cut = '---\nname: cut\ndescription: Epic #604 of the build\n---\n\nBody.\n';
    await writeFile(inFolder('cut.md'), cut);
    await writeFile(inFolder('MEMORY.md'), `${INDEX}- [Cut](cut.md) — h\n`);
    await server.viewer.refresh();
    const body = { sourceId, kind: 'quote-value', file: 'cut.md', target: 'description' };
    const preview = await call<MemoryFixResult>('POST', '/api/memory/fix', { ...body, apply: false });
    expect(preview.status).toBe(200);
    // The same bytes, now behind a link to another file of the folder.
    await writeFile(inFolder('elsewhere.md'), cut);
    await rm(inFolder('cut.md'));
    await symlink('elsewhere.md', inFolder('cut.md'));
    const applied = await call<string>('POST', '/api/memory/fix', { ...body, apply: true, hash: preview.data.hash });
    expect(applied.status).toBe(409);
    expect(await readFile(inFolder('elsewhere.md'), 'utf8')).toBe(cut);
  });

  it('refuses a file replaced by another with identical bytes (a new inode)', async () => {
    const cut = '---\nname: cut\ndescription: Epic #604 of the build\n---\n\nBody.\n';
    await writeFile(inFolder('cut.md'), cut);
    await writeFile(inFolder('MEMORY.md'), `${INDEX}- [Cut](cut.md) — h\n`);
    await server.viewer.refresh();
    const body = { sourceId, kind: 'quote-value', file: 'cut.md', target: 'description' };
    const preview = await call<MemoryFixResult>('POST', '/api/memory/fix', { ...body, apply: false });
    await writeFile(inFolder('cut.md.new'), cut);
    await (await import('node:fs/promises')).rename(inFolder('cut.md.new'), inFolder('cut.md'));
    const applied = await call<string>('POST', '/api/memory/fix', { ...body, apply: true, hash: preview.data.hash });
    expect(applied.status).toBe(409);
    expect(await readFile(inFolder('cut.md'), 'utf8')).toBe(cut);
  });
});

describe('request values that are not memory file names', () => {
  it.each([
    ['a topic name used as a folder', 'user_role.md/y.md'],
    ['a name of 259 characters', `${'n'.repeat(256)}.md`],
    ['a name of 4,100 characters', `${'n'.repeat(4097)}.md`],
    ['a path of many long folders', `${Array.from({ length: 20 }, () => 'd'.repeat(250)).join('/')}/x.md`],
  ])('%s: a 4xx with a plain message, for every fix kind', async (_label, file) => {
    for (const kind of ['add-to-index', 'remove-link', 'retarget-link', 'quote-value', 'move-past-cut', 'trash-topic']) {
      for (const apply of [false, true]) {
        const answer = await call<string>('POST', '/api/memory/fix', { sourceId, kind, file, target: 'x.md', apply, hash: 'h' });
        expect([kind, answer.status >= 400 && answer.status < 500, answer.type]).toEqual([kind, true, 'text/plain']);
        expect(answer.data).not.toMatch(/ENOTDIR|ENAMETOOLONG|Internal/);
      }
    }
  });

  it('names the field and what it accepts in every 400 of a malformed body', async () => {
    const unknownKind = await call<string>('POST', '/api/memory/fix', { sourceId, kind: 'rm -rf', file: 'user_role.md', apply: false });
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.data).toBe(
      'Bad request: kind must be one of add-to-index, remove-link, retarget-link, quote-value, move-past-cut, trash-topic, link-mention',
    );
    const notBoolean = await call<string>('POST', '/api/memory/fix', { sourceId, kind: 'add-to-index', file: 'user_role.md', apply: 'yes' });
    expect([notBoolean.status, notBoolean.data]).toEqual([400, 'Bad request: apply must be a boolean']);
    const missing = await call<string>('POST', '/api/memory/fix', { sourceId, kind: 'add-to-index', apply: false });
    expect([missing.status, missing.data]).toEqual([400, 'Bad request: file is required (a string)']);
    const target = await call<string>('POST', '/api/memory/fix', { sourceId, kind: 'remove-link', file: 'x.md', target: 3, apply: false });
    expect([target.status, target.data]).toEqual([400, 'Bad request: target must be a string or null']);
    const notObject = await call<string>('POST', '/api/memory/fix', ['add-to-index']);
    expect([notObject.status, notObject.data]).toEqual([400, 'Bad request: the body must be a JSON object']);
    const undo = await call<string>('POST', '/api/memory/undo', { undoId: 7 });
    expect([undo.status, undo.data]).toEqual([400, 'Bad request: undoId must be a string']);
    const long = await call<string>('POST', '/api/memory/fix', { sourceId, kind: 'add-to-index', file: 'x'.repeat(5000), apply: false });
    expect([long.status, long.data]).toEqual([400, 'Bad request: file must be at most 4096 characters']);
  });
});

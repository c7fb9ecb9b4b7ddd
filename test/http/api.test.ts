import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '@readme/openapi-parser';
import type { MemoryListing, PlanMetadata } from '../../src/domain/types.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { request, startServer, type RawResponse, type Running } from '../helpers/http.js';
import { uuid } from '../helpers/home.js';
import { buildFixture, type Fixture } from './fixture.js';

let fx: Fixture;
let server: Running;
let checker: OpenApiChecker;
const opened: string[] = [];

/** Every JSON answer is checked against the served document before the test looks at it. */
async function api<T>(method: string, route: string, pathname: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<{ res: RawResponse; data: T }> {
  const res = await request(server.port, { method, path: pathname, ...init });
  const type = String(res.headers['content-type']).split(';')[0]!;
  const data = (type === 'application/json' ? JSON.parse(res.body) : res.body) as T;
  checker.assertResponse(method, route, res.status, type, data);
  return { res, data };
}

beforeAll(async () => {
  fx = await buildFixture();
  server = await startServer({ claudeDir: fx.home.claude, homeDir: fx.home.root, opener: async (f) => (opened.push(f), true) });
  checker = new OpenApiChecker(await server.json('/api/openapi.json'));
});

afterAll(async () => {
  await server?.close();
  await fx?.home.cleanup();
});

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.0.3 document with version 1.4.0 and every endpoint of the interface', async () => {
    const doc = await server.json<Record<string, unknown> & { paths: Record<string, Record<string, unknown>> }>('/api/openapi.json');
    const result = await validate(structuredClone(doc) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(doc.openapi).toBe('3.0.3');
    expect((doc.info as { version: string }).version).toBe('1.4.0');
    const routes = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)).sort();
    // Every route registered with a schema is in the document by construction; these must be among them.
    expect(routes).toEqual(expect.arrayContaining([
      'GET /api/events', 'GET /api/memory', 'GET /api/memory/content', 'GET /api/memory/search', 'GET /api/openapi.json',
      'GET /api/plans', 'GET /api/plans/{filename}/content', 'GET /api/projects', 'GET /api/search',
      'POST /api/open', 'POST /api/refresh',
    ]));
  });

  it('documents required and nullable fields and the plain-text errors', async () => {
    const doc = await server.json<{ components: { schemas: Record<string, { required: string[]; properties: Record<string, { nullable?: boolean }> }> }; paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { example?: string } }> }> }>> }>('/api/openapi.json');
    const plan = doc.components.schemas.PlanMetadata!;
    expect(plan.required).toEqual(expect.arrayContaining(['created', 'filename', 'filepath', 'lineCount', 'modified', 'project', 'sessionId', 'size', 'title', 'wordCount']));
    // Every field is required: the document's additionalProperties: false then pins the exact shape.
    expect(plan.required.sort()).toEqual(Object.keys(plan.properties).sort());
    expect(plan.properties.project!.nullable).toBe(true);
    expect(plan.properties.sessionId!.nullable).toBe(true);
    expect(doc.paths['/api/plans/{filename}/content']!.get!.responses['404']!.content['text/plain']!.schema.example).toBe('Plan not found');
    expect(doc.paths['/api/memory/content']!.get!.responses['404']!.content['text/plain']!.schema.example).toBe('Memory not found');
    expect(doc.paths['/api/open']!.post!.responses['400']!.content['text/plain']!.schema.example).toBe('Invalid path');
    expect(doc.paths['/api/open']!.post!.responses['500']!.content['text/plain']!.schema.example).toBe('Failed to open file');
  });
});

describe('GET /api/plans', () => {
  it('lists plans newest first, ties by file name, with titles, counts and session links', async () => {
    const { data } = await api<{ plans: PlanMetadata[] }>('GET', '/api/plans', '/api/plans');
    expect(data.plans.map((p) => p.filename)).toEqual([
      'jolly-juggling-penguin.md', 'jolly-juggling-penguin-agent-a7b1cd4effbcbdebe.md', 'calm-wandering-heron.md',
      'tie-a.md', 'tie-b.md', 'repo-plan.md',
    ]);
    const byName = Object.fromEntries(data.plans.map((p) => [p.filename, p]));
    expect(byName['jolly-juggling-penguin.md']).toMatchObject({ title: 'Add dark mode', project: 'webapp', sessionId: uuid(1), lineCount: 4, wordCount: 10 });
    expect(byName['jolly-juggling-penguin-agent-a7b1cd4effbcbdebe.md']).toMatchObject({ project: 'webapp', sessionId: uuid(1) });
    expect(byName['calm-wandering-heron.md']).toMatchObject({ title: 'calm-wandering-heron', project: null, sessionId: null });
    expect(byName['tie-a.md']).toMatchObject({ title: 'Tie A', project: 'api-server', sessionId: uuid(2) });
    expect(byName['tie-b.md']).toMatchObject({ project: 'api-server', sessionId: uuid(2) });
    expect(byName['repo-plan.md']).toMatchObject({ project: 'webapp', sessionId: uuid(3), filepath: `${fx.webapp}/docs/plans/repo-plan.md` });
    expect(byName['jolly-juggling-penguin.md']!.filepath).toBe(`${fx.home.claude}/plans/jolly-juggling-penguin.md`);
    expect(byName['jolly-juggling-penguin.md']!.modified).toBe('2026-11-20T11:50:00.000Z');
    expect(Date.parse(byName['jolly-juggling-penguin.md']!.created)).not.toBeNaN();
  });

  it('answers 304 to a matching ETag and gzip when asked', async () => {
    const first = await request(server.port, { path: '/api/plans' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await request(server.port, { path: '/api/plans', headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('GET /api/plans/{filename}/content', () => {
  it('returns the markdown of a listed plan, including plans from a plansDirectory', async () => {
    const { data } = await api<{ content: string }>('GET', '/api/plans/{filename}/content', '/api/plans/jolly-juggling-penguin.md/content');
    expect(data.content).toBe('# Plan: Add dark mode\n\nUse CSS variables.\nGröße ΟΔΟΣ\n');
    const repo = await api<{ content: string }>('GET', '/api/plans/{filename}/content', '/api/plans/repo-plan.md/content');
    expect(repo.data.content).toBe('# Plan: Lives in the repo\n');
  });

  it.each([
    'nope.md', '.hidden.md', 'notes.txt', 'draft.md.tmp.123.abcdef012345', '..%2F..%2F..%2Fetc%2Fpasswd',
    '..%252F..%252Fetc%252Fpasswd', '%2Fetc%2Fpasswd', '..%5C..%5Cwindows', 'jolly-juggling-penguin.md%00',
  ])('answers 404 "Plan not found" for %s', async (name) => {
    const { res, data } = await api<string>('GET', '/api/plans/{filename}/content', `/api/plans/${name}/content`);
    expect(res.status).toBe(404);
    expect(data).toBe('Plan not found');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('GET /api/search', () => {
  const search = async (q: string | null) =>
    (await api<{ filenames: string[] }>('GET', '/api/search', q === null ? '/api/search' : `/api/search?q=${encodeURIComponent(q)}`)).data.filenames;

  it('matches content case-insensitively across Unicode, in list order', async () => {
    expect(await search('css VARIABLES')).toEqual(['jolly-juggling-penguin.md']);
    expect(await search('GRÖSSE')).toEqual([]);
    expect(await search('größe')).toEqual(['jolly-juggling-penguin.md']);
    expect(await search('οδοσ')).toEqual(['jolly-juggling-penguin.md']);
    expect(await search('# plan:')).toEqual(['jolly-juggling-penguin.md', 'tie-a.md', 'repo-plan.md']);
  });

  it('treats q as literal text and never matches titles or file names only', async () => {
    expect(await search('.*')).toEqual([]);
    expect(await search('calm-wandering')).toEqual([]);
  });

  it('returns no matches for an empty or absent q', async () => {
    expect(await search('')).toEqual([]);
    expect(await search(null)).toEqual([]);
  });
});

describe('GET /api/projects', () => {
  it('lists unique plan projects, sorted', async () => {
    const { data } = await api<{ projects: string[] }>('GET', '/api/projects', '/api/projects');
    expect(data.projects).toEqual(['api-server', 'webapp']);
  });
});

describe('memory endpoints', () => {
  it('lists sources and entries in the spec shapes', async () => {
    const { data } = await api<MemoryListing>('GET', '/api/memory', '/api/memory');
    expect(data.sources).toHaveLength(1);
    const source = data.sources[0]!;
    expect(source).toMatchObject({ kind: 'project', project: 'webapp', cwd: fx.webapp, active: true, entryCount: 2 });
    expect(source.index).toMatchObject({ lineLimit: 200, byteLimit: 25000, danglingLinks: ['missing.md'], lines: 4 });
    expect(source.orphans).toEqual(['notes/testing.md']);
    const ids = data.entries.map((e) => e.id);
    expect(ids).toEqual([`${source.id}/MEMORY.md`, `${source.id}/notes/testing.md`, `${source.id}/user-role.md`]);
    const role = data.entries.find((e) => e.filename === 'user-role.md')!;
    expect(role).toMatchObject({ name: 'user-role', description: 'Senior backend engineer', type: 'user', sessionId: uuid(1), inIndex: true, modified: '2026-11-19T09:12:44.120Z', links: ['notes/testing.md'] });
    expect(data.entries.find((e) => e.filename === 'notes/testing.md')).toMatchObject({ type: 'feedback', linkedFrom: ['user-role.md'], inIndex: false });
  });

  it('returns raw content by id and 404 "Memory not found" otherwise', async () => {
    const listing = (await api<MemoryListing>('GET', '/api/memory', '/api/memory')).data;
    const id = listing.entries.find((e) => e.filename === 'notes/testing.md')!.id;
    const { data } = await api<{ content: string }>('GET', '/api/memory/content', `/api/memory/content?id=${encodeURIComponent(id)}`);
    expect(data.content).toBe('---\nname: testing-style\ntype: feedback\n---\nTable tests. Σίγμα\n');
    for (const bad of ['', 'nope/MEMORY.md', `${id}/../../../../etc/passwd`, `${listing.sources[0]!.id}/../memory/MEMORY.md`, '/etc/passwd', `${id}%00`]) {
      const res = await api<string>('GET', '/api/memory/content', `/api/memory/content?id=${encodeURIComponent(bad)}`);
      expect(res.res.status).toBe(404);
      expect(res.data).toBe('Memory not found');
    }
    const absent = await api<string>('GET', '/api/memory/content', '/api/memory/content');
    expect(absent.res.status).toBe(404);
  });

  it('searches raw content including frontmatter, case-insensitively', async () => {
    const listing = (await api<MemoryListing>('GET', '/api/memory', '/api/memory')).data;
    const idOf = (f: string) => listing.entries.find((e) => e.filename === f)!.id;
    const search = async (q: string) => (await api<{ ids: string[] }>('GET', '/api/memory/search', `/api/memory/search?q=${encodeURIComponent(q)}`)).data.ids;
    expect(await search('ΣΊΓΜΑ')).toEqual([idOf('notes/testing.md')]);
    expect(await search('originsessionid')).toEqual([idOf('user-role.md')]);
    expect(await search('')).toEqual([]);
  });
});

describe('POST /api/refresh', () => {
  it('rescans now and reports the counts before and after', async () => {
    await fx.home.plan('fresh-plan.md', '# Fresh\n');
    const { data } = await api<{ success: boolean; before: number; after: number }>('POST', '/api/refresh', '/api/refresh');
    expect(data).toEqual({ success: true, before: 6, after: 7 });
    const plans = (await server.json<{ plans: PlanMetadata[] }>('/api/plans')).plans;
    expect(plans.map((p) => p.filename)).toContain('fresh-plan.md');
  });
});

describe('POST /api/open', () => {
  const post = (body: string, contentType = 'application/json') =>
    api<unknown>('POST', '/api/open', '/api/open', { body, headers: { 'Content-Type': contentType } });

  it('opens a listed plan or memory file by its exact filepath', async () => {
    const plan = `${fx.home.claude}/plans/jolly-juggling-penguin.md`;
    const { res, data } = await post(JSON.stringify({ filepath: plan }));
    expect(res.status).toBe(200);
    expect(data).toEqual({ success: true });
    expect(opened.at(-1)).toBe(plan);
    const memory = (await server.json<MemoryListing>('/api/memory')).entries[0]!.filepath;
    expect((await post(JSON.stringify({ filepath: memory }))).res.status).toBe(200);
    expect(opened.at(-1)).toBe(memory);
  });

  it.each([
    ['an unlisted file', JSON.stringify({ filepath: '/etc/passwd' })],
    ['a non-normalised path to a listed file', JSON.stringify({ filepath: 'PLANS/../plans/jolly-juggling-penguin.md' })],
    ['a hidden plan', JSON.stringify({ filepath: 'HIDDEN' })],
    ['malformed JSON', '{"filepath": '],
    ['a missing field', '{}'],
    ['a wrong type', '{"filepath": 42}'],
    ['an array', '[]'],
    ['an empty body', ''],
  ])('answers 400 "Invalid path" for %s', async (_what, rawBody) => {
    const before = opened.length;
    const body = rawBody.replace('PLANS', `${fx.home.claude}/plans`).replace('HIDDEN', `${fx.home.claude}/plans/.hidden.md`);
    const { res, data } = await post(body);
    expect(res.status).toBe(400);
    expect(data).toBe('Invalid path');
    expect(opened.length).toBe(before);
  });

  it('refuses a text/plain body without opening anything', async () => {
    const before = opened.length;
    const res = await request(server.port, { method: 'POST', path: '/api/open', body: JSON.stringify({ filepath: `${fx.home.claude}/plans/jolly-juggling-penguin.md` }), headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body).toBe('Invalid path');
    expect(opened.length).toBe(before);
  });
});

describe('plain-text errors', () => {
  it('answers unknown routes with 404, wrong methods with 405, malformed URLs with 400', async () => {
    const notFound = await request(server.port, { path: '/api/nope' });
    expect([notFound.status, notFound.body, notFound.headers['content-type']]).toEqual([404, 'Not found', 'text/plain; charset=utf-8']);
    const wrongMethod = await request(server.port, { method: 'DELETE', path: '/api/plans' });
    expect([wrongMethod.status, wrongMethod.body, wrongMethod.headers.allow]).toEqual([405, 'Method not allowed', 'GET, HEAD']);
    const getOpen = await request(server.port, { path: '/api/open' });
    expect(getOpen.status).toBe(405);
    const badUrl = await request(server.port, { path: '/api/plans/%E0%A4%A/content' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.headers['content-type']).toMatch(/^text\/plain/);
    expect(badUrl.body).not.toMatch(/[{}]/);
  });
});

// GET /api/find on a real server over loopback: the documented shape, 400s for bad parameters and queries,
// and the index following the watchers (new, edited and deleted plans and memory files).
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindBody } from '../../src/contract/find.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { edit, write } from '../history/transcript.js';
import { startServer, type Running } from '../helpers/http.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { buildFindHome } from './home.js';

let home: TempHome;
let server: Running;
let webapp: string;
let checker: OpenApiChecker;

beforeAll(async () => {
  home = await TempHome.create();
  ({ webapp } = await buildFindHome(home));
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: true });
  await server.viewer.finder.built;
  checker = new OpenApiChecker(await server.json<Record<string, unknown>>('/api/openapi.json'));
});

afterAll(async () => {
  await server.close();
  await home.cleanup();
});

async function find(q: string, extra = ''): Promise<FindBody> {
  const body = await server.json<FindBody>(`/api/find?q=${encodeURIComponent(q)}${extra}`);
  checker.assertResponse('GET', '/api/find', 200, 'application/json', body);
  return body;
}

/** Polls until `ok` holds for the answer to q (the watchers debounce; a generous bound, no speed asserted). */
async function eventually(q: string, ok: (body: FindBody) => boolean): Promise<FindBody> {
  const until = Date.now() + 10_000;
  for (;;) {
    const body = await find(q);
    if (ok(body)) return body;
    if (Date.now() > until) throw new Error(`"${q}" never satisfied the check: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('GET /api/find', () => {
  it('answers the documented shape, best first', async () => {
    const body = await find('zebra');
    expect(body.total).toBe(body.results.length);
    expect(body.results[0]).toMatchObject({ kind: 'plan', id: 'title-plan.md', title: 'Zebra migration' });
    expect(body.results[0]!.snippets[0]).toEqual({ line: 1, text: '# Zebra migration', ranges: [[2, 7]] });
  });

  it('pages with limit and offset', async () => {
    const all = await find('the');
    const page = await server.json<FindBody>('/api/find?q=the&limit=1&offset=1');
    expect(page.total).toBe(all.total);
    expect(page.results.map((r) => r.id)).toEqual([all.results[1]!.id]);
  });

  it('answers 400 in plain text for bad parameters and meaningless filters', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'offset=1.5', 'q=x%20in:nowhere', 'q=after:2026-1-1']) {
      const res = await server.get(`/api/find?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toMatch(/^Bad request/);
    }
    const res = await server.get('/api/find?q=x%20in:nowhere');
    expect(res.body).toContain('in:');
  });

  it('is documented in the OpenAPI description as an extension', async () => {
    const doc = await server.json<{ paths: Record<string, { get?: { description?: string } }> }>('/api/openapi.json');
    expect(doc.paths['/api/find']?.get?.description).toMatch(/extension/i);
  });
});

describe('live updates', () => {
  it('finds a new plan, its edit, and forgets it once deleted', async () => {
    const file = path.join(home.claude, 'plans', 'fresh-plan.md');
    await writeFile(file, '# Quokka census\n\nCount them all.\n');
    const added = await eventually('quokka', (b) => b.results.some((r) => r.id === 'fresh-plan.md'));
    expect(added.results[0]!.snippets[0]!.line).toBe(1);
    await writeFile(file, '# Quokka census\n\nCount them all.\nThen weigh every wombat.\n');
    const edited = await eventually('wombat', (b) => b.results.some((r) => r.id === 'fresh-plan.md'));
    expect(edited.results[0]!.snippets).toEqual([{ line: 4, text: 'Then weigh every wombat.', ranges: [[17, 23]] }]);
    await rm(file);
    await eventually('quokka', (b) => b.total === 0);
  });

  it('finds a new memory file and an edited one', async () => {
    const dir = path.join(home.claude, 'projects', encodeCwd(webapp), 'memory');
    await writeFile(path.join(dir, 'pelican.md'), '---\nname: Pelican notes\n---\n\nThe pelican brief.\n');
    const added = await eventually('pelican', (b) => b.results.some((r) => r.kind === 'memory' && r.id.endsWith('/pelican.md')));
    expect(added.results[0]!.title).toBe('Pelican notes');
    await writeFile(path.join(dir, 'style.md'), '---\nname: Code style\ndescription: Tabs or spaces\ntype: feedback\n---\n\nPrefer narwhal functions.\n');
    const edited = await eventually('narwhal', (b) => b.total === 1);
    expect(edited.results[0]!.id).toMatch(/\/style\.md$/);
    expect((await find('small')).results.some((r) => r.id.endsWith('/style.md'))).toBe(false);
  });
});

describe('archived plans', () => {
  it('finds a plan gone from disk by the text of its versions, with snippets from the newest version that has the words', async () => {
    const gone = path.join(home.claude, 'plans', 'axolotl-survey-calm-eel.md');
    const sessionId = uuid(9);
    const ctx = (minute: number) => ({ cwd: webapp, sessionId, slug: 'axolotl-survey-calm-eel', at: `2026-10-01T10:0${minute}:00.000Z` });
    // Written, then edited: "narrow" is only in the first version, "ponds" in both. The file never reaches the disk.
    await home.write(path.join('projects', encodeCwd(webapp), `${sessionId}.jsonl`), [
      write(ctx(1), gone, '# Axolotl survey\n\nCount the ponds with a narrow net.\n'),
      edit(ctx(2), gone, 'a narrow net', 'a wide net'),
    ].join('\n') + '\n');
    const byLastText = await eventually('ponds', (b) => b.results.some((r) => r.id === 'axolotl-survey-calm-eel.md'));
    const hit = byLastText.results.find((r) => r.id === 'axolotl-survey-calm-eel.md')!;
    expect(hit).toMatchObject({ kind: 'plan', title: 'Axolotl survey' });
    expect(hit.snippets).toEqual([{ line: 3, text: 'Count the ponds with a wide net.', ranges: [[10, 15]] }]);
    // A word only an earlier version had: found, its snippet cut from that version.
    const byOldText = await find('narrow');
    expect(byOldText.results.map((r) => r.id)).toEqual(['axolotl-survey-calm-eel.md']);
    expect(byOldText.results[0]!.snippets).toEqual([{ line: 3, text: 'Count the ponds with a narrow net.', ranges: [[23, 29]] }]);
    expect((await find('"wide net"')).results.map((r) => r.id)).toEqual(['axolotl-survey-calm-eel.md']);
  });
});

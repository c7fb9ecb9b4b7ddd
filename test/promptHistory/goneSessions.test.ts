// Sessions whose transcripts are gone, answered from ~/.claude/history.jsonl through a real server on
// loopback: one whose log never existed here, one whose log is deleted after start, one whose log is there.
import { rm } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Running } from '../helpers/http.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { TempHome, eventually, uuid } from '../helpers/home.js';

let home: TempHome;
let server: Running;
let api: OpenApiChecker;
let repo: string;
let deletedLog: string;
const T0 = Date.parse('2026-10-01T09:00:00Z');
const NEVER = uuid(11);
const DELETED = uuid(12);
const PRESENT = uuid(13);
const SECRET = 'sk-ant-api03-' + 'Q'.repeat(40);
const line = (o: Record<string, unknown>): string => JSON.stringify({ pastedContents: {}, ...o });

beforeAll(async () => {
  home = await TempHome.create('pmv-gone-');
  repo = await home.repo('webapp');
  deletedLog = await home.session(repo, DELETED, [null]);
  await home.session(repo, PRESENT, [null]);
  await home.write('history.jsonl', [
    line({ display: 'an old prompt without a session', timestamp: T0 - 86_400_000, project: repo }),
    line({ display: 'start the migration', timestamp: T0, project: repo, sessionId: NEVER }),
    '{"display":"torn li',
    line({ display: `deploy with ${SECRET} now`, timestamp: T0 + 60_000, project: repo, sessionId: NEVER }),
    line({ display: 'refactor the router', timestamp: new Date(T0 + 3_600_000).toISOString(), project: repo, sessionId: DELETED }),
    line({ display: 'hello', timestamp: T0 + 7_200_000, project: repo, sessionId: PRESENT }),
  ].join('\n') + '\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: true });
  api = new OpenApiChecker(await server.json('/api/openapi.json'));
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('sessions from history.jsonl', () => {
  it('answers the card of a session whose transcript was never here, from its prompts, secrets masked', async () => {
    const res = await server.get(`/api/sessions/${NEVER}`);
    expect(res.status).toBe(200);
    const card = JSON.parse(res.body) as Record<string, unknown>;
    api.assertResponse('GET', '/api/sessions/{sessionId}', 200, 'application/json', card);
    expect(card).toMatchObject({
      sessionId: NEVER, source: 'prompt-history', promptCount: 2, cwd: repo, project: 'webapp',
      firstPrompt: 'start the migration', firstAt: new Date(T0).toISOString(), lastAt: new Date(T0 + 60_000).toISOString(),
      title: null, gitBranch: null, costUsd: null, subagents: [], plans: [],
    });
    expect(card.lastPrompt).toMatch(/^deploy with •+ now$/);
    expect(res.body).not.toContain(SECRET.slice(13));
  });

  it('keeps the transcript card for a session whose log is there, and 404s an id nothing names', async () => {
    expect((await server.json<{ source: string }>(`/api/sessions/${PRESENT}`)).source).toBe('transcript');
    const unknown = await server.get(`/api/sessions/${uuid(99)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toBe('Session not found');
  });

  it('lists the gone sessions newest first, a transcript deleted after start among them', async () => {
    const before = await server.json<{ sessions: { sessionId: string }[]; total: number }>('/api/sessions/gone');
    expect(before.sessions.map((s) => s.sessionId)).toEqual([NEVER]);
    await rm(deletedLog);
    const after = await eventually(async () => {
      const body = await server.json<{ sessions: { sessionId: string }[]; total: number }>('/api/sessions/gone');
      return body.total === 2 ? body : null;
    });
    if (after === null) throw new Error('the deleted transcript\'s session never became gone');
    expect(after.sessions.map((s) => s.sessionId)).toEqual([DELETED, NEVER]);
    const card = await server.json<{ source: string; firstPrompt: string }>(`/api/sessions/${DELETED}`);
    expect(card).toMatchObject({ source: 'prompt-history', firstPrompt: 'refactor the router' });

    const res = await server.get('/api/sessions/gone?limit=1');
    const page = JSON.parse(res.body) as { sessions: { sessionId: string }[]; nextCursor: string | null; projects: unknown[]; badLines: number; total: number };
    api.assertResponse('GET', '/api/sessions/gone', 200, 'application/json', page);
    expect(page.sessions.map((s) => s.sessionId)).toEqual([DELETED]);
    expect(page).toMatchObject({ total: 2, nextCursor: '1', badLines: 1 });
    expect(page.projects).toEqual([{ project: repo, promptCount: 1, firstAt: new Date(T0 - 86_400_000).toISOString(), lastAt: new Date(T0 - 86_400_000).toISOString() }]);
    const second = await server.json<{ sessions: { sessionId: string }[]; nextCursor: string | null }>(`/api/sessions/gone?limit=1&cursor=${page.nextCursor}`);
    expect(second).toMatchObject({ sessions: [{ sessionId: NEVER }], nextCursor: null });
    expect((await server.get('/api/sessions/gone?limit=0')).status).toBe(400);
  });

  it('answers a session\'s prompts from history.jsonl, oldest first', async () => {
    const res = await server.get(`/api/sessions/${NEVER}/prompts`);
    const body = JSON.parse(res.body) as { prompts: { display: string; at: string }[] };
    api.assertResponse('GET', '/api/sessions/{sessionId}/prompts', 200, 'application/json', body);
    expect(body.prompts.map((p) => p.display)).toEqual(['start the migration', expect.stringMatching(/^deploy with •+ now$/)]);
    expect(body.prompts[0]!.at).toBe(new Date(T0).toISOString());
    expect((await server.get(`/api/sessions/${uuid(99)}/prompts`)).status).toBe(404);
  });

  it('answers MCP get_session for a gone session, by its first 8 characters too', async () => {
    const client = new Client({ name: 'pmv-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
    try {
      const result = await client.callTool({ name: 'get_session', arguments: { sessionId: NEVER.slice(0, 8) } }) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({ sessionId: NEVER, source: 'prompt-history', firstPrompt: 'start the migration', promptCount: 2 });
    } finally {
      await client.close();
    }
  });
});

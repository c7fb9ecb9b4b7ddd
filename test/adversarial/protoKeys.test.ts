// Keys that files name (session ids, slugs, agent ids, memory names) such as `__proto__`, `constructor`,
// `toString` and `hasOwnProperty`, everywhere a file names a key: at start and arriving while the service
// runs, they reach no object's prototype, every route keeps answering, and asking for them by id is a 404.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type Running } from '../helpers/http.js';
import { conversationLine, encodeCwd, eventually, TempHome, uuid } from '../helpers/home.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
let home: TempHome;
let server: Running;
let log: string;
let cwd: string;

/** Lines that name each of NAMES where a file names a key. */
function hostileLines(): string[] {
  return NAMES.flatMap((name) => [
    JSON.stringify({ type: 'summary', summary: `about ${name}`, leafUuid: name, sessionId: name }),
    JSON.stringify({ type: 'system', subtype: 'turn_duration', durationMs: 5, sessionId: name, cwd, slug: name, timestamp: '2026-02-01T10:00:00.000Z' }),
    JSON.stringify({ type: 'ai-title', aiTitle: name, sessionId: name }),
    JSON.stringify({ type: 'last-prompt', lastPrompt: name, sessionId: name }),
    JSON.stringify({
      type: 'assistant', sessionId: uuid(1), cwd, agentId: name, slug: 'the-plan', timestamp: '2026-02-01T10:01:00.000Z',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: name, name: 'ExitPlanMode', input: { plan: name, planFilePath: `/x/${name}.md` } }] },
    }),
    JSON.stringify({ type: 'user', sessionId: uuid(1), cwd, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: name, content: 'ok' }] }, toolUseResult: { [name]: name } }),
    JSON.stringify({ type: 'attachment', sessionId: uuid(1), cwd, attachment: { type: 'plan_mode', planFilePath: `/x/${name}.md` } }),
    JSON.stringify({ [name]: { polluted: true }, sessionId: uuid(1), cwd, type: name }),
  ]);
}

beforeAll(async () => {
  home = await TempHome.create('pmv-proto-');
  cwd = await home.repo('proto-repo');
  await home.plan('the-plan.md', '# The plan\n');
  log = path.join(home.claude, 'projects', encodeCwd(cwd), `${uuid(1)}.jsonl`);
  await mkdir(path.dirname(log), { recursive: true });
  await writeFile(log, [conversationLine(cwd, uuid(1), 'the-plan'), ...hostileLines()].join('\n') + '\n');
  const memory = path.join(home.claude, 'projects', encodeCwd(cwd), 'memory');
  await mkdir(memory, { recursive: true });
  await writeFile(path.join(memory, 'MEMORY.md'), NAMES.map((n) => `- [${n}](${n}.md) [[${n}]]`).join('\n') + '\n');
  for (const name of NAMES) await writeFile(path.join(memory, `${name}.md`), `---\nname: ${name}\ndescription: ${name}\n---\n# ${name}\n[[${name}]]\n`);
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: true });
  await server.viewer.startWatching();
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

function expectNoPollution(): void {
  const plain: Record<string, unknown> = {};
  expect(plain.polluted).toBeUndefined();
  expect(typeof plain.toString).toBe('function');
  expect(Object.keys(Object.prototype)).toEqual([]);
}

async function expectServing(): Promise<void> {
  for (const route of ['/api/openapi.json', '/api/plans', '/api/memory', '/api/projects', '/api/archive', '/api/plans/the-plan.md/history', '/api/memory/health', `/api/sessions/${uuid(1)}`]) {
    const res = await server.get(route);
    expect(res.status, `${route}: ${res.body.slice(0, 200)}`).toBe(200);
  }
  const client = new Client({ name: 'proto', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
  const tools = await client.listTools();
  expect(tools.tools.length).toBeGreaterThan(3);
  for (const name of NAMES) {
    const session = await client.callTool({ name: 'get_session', arguments: { sessionId: name } });
    expect(session.isError, name).toBe(true);
    const plan = await client.callTool({ name: 'get_plan', arguments: { filename: `${name}.md` } });
    expect(plan.isError, name).toBe(true);
  }
  await client.close();
}

describe('keys from files named like Object.prototype members', () => {
  it('reach no prototype at start, and every route and tool answers', async () => {
    expectNoPollution();
    await expectServing();
    const card = await server.json<{ lastPrompt: string | null; subagents: unknown[] }>(`/api/sessions/${uuid(1)}`);
    expect(card.lastPrompt).toBe('hello');
  });

  it('are unknown ids: 404 for sessions, plans, versions and memory entries named so', async () => {
    for (const name of NAMES) {
      expect((await server.get(`/api/sessions/${encodeURIComponent(name)}`)).status, name).toBe(404);
      expect((await server.get(`/api/plans/${encodeURIComponent(name)}/history`)).status, name).toBe(404);
      expect((await server.get(`/api/plans/${encodeURIComponent(name)}/content`)).status, name).toBe(404);
      expect((await server.get(`/api/plans/the-plan.md/versions/${encodeURIComponent(name)}`)).status, name).toBe(404);
      expect((await server.get(`/api/memory/content?id=${encodeURIComponent(name)}`)).status, name).toBe(404);
    }
  });

  it('reach no prototype when they arrive while the service runs', async () => {
    await appendFile(log, [...hostileLines(), conversationLine(cwd, uuid(2), 'later-plan')].join('\n') + '\n');
    await home.plan('later-plan.md', '# Later\n');
    expect(await eventually(async () => (await server.json<{ plans: { filename: string; sessionId: string | null }[] }>('/api/plans'))
      .plans.find((p) => p.filename === 'later-plan.md')?.sessionId === uuid(2), 10_000)).toBe(true);
    expectNoPollution();
    await expectServing();
    const res = await request(server.port, { path: '/api/find?q=proto' });
    expect(res.status).toBe(200);
  });
});

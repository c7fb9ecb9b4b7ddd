// The built service (dist/) over a home whose files name `__proto__`, `constructor`, `toString` and
// `hasOwnProperty` wherever a file names a key: sessionIds of conversation, summary, system and metadata
// lines, slugs, agent ids (log names and lines), plan and memory file names, memory `name:` values. It
// starts, keeps serving when such lines are appended while it runs and when it starts again from its own
// caches, and answers those ids 404 (a tool error over MCP): docs/security.md, rule 20. The in-process
// side (Object.prototype untouched) is test/adversarial/protoKeys.test.ts.
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerUrl, runCli, type CliRun } from '../helpers/cli.js';
import { conversationLine, encodeCwd, eventually, TempHome, uuid } from '../helpers/home.js';
import { request } from '../helpers/http.js';

const IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const SESSION = uuid(1);

let home: TempHome;
let repo: string;
let log: string;
let cache: string;

/** Lines of every kind that name `id` as their session, and as their agent where a line has one. */
function hostileLines(id: string, at: string): string[] {
  return [
    JSON.stringify({ type: 'summary', summary: `summary of ${id}`, sessionId: id, cwd: '/evil' }),
    JSON.stringify({ type: 'system', subtype: 'informational', content: 'x', sessionId: id, cwd: '/evil', gitBranch: 'evil', version: 'evil', entrypoint: 'evil', timestamp: at }),
    JSON.stringify({ type: 'custom-title', customTitle: `title of ${id}`, sessionId: id }),
    JSON.stringify({ type: 'ai-title', aiTitle: `ai title of ${id}`, sessionId: id }),
    JSON.stringify({ type: 'last-prompt', lastPrompt: `last of ${id}`, sessionId: id }),
    JSON.stringify({ type: 'cost-state', totalCostUSD: 9, totalLinesAdded: 9, totalLinesRemoved: 9, sessionId: id }),
    conversationLine('/evil', id, id, `prompt of ${id}`),
    JSON.stringify({
      type: 'assistant', sessionId: id, agentId: id, cwd: '/evil', timestamp: at,
      message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'Write', input: { file_path: path.join(home.claude, 'plans', `${id}.md`), content: '# x' } }] },
    }),
  ];
}

beforeAll(async () => {
  home = await TempHome.create('pmv-hostile-ids-');
  cache = path.join(home.root, 'xdg-cache');
  repo = await home.repo('app');
  await home.plan('constructor.md', '# Plan named like a prototype key\n');
  await home.plan('__proto__.md', '# Another\n');
  await home.plan('kept-plan.md', '# Kept\n');
  log = await home.session(repo, SESSION, ['kept-plan', 'constructor'], [
    JSON.stringify({ type: 'custom-title', customTitle: 'The real session', sessionId: SESSION }),
    ...IDS.flatMap((id) => hostileLines(id, '2026-11-19T09:00:05.000Z')),
  ]);
  for (const id of IDS) {
    await home.write(path.join('projects', encodeCwd(repo), SESSION, 'subagents', `agent-${id}.jsonl`), hostileLines(id, '2026-11-19T09:00:06.000Z').join('\n') + '\n');
  }
  const memory = path.join('projects', encodeCwd(repo), 'memory');
  await home.write(path.join(memory, 'MEMORY.md'), `# Memory\n${IDS.map((id) => `- [[${id}]]`).join('\n')}\n`);
  for (const id of IDS) await home.write(path.join(memory, `${id}.md`), `---\nname: ${id}\ndescription: named ${id}\ntype: user\n---\nAbout ${id}.\n`);
});

afterAll(async () => {
  await home?.cleanup();
});

async function start(): Promise<{ run: CliRun; url: string; port: number }> {
  const run = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, XDG_CACHE_HOME: cache } });
  const url = await bannerUrl(run);
  return { run, url, port: Number(new URL(url).port) };
}

async function stop(run: CliRun): Promise<void> {
  run.child.kill('SIGTERM');
  expect({ code: await run.exited, stderr: run.stderr() }).toEqual({ code: 0, stderr: '' });
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}

/** Everything the service must still answer, and the hostile ids it must not know. */
async function checkServing(port: number, sessionTitle: string): Promise<void> {
  const get = (p: string) => request(port, { path: p });
  // The real session's card, once the plan history has read the logs (in the background after start).
  const card = await eventually(async () => {
    const res = await get(`/api/sessions/${SESSION}`);
    return res.status === 200 && (JSON.parse(res.body) as { title: string }).title === sessionTitle ? res : null;
  }, 30_000);
  expect(card, `session ${SESSION} titled ${sessionTitle}`).toBeTruthy();
  expect(JSON.parse(card!.body)).toMatchObject({ sessionId: SESSION, cwd: repo, gitBranch: 'main' });

  expect((await get('/api/openapi.json')).status).toBe(200);
  const plans = await get('/api/plans');
  expect(plans.status).toBe(200);
  const listed = (JSON.parse(plans.body) as { plans: { filename: string; sessionId: string | null }[] }).plans;
  expect(listed.map((p) => p.filename).sort()).toEqual(['__proto__.md', 'constructor.md', 'kept-plan.md']);
  // `constructor` is a valid slug: the plan of that name is the session's.
  expect(listed.find((p) => p.filename === 'constructor.md')!.sessionId).toBe(SESSION);
  expect((await get('/api/plans/constructor.md/history')).status).toBe(200);
  const memory = await get('/api/memory');
  expect(memory.status).toBe(200);
  const entries = (JSON.parse(memory.body) as { entries: { id: string; name: string; filename: string }[]; sources: { danglingLinks?: string[] }[] }).entries;
  for (const id of IDS) expect(entries.find((e) => e.filename === `${id}.md`)?.name).toBe(id);

  for (const id of IDS) {
    const encoded = encodeURIComponent(id);
    expect((await get(`/api/sessions/${encoded}`)).status, `/api/sessions/${id}`).toBe(404);
    expect((await get(`/api/plans/${encoded}/history`)).status, `/api/plans/${id}/history`).toBe(404);
    expect((await get(`/api/plans/${encoded}/versions/${encoded}`)).status, `/api/plans/${id}/versions/${id}`).toBe(404);
    expect((await get(`/api/plans/${encoded}/content`)).status, `/api/plans/${id}/content`).toBe(404);
    expect((await get(`/api/memory/content?id=${encoded}`)).status, `memory ${id}`).toBe(404);
  }

  const client = new Client({ name: 'pmv-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  try {
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
    expect((await call('get_session', { sessionId: SESSION })).isError ?? false).toBe(false);
    for (const id of IDS) {
      for (const [tool, args] of [['get_session', { sessionId: id }], ['get_plan', { filename: id }], ['plan_history', { filename: id }], ['get_memory', { id }]] as const) {
        const result = await call(tool, args);
        // A plan name may be given without .md: where the home has a plan file of that name, it is that plan.
        if ((tool === 'get_plan' || tool === 'plan_history') && result.isError !== true) {
          expect(result.content[0]!.text, `${tool} ${id}`).toContain(`"filename":"${id}.md"`);
          continue;
        }
        expect(result.isError, `${tool} ${id}: ${JSON.stringify(result)}`).toBe(true);
        expect(result.content[0]!.text).toMatch(/^No /);
      }
    }
  } finally {
    await client.close();
  }
}

describe('ids that name prototype properties, in every place a file names a key', () => {
  it('are not known at start, nor after such lines are appended while running, nor after a restart from the caches', async () => {
    const first = await start();
    try {
      await checkServing(first.port, 'The real session');
      await appendFile(log, [...IDS.flatMap((id) => hostileLines(id, '2026-11-19T09:10:00.000Z')),
        JSON.stringify({ type: 'custom-title', customTitle: 'Renamed while running', sessionId: SESSION })].join('\n') + '\n');
      await checkServing(first.port, 'Renamed while running');
    } finally {
      await stop(first.run);
    }
    // Started again: the session index, the plans and the plan history come back from the cache files.
    const second = await start();
    try {
      await checkServing(second.port, 'Renamed while running');
    } finally {
      await stop(second.run);
    }
  }, 120_000);
});

// What an agent meets over MCP (the SDK's own client, POST /mcp on a real server): plans search finds
// but that left the disk, memory_health on a home with many findings, and arguments given loosely.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCwd, uuid } from '../helpers/home.js';
import { startServer, type Running } from '../helpers/http.js';
import { edit, write } from '../history/transcript.js';
import { buildFixture, type Fixture } from '../http/fixture.js';
import { answer, toolError } from './toolChecks.js';

let fixture: Fixture;
let server: Running;
let client: Client;

beforeAll(async () => {
  fixture = await buildFixture();
  const { home, webapp } = fixture;
  // A plan a session wrote and edited that never reached the disk: in the archive only.
  const gone = path.join(home.claude, 'plans', 'axolotl-survey-calm-eel.md');
  const ctx = (minute: number) => ({ cwd: webapp, sessionId: uuid(9), slug: 'axolotl-survey-calm-eel', at: `2026-10-01T10:0${minute}:00.000Z` });
  await home.write(path.join('projects', encodeCwd(webapp), `${uuid(9)}.jsonl`), [
    write(ctx(1), gone, '# Axolotl survey\n\nCount the ponds with a narrow net.\n'),
    edit(ctx(2), gone, 'a narrow net', 'a wide net'),
  ].join('\n') + '\n');
  // A memory folder with 120 dangling links: 120 findings.
  const heavy = await home.repo('heavy');
  const links = Array.from({ length: 120 }, (_, i) => `- [Gone ${i}](gone-${i}.md) — dangling`);
  await home.write(`projects/${encodeCwd(heavy)}/memory/MEMORY.md`, `# Memory\n\n${links.join('\n')}\n`);
  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
  await server.viewer.startWatching();
  await server.viewer.history.ready;
  client = new Client({ name: 'pmv-agent-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await fixture?.home.cleanup();
});

describe('archived plans', () => {
  it('get_plan serves a plan search found in the archive, its last version, saying it is archived', async () => {
    const found = await answer(client, 'search', { query: 'axolotl ponds' });
    expect(found.results.map((r: { id: string }) => r.id)).toContain('axolotl-survey-calm-eel.md');
    const plan = await answer(client, 'get_plan', { filename: 'axolotl-survey-calm-eel.md' });
    expect(plan.archived).toBe(true);
    expect(plan.content).toBe('# Axolotl survey\n\nCount the ponds with a wide net.\n');
    expect(plan.metadata).toMatchObject({ filename: 'axolotl-survey-calm-eel.md', title: 'Axolotl survey', sessionId: uuid(9) });
    expect(typeof plan.version).toBe('string');
    expect(plan.session).toMatchObject({ sessionId: uuid(9) });
    // A listed plan says it is not archived.
    expect((await answer(client, 'get_plan', { filename: 'jolly-juggling-penguin.md' })).archived).toBe(false);
  });
});

describe('memory_health on a heavy home', () => {
  it('answers a summary by default, and the findings on request, at most limit, saying how many were left out', async () => {
    const summaryText = await rawText('memory_health', {});
    const summary = JSON.parse(summaryText);
    expect(summary.findings).toBe(121);
    expect(summary.findingsByKind).toEqual({ dangling: 121 });
    const heavySource = summary.sources.find((s: { project: string }) => s.project === 'heavy');
    expect(heavySource).toMatchObject({ findingCount: 120, findingsByKind: { dangling: 120 }, index: { danglingLinkCount: 120 } });
    expect(heavySource.findings).toBeUndefined();
    expect(summaryText.length).toBeLessThan(3000);

    const detailed = await answer(client, 'memory_health', { detail: true });
    expect(detailed.sources.flatMap((s: { findings: unknown[] }) => s.findings)).toHaveLength(50);
    expect(detailed.omitted).toEqual({ findings: 71, orphans: 0, danglingLinks: 70 });
    expect(detailed.note).toMatch(/limit/);
    const few = await answer(client, 'memory_health', { kind: 'dangling', limit: 5 });
    expect(few.sources.flatMap((s: { findings: unknown[] }) => s.findings)).toHaveLength(5);
    expect(few.omitted.findings).toBe(116);
    const none = await answer(client, 'memory_health', { kind: 'stale' });
    expect(none.sources.flatMap((s: { findings: unknown[] }) => s.findings)).toEqual([]);
    // The arguments are described in the tool's input schema.
    const tool = (await client.listTools()).tools.find((t) => t.name === 'memory_health')!;
    const props = tool.inputSchema.properties as Record<string, { description?: string }>;
    for (const name of ['source', 'detail', 'kind', 'limit']) expect(props[name]?.description, name).toBeTruthy();
  });
});

async function rawText(name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
  expect(result.isError ?? false, result.content[0]?.text).toBe(false);
  return result.content[0]!.text;
}

describe('forgiving arguments', () => {
  it('takes plan names without .md, short session ids and project names, and lists the closest values when nothing matches', async () => {
    expect((await answer(client, 'get_plan', { filename: 'jolly-juggling-penguin' })).metadata.filename).toBe('jolly-juggling-penguin.md');
    expect((await answer(client, 'get_plan', { filename: 'axolotl-survey-calm-eel' })).archived).toBe(true);
    expect((await answer(client, 'plan_history', { filename: 'jolly-juggling-penguin' })).filename).toBe('jolly-juggling-penguin.md');
    expect((await answer(client, 'get_session', { sessionId: uuid(1).slice(0, 8) })).sessionId).toBe(uuid(1));
    const byProject = await answer(client, 'memory_health', { source: 'WebApp' });
    expect(byProject.sources.map((s: { project: string }) => s.project)).toEqual(['webapp']);

    expect(await toolError(client, 'get_plan', { filename: 'jolly-jugling-penguin.md' })).toMatch(/closest: jolly-juggling-penguin\.md/);
    expect(await toolError(client, 'plan_history', { filename: 'axolotl-survey' })).toMatch(/closest: axolotl-survey-calm-eel\.md/);
    expect(await toolError(client, 'memory_health', { source: 'webap' })).toMatch(/closest: .*webapp/);
    expect(await toolError(client, 'get_session', { sessionId: 'zzzzzzzz' })).toMatch(/closest: /);
    expect(await toolError(client, 'get_memory', { id: `${encodeCwd(fixture.webapp)}/user-rol.md` })).toMatch(/closest: .*user-role\.md/);
  });
});

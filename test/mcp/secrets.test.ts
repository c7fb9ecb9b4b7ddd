// Secrets in memory files never reach the model: the SDK client over POST /mcp on a real server reads a
// MEMORY.md holding a GitHub token through get_memory (whole, and in windows that cut the token in two),
// search and memory_health, and finds the token in none of them; GET /api/memory/content (the spec's
// endpoint, read by a person who asked to see it) stays raw.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';

const TOKEN = `ghp_${'Zq7'.repeat(12)}`;
const PASSWORD = 'hunter2-Kq9x';
const NOTES = Array.from({ length: 30 }, (_, i) => `- Note ${i}: nothing secret here at all.`).join('\n');
const INDEX = `# Memory\n- [Deploy](deploy.md) — how CI deploys\n${NOTES}\n\nCI pushes with the GitHub token ${TOKEN} (rotate yearly).\n`;
const TOPIC = `---\nname: deploy\ndescription: "staging db_password=${PASSWORD}"\nmetadata:\n  type: project\n---\n# Deploy\n\nThe deploy bot uses ${TOKEN} on the runners.\n`;

let home: TempHome;
let server: Running;
let client: Client;
let sourceId: string;

interface Answer { content: { type: string; text: string }[]; isError?: boolean }
async function call(name: string, args: Record<string, unknown>): Promise<string> {
  const answer = (await client.callTool({ name, arguments: args })) as Answer;
  expect(answer.isError ?? false).toBe(false);
  return answer.content.map((c) => c.text).join('');
}

beforeAll(async () => {
  home = await TempHome.create();
  const repo = await home.repo('webapp');
  await home.session(repo, uuid(1), [null]);
  await home.write(`projects/${encodeCwd(repo)}/memory/MEMORY.md`, INDEX);
  await home.write(`projects/${encodeCwd(repo)}/memory/deploy.md`, TOPIC);
  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
  sourceId = encodeCwd(repo);
  client = new Client({ name: 'pmv-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await home?.cleanup();
});

/** No run of 8 characters of the secret appears: neither it nor a recognisable part of it. */
function expectNoPartOf(text: string, secret: string): void {
  for (let i = 0; i + 8 <= secret.length; i++) expect(text).not.toContain(secret.slice(i, i + 8));
}

describe('secrets in MCP answers', () => {
  it('get_memory masks the token in the content and the password in the description, keeping the rest', async () => {
    const index = JSON.parse(await call('get_memory', { id: `${sourceId}/MEMORY.md` })) as { content: string };
    expectNoPartOf(index.content, TOKEN);
    expect(index.content).toContain('CI pushes with the GitHub token ••••');
    expect(index.content).toContain('(rotate yearly).');
    const topic = JSON.parse(await call('get_memory', { id: `${sourceId}/deploy.md` })) as { content: string; metadata: { description: string } };
    expectNoPartOf(topic.content, TOKEN);
    expect(topic.content).toContain('The deploy bot uses ••••');
    expect(topic.metadata.description).toBe(`staging db_password=${'•'.repeat(PASSWORD.length)}`);
  });

  it('get_memory in windows that cut the token in two leaks neither half', async () => {
    const at = Buffer.byteLength(INDEX.slice(0, INDEX.indexOf(TOKEN) + 20));
    expect(at).toBeGreaterThan(1024);
    const first = JSON.parse(await call('get_memory', { id: `${sourceId}/MEMORY.md`, maxBytes: at })) as { content: string; nextOffset: number };
    expect(first.nextOffset).toBe(at);
    const second = JSON.parse(await call('get_memory', { id: `${sourceId}/MEMORY.md`, offset: at })) as { content: string };
    expectNoPartOf(first.content, TOKEN);
    expectNoPartOf(second.content, TOKEN);
    expect(second.content).toContain('(rotate yearly).');
  });

  it('search snippets and memory_health findings carry no secret', async () => {
    const search = await call('search', { query: 'deploy' });
    expect(search).toContain('deploy.md');
    expectNoPartOf(search, TOKEN);
    const runners = await call('search', { query: 'runners' });
    expect(runners).toContain('deploy bot uses');
    expectNoPartOf(runners, TOKEN);
    const health = await call('memory_health', { detail: true });
    expect(health).toContain('"kind":"secret"');
    expectNoPartOf(health, TOKEN);
    expect(health).not.toContain(PASSWORD);
  });

  it('GET /api/memory/content stays raw (the spec endpoint, read when a person reveals)', async () => {
    const res = await server.get(`/api/memory/content?id=${encodeURIComponent(`${sourceId}/MEMORY.md`)}`);
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as { content: string }).content).toBe(INDEX);
  });
});

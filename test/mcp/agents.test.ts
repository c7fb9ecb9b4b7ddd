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
import { answer } from './toolChecks.js';

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

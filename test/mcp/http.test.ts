// POST /mcp on a real server on loopback: the SDK's own client over Streamable HTTP, and the perimeter
// (Host, Origin, Fetch-Metadata) applied to it like to every route.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type Running } from '../helpers/http.js';
import { buildFixture, type Fixture } from '../http/fixture.js';
import { checkBadArguments, checkEveryTool } from './toolChecks.js';

let fixture: Fixture;
let server: Running;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'pmv-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), { requestInit: { headers } }));
  return client;
}

beforeAll(async () => {
  fixture = await buildFixture();
  server = await startServer({ claudeDir: fixture.home.claude, homeDir: fixture.home.root });
  // What the CLI does once it serves: the plans' stories and session cards are read in the background.
  await server.viewer.startWatching();
  await server.viewer.history.ready;
});

afterAll(async () => {
  await server?.close();
  await fixture?.home.cleanup();
});

describe('POST /mcp (Streamable HTTP)', () => {
  it('answers every tool to the SDK client', async () => {
    const client = await connect();
    try {
      expect(client.getServerVersion()?.name).toBe('plan-memory-viewer');
      await checkEveryTool(client, fixture);
    } finally {
      await client.close();
    }
  });

  it('answers bad arguments as tool errors', async () => {
    const client = await connect();
    try {
      await checkBadArguments(client, fixture);
    } finally {
      await client.close();
    }
  });

  it('accepts our own origin', async () => {
    const res = await request(server.port, { method: 'POST', path: '/mcp', headers: { ...MCP_HEADERS, Origin: `http://127.0.0.1:${server.port}` }, body: INITIALIZE });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).result.serverInfo.name).toBe('plan-memory-viewer');
    // The perimeter's headers survive the transport writing the answer itself.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a foreign Origin, another site and a foreign Host', async () => {
    for (const headers of <Record<string, string>[]>[
      { Origin: 'http://evil.example' },
      { Origin: `http://localhost:${server.port + 1}` },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors' },
      { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'cors' },
    ]) {
      const res = await request(server.port, { method: 'POST', path: '/mcp', headers: { ...MCP_HEADERS, ...headers }, body: INITIALIZE });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toBe('Forbidden: cross-origin request');
    }
    const host = await request(server.port, { method: 'POST', path: '/mcp', host: 'evil.example', headers: MCP_HEADERS, body: INITIALIZE });
    expect(host.status).toBe(403);
    expect(host.body).toBe('Forbidden: host not allowed');
    await expect(connect({ Origin: 'http://evil.example' })).rejects.toThrow(/Forbidden: cross-origin request/);
  });

  it('offers no event stream or session to end: GET and DELETE are 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await request(server.port, { method, path: '/mcp', headers: { Accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });

  it('answers a body that is no JSON-RPC message with an error, and keeps serving', async () => {
    const garbage = await request(server.port, { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: '{"hello": 1}' });
    expect(garbage.status).toBe(400);
    const malformed = await request(server.port, { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: '{' });
    expect(malformed.status).toBe(400);
    const ok = await request(server.port, { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: INITIALIZE });
    expect(ok.status).toBe(200);
  });
});

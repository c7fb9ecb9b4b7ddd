// The Model Context Protocol, over stdio (`plan-memory-viewer mcp`) and over Streamable HTTP (`/mcp` of
// the running viewer). Built as its own bundle (dist/mcp.cjs): the SDK and zod are loaded by these two
// uses only, not by every start of the viewer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Viewer } from '../viewer.js';
import { createMcpServer } from './tools.js';

/**
 * Serves MCP on stdin/stdout until the client closes stdin (or the transport fails). stdout carries only
 * protocol messages: everything else goes to stderr.
 */
export async function serveStdio(viewer: Viewer, version: string): Promise<void> {
  const server = createMcpServer(viewer, version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}

/**
 * Answers one HTTP request to /mcp, statelessly: a server and transport per request, JSON answers (no
 * event stream to keep open). The caller has already applied the Host, Origin and Fetch-Metadata rules.
 */
export async function serveHttp(viewer: Viewer, version: string, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const server = createMcpServer(viewer, version);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.once('close', () => {
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

// POST /mcp: the Model Context Protocol over Streamable HTTP (an extension), stateless: every request is
// answered on its own, in JSON. The perimeter in server.ts has run before this (Host allowlist,
// Fetch-Metadata, and for a POST the same-origin rule: a page of another origin is refused), as for any
// route. GET and DELETE (the event stream and the end of a session) are not offered: 405.
import type { FastifyInstance } from 'fastify';
import type { Viewer } from '../../viewer.js';
import { PACKAGE_VERSION } from '../../config/packageRoot.js';
import { MCP_BATCH_LIMIT, oversizedBatch } from '../../mcp/limits.js';
import { statusText } from '../errors.js';

const schema = {
  summary: 'Model Context Protocol, Streamable HTTP (extension)',
  description: 'JSON-RPC messages of the Model Context Protocol (https://modelcontextprotocol.io), stateless, answered in ' +
    'JSON: the read-only tools search, list_plans, get_plan, plan_history, get_memory, memory_health and get_session that ' +
    '`plan-memory-viewer mcp` serves on stdio. Same Host, Origin and Fetch-Metadata rules as every route: a request from ' +
    'another origin is refused (403). The body is not described here: it is the protocol\'s.',
  response: {
    200: { description: 'A JSON-RPC response', content: { 'application/json': { schema: { type: 'object' } } } },
    202: { description: 'A notification or response was accepted', content: { 'text/plain': { schema: { type: 'string' } } } },
    400: { description: `Not a JSON-RPC message, or a batch of more than ${MCP_BATCH_LIMIT}`, content: { 'application/json': { schema: { type: 'object' } } } },
    403: { description: 'Foreign Host or another origin', content: { 'text/plain': { schema: { type: 'string' } } } },
    406: { description: 'The Accept header does not take both application/json and text/event-stream', content: { 'application/json': { schema: { type: 'object' } } } },
  },
};

export function mcpRoutes(app: FastifyInstance, viewer: Viewer): void {
  app.post('/mcp', { schema }, async (request, reply) => {
    // Each call of a batch may read a window of a large plan: a batch is bounded before any of it runs.
    const refused = oversizedBatch(request.body);
    if (refused !== null) return reply.code(400).send(refused);
    // The transport writes to the raw response itself.
    reply.hijack();
    const res = reply.raw;
    // What the perimeter set (the security headers) would be left behind on the hijacked reply.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    try {
      const { serveHttp } = await import('../../mcp/index.js');
      await serveHttp(viewer, PACKAGE_VERSION, request.raw, res, request.body);
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(statusText(500));
      else res.destroy();
    }
  });
}

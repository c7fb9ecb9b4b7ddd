// Builds the fastify app: guards first, then thin routes over the Viewer, then the OpenAPI document.
import { STATUS_CODES } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import type { Viewer } from '../viewer.js';
import { installErrorHandling, sendText, statusText } from './errors.js';
import { fetchSiteAllowed, hostAllowed, sameOriginAllowed, SECURITY_HEADERS, type GuardConfig } from './guards.js';
import { serializeReply } from './json.js';
import { lazyCompilers } from './lazyCompilers.js';
import { openapiOptions } from './openapi.js';
import { MALFORMED_QUERY, parseQueryString } from './queryString.js';
import { collectRoutes } from './routeTable.js';
import { actionRoutes, type Opener } from './routes/actions.js';
import { statusRoutes } from './routes/status.js';
import { eventRoutes } from './routes/events.js';
import { memoryRoutes } from './routes/memory.js';
import { memoryCareRoutes } from './routes/memoryCare.js';
import { findRoutes } from './routes/find.js';
import { historyRoutes } from './routes/history.js';
import { memoryHistoryRoutes } from './routes/memoryHistory.js';
import { memoryChangesRoutes } from './routes/memoryChanges.js';
import { outcomeRoutes } from './routes/outcome.js';
import { costRoutes } from './routes/costs.js';
import { transcriptRoutes } from './routes/transcript.js';
import { sessionMemoryRoutes } from './routes/sessionMemory.js';
import { mcpRoutes } from './routes/mcp.js';
import { planRoutes } from './routes/plans.js';
import { staticUiRoutes } from './routes/staticUi.js';
import { endpoints } from '../contract/endpoints.js';
import { components } from '../contract/shapes.js';

export interface ServerOptions {
  viewer: Viewer;
  opener: Opener;
  allowedHosts?: readonly string[];
  /** Folder of the built UI (dist/web); a missing folder serves a hint instead of the UI. */
  webDir: string;
  /** Per-launch token required on every request when bound to a non-loopback address (security rule 1). */
  accessToken?: string | null;
  /** The bundled demo home is served: the UI says so (announced in the event stream's `ready`). */
  demo?: boolean;
}

const BODY_LIMIT = 16 * 1024;

const validatorPreparers = new WeakMap<FastifyInstance, () => Promise<number>>();

/**
 * Compiles the routes' validators not compiled yet, a turn each (see lazyCompilers.ts): for the CLI to call
 * once the first answers are out. Resolves to how many it compiled.
 */
export function prepareValidators(app: FastifyInstance): Promise<number> {
  return validatorPreparers.get(app)?.() ?? Promise.resolve(0);
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const compilers = lazyCompilers();
  const guard: GuardConfig = {
    allowedHosts: (options.allowedHosts ?? []).map((h) => h.toLowerCase()),
    port: () => {
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : 0;
    },
  };

  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    // A plan file name can be 255 bytes (`<100-char slug>-agent-<id>.md` is ~127 characters); the router's
    // default 100-character limit on a path parameter would answer such a plan's content with 404.
    routerOptions: { maxParamLength: 1024, querystringParser: parseQueryString },
    // No type coercion: `{"filepath": ["<listed path>"]}` is a malformed body (400), not that path.
    // The route schemas are TypeBox's and checked by the OpenAPI tests, so ajv need not validate them
    // against its meta-schema at every start (compiling that cost ~60 ms).
    ajv: { customOptions: { coerceTypes: false, validateSchema: false } },
    schemaController: { compilersFactory: compilers.factories },
    // Slow-header and slow-body clients are cut off (security rule 6). A missing Host is left to the
    // guard, which answers it like any other foreign Host (403) rather than Node's bare 400.
    http: { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_000, requireHostHeader: false } as object,
    // fastify assigns its own requestTimeout (default 0, none) to the server after creating it, which
    // would undo the one above: a client trickling a body would hold its connection forever.
    requestTimeout: 30_000,
    return503OnClosing: true,
    // Errors raised while routing (a malformed percent-escape in the path) bypass the error handler and
    // the hooks: the perimeter is applied here too, so such a request from a foreign Host or another
    // site gets the same 403 as any other.
    frameworkErrors: (error, request, reply) => {
      if (!admitted(request, reply)) return;
      const status = (error as { statusCode?: number }).statusCode ?? 400;
      const code = (error as { code?: string }).code;
      if (status >= 500) void sendText(reply, 500, statusText(500));
      else void sendText(reply, 400, code === 'FST_ERR_BAD_URL' ? 'Bad request: malformed URL' : statusText(400));
    },
    // Requests Node cannot parse (bad framing, header overflow, slow headers) never reach the hooks; they
    // are answered in plain text with the security headers too, instead of fastify's default JSON.
    clientErrorHandler: (error, socket) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ECONNRESET' || socket.destroyed) return;
      const status = code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const body = statusText(status);
      const headers = { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
      if (socket.writable) {
        const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
        socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines}\r\n${body}`);
      }
      socket.destroy(error);
    },
  });

  app.removeAllContentTypeParsers();
  // JSON only, and an empty JSON body is "no body" (POST /api/refresh sends none).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('Malformed JSON body'), { statusCode: 400 }), undefined);
    }
  });

  /**
   * The perimeter, before anything else of ours runs for a request (routes, the UI's files, the event
   * stream, the OpenAPI document, not-found answers): false when it answered with a 403.
   */
  const admitted = (request: FastifyRequest, reply: FastifyReply): boolean => {
    void reply.headers(SECURITY_HEADERS);
    const refuse = (message: string): false => (void sendText(reply, 403, message), false);
    if (!hostAllowed(request.raw, guard)) return refuse('Forbidden: host not allowed');
    if (!fetchSiteAllowed(request.raw)) return refuse('Forbidden: cross-origin request');
    if (options.accessToken) {
      const via = tokenSource(request.raw.headers, request.query, options.accessToken);
      if (via === null) return refuse('Forbidden: missing or wrong access token');
      // The printed URL carries the token once; the cookie lets the page's own requests carry it after.
      if (via === 'query') void reply.header('set-cookie', `pmv_token=${options.accessToken}; HttpOnly; SameSite=Strict; Path=/`);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD' && !sameOriginAllowed(request.raw, guard)) {
      return refuse('Forbidden: cross-origin request');
    }
    return true;
  };

  app.addHook('onRequest', (request, reply, done) => {
    if (!admitted(request, reply)) return;
    if (request.query === MALFORMED_QUERY) return void sendText(reply, 400, 'Bad request: malformed percent-escape in the query');
    // The CLI listens while the first scan runs: a client that connects early (a browser opened at once)
    // is answered as soon as the stores are complete, never with a partial list.
    if (options.viewer.isLoaded || answeredWhileLoading(request.method, request.url)) return done();
    void options.viewer.loaded.then(() => done());
  });

  installErrorHandling(app, collectRoutes(app));
  app.setReplySerializer(serializeReply);
  await app.register(swagger, openapiOptions());
  // The shared shapes, once each: the endpoints refer to them by name ($ref), and so does the document.
  for (const schema of Object.values(components)) app.addSchema(schema);

  planRoutes(app, options.viewer);
  historyRoutes(app, options.viewer);
  memoryHistoryRoutes(app, options.viewer);
  memoryChangesRoutes(app, options.viewer);
  outcomeRoutes(app, options.viewer);
  costRoutes(app, options.viewer);
  transcriptRoutes(app, options.viewer);
  sessionMemoryRoutes(app, options.viewer);
  findRoutes(app, options.viewer);
  memoryRoutes(app, options.viewer);
  memoryCareRoutes(app, options.viewer);
  actionRoutes(app, options.viewer, options.opener);
  eventRoutes(app, options.viewer, options.demo ?? false);
  statusRoutes(app, options.viewer, options.demo ?? false);
  mcpRoutes(app, options.viewer);
  app.get('/api/openapi.json', { schema: endpoints.openapi }, () => app.swagger());
  staticUiRoutes(app, options.webDir);

  await app.ready();
  validatorPreparers.set(app, compilers.prepare);
  return app;
}

/**
 * What needs no scan: the web UI's files, so the page comes up and shows its progress, and GET /api/status,
 * which reports that progress. Every other route (the spec's and MCP) waits: never a partial list.
 */
function answeredWhileLoading(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = url.split('?', 1)[0]!;
  return pathname === '/api/status' || !(pathname === '/api' || pathname.startsWith('/api/') || pathname === '/mcp' || pathname.startsWith('/mcp/'));
}

/** The token of a non-loopback launch: a header for scripts, a cookie for the browser after ?token=. */
function tokenSource(headers: import('node:http').IncomingHttpHeaders, query: unknown, token: string): 'header' | 'cookie' | 'query' | null {
  if (headers['x-viewer-token'] === token) return 'header';
  const cookie = headers.cookie ?? '';
  if (cookie.split(/;\s*/).includes(`pmv_token=${token}`)) return 'cookie';
  // The query as parseQueryString decoded it (null when routing failed before a query was parsed).
  return typeof query === 'object' && query !== null && (query as Record<string, unknown>).token === token ? 'query' : null;
}

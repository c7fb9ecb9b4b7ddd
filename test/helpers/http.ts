// Raw HTTP requests with exact headers (fetch silently drops a Host override), plus a server harness.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/http/server.js';
import type { Opener } from '../../src/http/routes/actions.js';
import { Viewer, type ViewerOptions } from '../../src/viewer.js';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Send the Host header as given (default: 127.0.0.1:<port>); null omits it entirely. */
  host?: string | null;
}

export function request(port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { ...(req.headers ?? {}) };
    const raw: string[] = [];
    if (req.host !== null) raw.push('Host', req.host ?? `127.0.0.1:${port}`);
    for (const [name, value] of Object.entries(headers)) {
      for (const v of Array.isArray(value) ? value : [value]) raw.push(name, v);
    }
    // Like browsers and curl: a bodiless POST says Content-Length: 0 rather than going chunked.
    raw.push('Content-Length', String(req.body === undefined ? 0 : Buffer.byteLength(req.body)));
    const r = http.request({ host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.path, headers: raw, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

export interface Running {
  app: FastifyInstance;
  viewer: Viewer;
  port: number;
  /** What the viewer's logger warned about. */
  warnings: string[];
  /** Paths the default (recording) opener was asked to open. */
  opened: string[];
  get(pathname: string, headers?: Record<string, string>): Promise<RawResponse>;
  json<T>(pathname: string): Promise<T>;
  close(): Promise<void>;
}

export const WEB_DIR = path.resolve(import.meta.dirname, '../../dist/web');

export async function startServer(options: {
  claudeDir: string;
  homeDir?: string;
  opener?: Opener;
  allowedHosts?: string[];
  watch?: boolean;
  webDir?: string;
  /** Memory care: where undo records go, --read-only, the stale age. */
  care?: Pick<ViewerOptions, 'careDir' | 'readOnly' | 'staleDays'>;
  /** Where the viewer keeps what it derives and observes (none by default). */
  cacheDir?: string | null;
  /** --history-limit in bytes (default 200 MB). */
  historyLimitBytes?: number;
}): Promise<Running> {
  const warnings: string[] = [];
  const opened: string[] = [];
  const viewer = await Viewer.open({
    claudeDir: options.claudeDir,
    homeDir: options.homeDir ?? os.homedir(),
    logger: { warn: (m) => warnings.push(m) },
    watch: options.watch ?? false,
    ...options.care,
    cacheDir: options.cacheDir ?? null,
    historyLimitBytes: options.historyLimitBytes,
  });
  await viewer.watching;
  const app = await buildServer({
    viewer,
    opener: options.opener ?? (async (f) => (opened.push(f), true)),
    allowedHosts: options.allowedHosts ?? [],
    webDir: options.webDir ?? WEB_DIR,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    app,
    viewer,
    port,
    warnings,
    opened,
    get: (pathname, headers) => request(port, { path: pathname, headers }),
    async json<T>(pathname: string): Promise<T> {
      const res = await request(port, { path: pathname });
      if (res.status !== 200) throw new Error(`${pathname}: ${res.status} ${res.body}`);
      return JSON.parse(res.body) as T;
    },
    async close() {
      await app.close();
      await viewer.close();
    },
  };
}

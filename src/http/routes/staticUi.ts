// The web UI: the built files of dist/web, read on the first request for any of them and served from
// memory after that (reading and hashing ~4 MB is not worth delaying the start for API-only users).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendText } from '../errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  immutable: boolean;
}

function walk(dir: string, base = dir): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(full, base));
    else if (entry.isFile()) files.push(path.relative(base, full));
  }
  return files;
}

/**
 * Synchronous: a few dozen files are read in one go faster than with a promise round trip per open, stat,
 * read and close through the thread pool (docs/decisions.md, D8).
 */
function loadUi(webDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const rel of walk(webDir)) {
    const body = readFileSync(path.join(webDir, rel));
    const urlPath = '/' + rel.split(path.sep).join('/');
    assets.set(urlPath, {
      body,
      type: TYPES[path.extname(rel)] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      // Vite puts content hashes in the names under assets/, so those never change.
      immutable: urlPath.startsWith('/assets/'),
    });
  }
  return assets;
}

export function staticUiRoutes(app: FastifyInstance, webDir: string): void {
  let loaded: Map<string, Asset> | null = null;
  const assets = (): Map<string, Asset> => (loaded ??= loadUi(webDir));
  app.get('/', { schema: { hide: true } }, (request, reply) => {
    const index = assets().get('/index.html');
    if (!index) return sendText(reply, 503, 'The web UI is not built: run `npm run build`.');
    return serve(request.headers['if-none-match'], reply, index);
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const asset = pathname !== '/index.html' ? assets().get(pathname) : undefined;
    // Unknown paths (and API paths with the wrong method) go to the not-found handler: 404 or 405.
    if (!asset) return reply.callNotFound();
    return serve(request.headers['if-none-match'], reply, asset);
  });
}

function serve(ifNoneMatch: string | undefined, reply: import('fastify').FastifyReply, asset: Asset) {
  void reply
    .header('etag', asset.etag)
    .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (ifNoneMatch === asset.etag) return reply.code(304).send();
  return reply.type(asset.type).send(asset.body);
}

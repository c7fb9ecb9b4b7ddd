// The web UI: the built files of dist/web, read on the first request for any of them and served from
// memory after that (reading and hashing ~4 MB is not worth delaying the start for API-only users).
// The build leaves a brotli (.br) and a gzip (.gz) copy beside each text file (scripts/compress-web.js);
// each request gets the smallest one its Accept-Encoding allows, with its own ETag.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendText } from '../errors.js';
import { chooseEncoding, etagMatches, type Encoding } from '../acceptEncoding.js';

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
  /** Precompressed copies, smallest first. */
  encoded: { encoding: Encoding; body: Buffer; etag: string }[];
}

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };
const PREFERENCE: readonly Encoding[] = ['br', 'gzip'];

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
  const files = new Set(walk(webDir));
  // A compressed copy of a file that is there is not an asset of its own.
  const isCopy = (rel: string) => PREFERENCE.some((e) => rel.endsWith(SUFFIX[e]) && files.has(rel.slice(0, -SUFFIX[e].length)));
  for (const rel of files) {
    if (isCopy(rel)) continue;
    const body = readFileSync(path.join(webDir, rel));
    const urlPath = '/' + rel.split(path.sep).join('/');
    const hash = createHash('sha1').update(body).digest('base64url');
    const encoded = PREFERENCE.filter((e) => files.has(rel + SUFFIX[e])).map((encoding) => ({
      encoding,
      body: readFileSync(path.join(webDir, rel + SUFFIX[encoding])),
      // Another representation, another tag: a cache must not answer a gzip request with brotli bytes.
      etag: `"${hash}-${encoding}"`,
    }));
    assets.set(urlPath, {
      body,
      type: TYPES[path.extname(rel)] ?? 'application/octet-stream',
      etag: `"${hash}"`,
      // Vite puts content hashes in the names under assets/, so those never change.
      immutable: urlPath.startsWith('/assets/'),
      encoded,
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
    return serve(request.headers, reply, index);
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const asset = pathname !== '/index.html' ? assets().get(pathname) : undefined;
    // Unknown paths (and API paths with the wrong method) go to the not-found handler: 404 or 405.
    if (!asset) return reply.callNotFound();
    return serve(request.headers, reply, asset);
  });
}

function serve(headers: IncomingHttpHeaders, reply: FastifyReply, asset: Asset) {
  const encoding = chooseEncoding(headers['accept-encoding'], asset.encoded.map((e) => e.encoding));
  const chosen = asset.encoded.find((e) => e.encoding === encoding);
  const etag = chosen?.etag ?? asset.etag;
  void reply.header('etag', etag).header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (asset.encoded.length > 0) void reply.header('vary', 'accept-encoding');
  if (etagMatches(headers['if-none-match'], etag)) return reply.code(304).send();
  if (chosen) void reply.header('content-encoding', chosen.encoding);
  return reply.type(asset.type).send(chosen?.body ?? asset.body);
}

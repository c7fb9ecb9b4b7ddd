// A JSON body rebuilt only when its source changes, with an ETag and a gzip copy made on first demand.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendSerialized } from './json.js';
import { chooseEncoding, etagMatches } from './acceptEncoding.js';

interface Built {
  version: number;
  body: Buffer;
  etag: string;
  gzipped: Buffer | null;
}

// The ETag is this process's id and the source's version: it changes with every change of the body and
// costs nothing, where hashing the body would cost time per change (docs/decisions.md, D10). A restart
// changes it too (one extra full response per client, no wrong 304).
const PROCESS_TAG = randomBytes(6).toString('base64url');

// zlib is loaded by the first gzip request, not at start: most starts never need it.
let zlibModule: typeof import('node:zlib') | null = null;
function zlib(): typeof import('node:zlib') {
  zlibModule ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  return zlibModule;
}

export class CachedJson {
  private built: Built | null = null;

  constructor(
    private readonly version: () => number,
    /** The body's JSON bytes (the domain serializes what it caches, see PlanStore.listJson()). */
    private readonly build: () => Buffer,
  ) {}

  current(): Built {
    const version = this.version();
    if (this.built?.version !== version) {
      const body = this.build();
      const etag = `"${PROCESS_TAG}-${version}"`;
      this.built = { version, body, etag, gzipped: null };
    }
    return this.built;
  }

  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const built = this.current();
    void reply.header('etag', built.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (etagMatches(request.headers['if-none-match'], built.etag)) return reply.code(304).send();
    if (built.body.length > 1024 && chooseEncoding(request.headers['accept-encoding'], ['gzip']) === 'gzip') {
      built.gzipped ??= zlib().gzipSync(built.body, { level: 6 });
      return sendSerialized(reply.header('content-encoding', 'gzip'), built.gzipped);
    }
    return sendSerialized(reply, built.body);
  }
}

// The request-origin matrix: every combination of Host, Origin, Sec-Fetch-Site and Content-Type against
// the state-changing routes, checked against an oracle written from security.md rules 2-5, plus CORS
// preflights on every route. test/http/security.test.ts has the hand-picked cases; this is the product.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempHome } from '../helpers/home.js';
import { request } from '../helpers/http.js';
import { harness, type Harness } from './support.js';

let home: TempHome;
let server: Harness;
let plan: string;

beforeAll(async () => {
  home = await TempHome.create('pmv-adv-matrix-');
  plan = await home.plan('target-plan.md', '# Target\n');
  server = await harness({ claudeDir: home.claude, homeDir: home.root });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

/** [Origin header value or null for none, whether rule 3 accepts it]. PORT is the server's port. */
const ORIGINS: [string | string[] | null, boolean][] = [
  [null, true],
  ['http://127.0.0.1:PORT', true],
  ['http://localhost:PORT', true],
  ['http://[::1]:PORT', true],
  ['null', false],
  ['http://evil.example', false],
  ['http://evil.example:PORT', false],
  ['http://127.0.0.1:OTHER', false],
  ['https://127.0.0.1:PORT', false],
  ['http://127.0.0.1', false],
  ['http://127.0.0.1:PORT.evil.example', false],
  ['http://127.0.0.1:PORT@evil.example', false],
  ['http://evil.example@127.0.0.1:PORT', false],
  ['http://localhost.:PORT', false],
  ['http://localhost.evil.example:PORT', false],
  ['http://127.0.0.2:PORT', false],
  ['http://0.0.0.0:PORT', false],
  ['file://', false],
  ['http://127.0.0.1:PORT/path', false],
  ['', false],
  [['http://127.0.0.1:PORT', 'http://evil.example'], false],
];

/** [Sec-Fetch-Site value or null, verdict: true/false decides alone, null defers to Origin]. */
const SITES: [string | string[] | null, boolean | null][] = [
  [null, null],
  ['same-origin', true],
  ['none', true],
  ['same-site', false],
  ['cross-site', false],
  ['Same-Origin', false],
  ['', false],
  [['same-origin', 'cross-site'], false],
];

/** [Content-Type or null, whether POST /api/open accepts it as JSON]. */
const TYPES: [string | null, boolean][] = [
  ['application/json', true],
  ['application/json; charset=utf-8', true],
  ['Application/JSON', true],
  [null, false],
  ['text/plain', false],
  ['text/plain; charset=utf-8', false],
  ['application/x-www-form-urlencoded', false],
  ['multipart/form-data; boundary=x', false],
  ['application/json-patch+json', false],
  ['text/plain; application/json', false],
  ['application/jsonp', false],
];

const GOOD_HOSTS = ['127.0.0.1:PORT', 'localhost:PORT', '[::1]:PORT'];
const BAD_HOSTS = [
  'evil.example', 'evil.example:PORT', 'localhost.evil.example:PORT', '127.0.0.1.nip.io:PORT', 'localhost.:PORT', '127.1:PORT',
  '0.0.0.0:PORT', '[::ffff:127.0.0.1]:PORT', '127.0.0.1:PORT:PORT', '127.0.0.1 :PORT', 'LOCALHOST.evil.example',
  '%6c%6f%63%61%6c%68%6f%73%74', 'xn--localhost', '[::1', '[::1]x', '2130706433',
];

function fill(value: string, port: number): string {
  return value.replaceAll('OTHER', String(port + 1)).replaceAll('PORT', String(port));
}

function headersFor(origin: string | string[] | null, site: string | string[] | null, type: string | null, port: number) {
  const headers: Record<string, string | string[]> = {};
  if (origin !== null) headers.Origin = Array.isArray(origin) ? origin.map((o) => fill(o, port)) : fill(origin, port);
  if (site !== null) headers['Sec-Fetch-Site'] = site;
  if (type !== null) headers['Content-Type'] = type;
  return headers;
}

function expectNoCors(headers: Record<string, unknown>): void {
  expect(Object.keys(headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
}

describe('POST /api/open: Origin x Sec-Fetch-Site x Content-Type', () => {
  it('acts exactly when rules 3 and 4 allow it, and answers 403 / 400 otherwise', async () => {
    const body = JSON.stringify({ filepath: plan });
    let expectedOpens = 0;
    let combinations = 0;
    for (const [origin, originOk] of ORIGINS) {
      for (const [site, siteVerdict] of SITES) {
        for (const [type, json] of TYPES) {
          const sameOrigin = siteVerdict ?? originOk;
          const res = await request(server.port, { method: 'POST', path: '/api/open', headers: headersFor(origin, site, type, server.port), body });
          const label = JSON.stringify({ origin, site, type });
          combinations++;
          expectNoCors(res.headers);
          if (!sameOrigin) {
            expect([label, res.status, res.body]).toEqual([label, 403, 'Forbidden: cross-origin request']);
          } else if (!json) {
            expect([label, res.status, res.body]).toEqual([label, 400, 'Invalid path']);
          } else {
            expect([label, res.status, res.body]).toEqual([label, 200, '{"success":true}']);
            expectedOpens++;
          }
        }
      }
    }
    expect(combinations).toBe(ORIGINS.length * SITES.length * TYPES.length);
    expect(server.opened).toHaveLength(expectedOpens);
    expect(new Set(server.opened)).toEqual(new Set([plan]));
    server.opened.length = 0;
  });
});

describe('POST /api/refresh: Origin x Sec-Fetch-Site, bodiless and with a JSON or text body', () => {
  it('refreshes exactly when rule 3 allows it', async () => {
    for (const [origin, originOk] of ORIGINS) {
      for (const [site, siteVerdict] of SITES) {
        const sameOrigin = siteVerdict ?? originOk;
        const label = JSON.stringify({ origin, site });
        const cases: [string | null, string | undefined, number][] = [
          [null, undefined, 200],
          ['application/json', '{}', 200],
          ['text/plain', 'refresh', 415],
        ];
        for (const [type, body, okStatus] of cases) {
          const res = await request(server.port, { method: 'POST', path: '/api/refresh', headers: headersFor(origin, site, type, server.port), body });
          expectNoCors(res.headers);
          expect([label, type, res.status]).toEqual([label, type, sameOrigin ? okStatus : 403]);
          if (res.status === 200) expect(JSON.parse(res.body)).toEqual({ success: true, before: 1, after: 1 });
        }
      }
    }
  });
});

describe('Host allowlist x route x method', () => {
  const ROUTES: [string, string][] = [
    ['GET', '/'], ['GET', '/index.html'], ['GET', '/api/plans'], ['GET', '/api/plans/target-plan.md/content'], ['GET', '/api/search?q=t'],
    ['GET', '/api/memory'], ['GET', '/api/memory/content?id=x'], ['GET', '/api/memory/search?q=t'], ['GET', '/api/projects'],
    ['GET', '/api/openapi.json'], ['GET', '/api/events'], ['HEAD', '/api/plans'], ['POST', '/api/open'], ['POST', '/api/refresh'],
    ['OPTIONS', '/api/open'], ['PUT', '/api/plans'], ['DELETE', '/api/plans'], ['GET', '/nope'],
  ];

  it('refuses every foreign Host on every route and method with the fixed 403, before anything runs', async () => {
    for (const host of BAD_HOSTS) {
      for (const [method, pathname] of ROUTES) {
        for (const [origin] of [ORIGINS[0]!, ORIGINS[1]!]) {
          const res = await request(server.port, {
            method, path: pathname, host: fill(host, server.port),
            headers: { ...headersFor(origin, 'same-origin', 'application/json', server.port), Connection: 'close' },
            body: method === 'POST' ? JSON.stringify({ filepath: plan }) : undefined,
          });
          const label = `${method} ${pathname} Host: ${host}`;
          expect([label, res.status]).toEqual([label, 403]);
          if (method !== 'HEAD') expect([label, res.body]).toEqual([label, 'Forbidden: host not allowed']);
          expect(res.headers['content-type']).toMatch(/^text\/plain/);
          expectNoCors(res.headers);
        }
      }
    }
    expect(server.opened).toEqual([]);
  });

  it('serves every loopback Host, and applies the origin rules the same way under each', async () => {
    for (const host of GOOD_HOSTS) {
      for (const [origin, originOk] of ORIGINS) {
        const res = await request(server.port, {
          method: 'POST', path: '/api/open', host: fill(host, server.port),
          headers: headersFor(origin, null, 'application/json', server.port), body: JSON.stringify({ filepath: plan }),
        });
        expect([host, origin, res.status]).toEqual([host, origin, originOk ? 200 : 403]);
        const get = await request(server.port, { path: '/api/plans', host: fill(host, server.port), headers: headersFor(origin, 'cross-site', null, server.port) });
        // Reads are not state-changing: the browser's CORS and CORP keep their bodies from other sites.
        expect(get.status).toBe(200);
        expectNoCors(get.headers);
      }
    }
    server.opened.length = 0;
  });

  it('judges an absolute-form request target by its own authority, not by the Host header', async () => {
    for (const target of ['http://evil.example/api/plans', `http://evil.example:${server.port}/api/plans`, 'http://localhost.evil.example/api/plans']) {
      const res = await request(server.port, { path: target, headers: { Connection: 'close' } });
      expect([target, res.status]).toEqual([target, 403]);
    }
    const own = await request(server.port, { path: `http://127.0.0.1:${server.port}/api/plans`, headers: { Connection: 'close' } });
    expect(own.status).toBe(200);
  });
});

describe('CORS preflights', () => {
  const PATHS = ['/', '/api/plans', '/api/plans/target-plan.md/content', '/api/search', '/api/memory', '/api/memory/content',
    '/api/memory/search', '/api/projects', '/api/refresh', '/api/open', '/api/events', '/api/openapi.json', '/nope', '*'];
  const REQUESTED = [['POST', 'content-type'], ['PUT', ''], ['DELETE', 'x-viewer-token'], ['GET', 'authorization'], ['PATCH', 'content-type, x-custom']];

  it('are never granted on any path, for any requested method or header, from any origin', async () => {
    let tried = 0;
    for (const pathname of PATHS) {
      for (const [method, headers] of REQUESTED) {
        for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1:1', `http://127.0.0.1:${server.port}`]) {
          const res = await request(server.port, {
            method: 'OPTIONS', path: pathname,
            headers: { Origin: origin, 'Access-Control-Request-Method': method!, ...(headers ? { 'Access-Control-Request-Headers': headers } : {}), 'Access-Control-Request-Private-Network': 'true' },
          });
          tried++;
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expectNoCors(res.headers);
          expect(res.headers.allow ?? '').not.toContain('OPTIONS');
        }
      }
    }
    expect(tried).toBe(PATHS.length * REQUESTED.length * 4);
    expect(server.opened).toEqual([]);
  });
});

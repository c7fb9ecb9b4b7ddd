// The request-origin matrix: every combination of Host, Origin, Sec-Fetch-Site and Content-Type against
// the state-changing routes, checked against an oracle written from docs/security.md rules 2-5, plus CORS
// preflights on every route. test/http/security.test.ts has the hand-picked cases; this is the product.
import http from 'node:http';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempHome } from '../helpers/home.js';
import { request, WEB_DIR, type RawRequest, type RawResponse } from '../helpers/http.js';
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
        const get = await request(server.port, { path: '/api/plans', host: fill(host, server.port), headers: headersFor(origin, null, null, server.port) });
        expect(get.status).toBe(200);
        expectNoCors(get.headers);
        // A read another site sends is refused too (rule 3a): hidden from the page, it would still run.
        const crossSite = await request(server.port, { path: '/api/plans', host: fill(host, server.port), headers: headersFor(origin, 'cross-site', null, server.port) });
        expect([host, origin, crossSite.status]).toEqual([host, origin, 403]);
        expectNoCors(crossSite.headers);
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

describe('Fetch Metadata: Sec-Fetch-Site x Sec-Fetch-Mode x Sec-Fetch-Dest x route x method', () => {
  /** [Sec-Fetch-Site value or null, whether it alone lets a request through]. */
  const FETCH_SITES: [string | string[] | null, boolean][] = [
    [null, true], ['same-origin', true], ['none', true], ['same-site', false], ['cross-site', false], ['Cross-Site', false], ['', false],
    [['same-origin', 'cross-site'], false],
  ];
  const MODES = [null, 'navigate', 'no-cors', 'cors', 'same-origin', 'websocket'];
  const DESTS = [null, 'document', 'iframe', 'object', 'image', 'script', 'empty'];

  /** The oracle, from security.md rule 3a: refused unless the site is ours (or unsaid), or it is a top-level navigation to `/`. */
  function admitted(siteOk: boolean, method: string, pathname: string, mode: string | null, dest: string | null): boolean {
    return siteOk || (method === 'GET' && mode === 'navigate' && dest === 'document' && (pathname === '/' || pathname.startsWith('/?')));
  }

  /** A request whose answer's head is enough (an admitted event stream never ends). */
  function exchange(port: number, req: RawRequest): Promise<RawResponse> {
    if (!req.path.startsWith('/api/events')) return request(port, req);
    return new Promise((resolve, reject) => {
      const raw: string[] = ['Host', `127.0.0.1:${port}`];
      for (const [name, value] of Object.entries(req.headers ?? {})) for (const v of Array.isArray(value) ? value : [value]) raw.push(name, v);
      const r = http.request({ host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.path, headers: raw, setHost: false, agent: false }, (res) => {
        if (res.statusCode === 200) {
          resolve({ status: 200, headers: res.headers, body: '' });
          return void r.destroy();
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      r.on('error', (error) => (r.destroyed ? undefined : reject(error)));
      r.end();
    });
  }

  /** Calls into the viewer's stores, counted (the real methods still run): what a refused request must never reach. */
  function countStoreCalls(): () => number {
    let calls = 0;
    const wrap = (store: object, names: string[]): void => {
      const methods = store as Record<string, (...args: unknown[]) => unknown>;
      for (const name of names) {
        const original = methods[name]!.bind(store);
        methods[name] = (...args: unknown[]) => (calls++, original(...args));
      }
    };
    // The content routes open the file (Viewer.openPlan -> PlanStore.open, MemoryStore.open) and stream it.
    wrap(server.viewer.plans, ['open', 'search', 'projects']);
    wrap(server.viewer.memory, ['list', 'open', 'search']);
    wrap(server.viewer, ['refresh']);
    return () => calls;
  }

  it('refuses every request another site sent before anything runs, except a top-level navigation to the UI page', async () => {
    const asset = `/assets/${(await readdir(path.join(WEB_DIR, 'assets'))).find((f) => f.endsWith('.js'))!}`;
    const ROUTES: [string, string, boolean][] = [
      // [method, path, whether an admitted request reaches a store]
      ['GET', '/', false], ['GET', '/?view=memory', false], ['GET', asset, false], ['GET', '/index.html', false], ['GET', '/api/plans', false],
      ['GET', '/api/plans/target-plan.md/content', true], ['GET', '/api/search?q=target', true], ['GET', '/api/memory', true],
      ['GET', '/api/memory/content?id=x', true], ['GET', '/api/memory/search?q=t', true], ['GET', '/api/projects', true],
      ['GET', '/api/openapi.json', false], ['GET', '/api/events', false], ['HEAD', '/', false], ['HEAD', '/api/search?q=t', true],
      ['POST', '/api/open', false], ['POST', '/api/refresh', true], ['OPTIONS', '/api/plans', false], ['GET', '/nope', false],
      ['GET', '/api/plans/%zz/content', false],
    ];
    const calls = countStoreCalls();
    const openedBefore = server.opened.length;
    let refused = 0;
    let tried = 0;
    for (const [method, pathname, reachesStore] of ROUTES) {
      for (const [site, siteOk] of FETCH_SITES) {
        for (const mode of MODES) {
          for (const dest of DESTS) {
            const headers: Record<string, string | string[]> = { 'Content-Type': 'application/json' };
            if (site !== null) headers['Sec-Fetch-Site'] = site;
            if (mode !== null) headers['Sec-Fetch-Mode'] = mode;
            if (dest !== null) headers['Sec-Fetch-Dest'] = dest;
            const before = calls();
            const res = await exchange(server.port, { method, path: pathname, headers, body: method === 'POST' ? JSON.stringify({ filepath: plan }) : undefined });
            const label = JSON.stringify({ method, pathname, site, mode, dest });
            tried++;
            expectNoCors(res.headers);
            expect(res.headers['x-content-type-options']).toBe('nosniff');
            if (admitted(siteOk, method, pathname, mode, dest)) {
              expect([label, res.status === 403]).toEqual([label, false]);
              if (reachesStore) expect([label, calls() > before]).toEqual([label, true]);
            } else {
              refused++;
              expect([label, res.status, method === 'HEAD' ? '' : res.body]).toEqual([label, 403, method === 'HEAD' ? '' : 'Forbidden: cross-origin request']);
              expect(res.headers['content-type']).toMatch(/^text\/plain/);
              expect([label, calls()]).toEqual([label, before]);
            }
          }
        }
      }
    }
    expect(tried).toBe(ROUTES.length * FETCH_SITES.length * MODES.length * DESTS.length);
    expect(refused).toBeGreaterThan(tried / 2);
    // Only the requests of our own site (or none said) reached the opener: 3 sites x every mode and dest.
    expect(server.opened.length - openedBefore).toBe(3 * MODES.length * DESTS.length);
    server.opened.length = 0;
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

import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWithSystem } from '../../src/platform/opener.js';
import { TempHome } from '../helpers/home.js';
import { request, startServer, WEB_DIR, type Running } from '../helpers/http.js';

let home: TempHome;
let server: Running;
let opened: string[];
let planPath: string;

beforeAll(async () => {
  home = await TempHome.create();
  planPath = await home.plan('safe-plan.md', '# Plan: Safe\n');
  opened = [];
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, allowedHosts: ['devbox.local'], opener: async (f) => (opened.push(f), true) });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('Host allowlist', () => {
  it.each(['localhost', 'localhost:3000', '127.0.0.1', '127.0.0.1:9', '[::1]', '[::1]:3000', 'LOCALHOST:1', 'devbox.local:8080'])(
    'accepts %s', async (host) => {
      const res = await request(server.port, { path: '/api/plans', host });
      expect(res.status).toBe(200);
    });

  it.each(['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'evil.example:3000', 'localhost.', '127.1', '0.0.0.0',
    'localhost@evil.example', 'user:pw@localhost', 'localhost/x', '[::2]', 'devbox.local.evil.example', ''])(
    'refuses %j with a fixed plain-text 403', async (host) => {
      for (const pathname of ['/api/plans', '/', '/api/events', '/api/openapi.json']) {
        const res = await request(server.port, { path: pathname, host });
        expect(res.status).toBe(403);
        expect(res.body).toBe('Forbidden: host not allowed');
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
      }
    });

  it('refuses a missing Host and duplicate Host headers', async () => {
    expect((await request(server.port, { path: '/api/plans', host: null })).status).toBe(403);
    const dup = await request(server.port, { path: '/api/plans', host: 'localhost', headers: { Host: 'evil.example' } });
    expect(dup.status).toBe(403);
    const dupSame = await request(server.port, { path: '/api/plans', host: 'localhost', headers: { Host: 'localhost' } });
    expect(dupSame.status).toBe(403);
  });

  it('refuses foreign hosts before a POST can act', async () => {
    const res = await request(server.port, { method: 'POST', path: '/api/open', host: 'evil.example', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ filepath: planPath }) });
    expect(res.status).toBe(403);
    expect(opened).toEqual([]);
  });
});

describe('same-origin rule for state-changing requests', () => {
  const open = (headers: Record<string, string>) => request(server.port, {
    method: 'POST', path: '/api/open', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ filepath: planPath }),
  });

  it.each([
    [{ 'Sec-Fetch-Site': 'cross-site' }],
    [{ 'Sec-Fetch-Site': 'same-site' }],
    [{ 'Sec-Fetch-Site': 'cross-site', Origin: 'ORIGIN' }],
    [{ Origin: 'http://evil.example' }],
    [{ Origin: 'null' }],
    [{ Origin: 'http://localhost:1' }],
    [{ Origin: 'https://localhost:PORT' }],
    [{ Origin: 'http://127.0.0.1:PORT.evil.example' }],
    [{ Origin: 'http://localhost.evil.example:PORT' }],
    [{ Origin: 'not a url' }],
  ])('refuses %j with 403 and opens nothing', async (raw) => {
    const headers = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.replace('ORIGIN', `http://127.0.0.1:${server.port}`).replace('PORT', String(server.port))]));
    const before = opened.length;
    const res = await open(headers);
    expect(res.status).toBe(403);
    expect(res.body).toBe('Forbidden: cross-origin request');
    expect(opened.length).toBe(before);
    const refresh = await request(server.port, { method: 'POST', path: '/api/refresh', headers });
    expect(refresh.status).toBe(403);
  });

  it.each([
    [{ 'Sec-Fetch-Site': 'same-origin' }],
    [{ 'Sec-Fetch-Site': 'none' }],
    [{ Origin: 'http://127.0.0.1:PORT' }],
    [{ Origin: 'http://localhost:PORT' }],
    [{ Origin: 'http://[::1]:PORT' }],
    [{}],
  ])('accepts %j', async (raw) => {
    const headers = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.replace('PORT', String(server.port))]));
    const res = await open(headers);
    expect(res.status).toBe(200);
    expect(opened.at(-1)).toBe(planPath);
  });
});

describe('Fetch-Metadata isolation of every route (rule 3a)', () => {
  const CROSS = ['cross-site', 'same-site'];
  const NAVIGATE = { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' };
  let asset: string;

  beforeAll(async () => {
    asset = `/assets/${(await readdir(path.join(WEB_DIR, 'assets'))).find((f) => f.endsWith('.js'))!}`;
  });

  const everyRoute = (): [string, string][] => [
    ['GET', '/api/plans'], ['GET', '/api/plans/safe-plan.md/content'], ['GET', '/api/search?q=safe'], ['GET', '/api/memory'],
    ['GET', '/api/memory/content?id=x'], ['GET', '/api/memory/search?q=x'], ['GET', '/api/projects'], ['GET', '/api/openapi.json'],
    ['GET', '/api/events'], ['GET', '/'], ['GET', asset], ['GET', '/nope'], ['HEAD', '/api/plans'], ['HEAD', '/'],
    ['POST', '/api/open'], ['POST', '/api/refresh'], ['OPTIONS', '/api/plans'],
    ['GET', '/api/memory/health'], ['GET', '/api/memory/trash'], ['GET', '/api/memory/fixes'], ['POST', '/api/memory/fix'], ['POST', '/api/memory/fix-all'],
    ['POST', '/api/memory/undo'], ['GET', '/api/memory/changes'], ['POST', '/api/memory/changes/b0/restore'],
  ];

  it('refuses a request another site sent, on every route and method, with a plain-text 403 and the security headers', async () => {
    const openedBefore = opened.length;
    for (const site of CROSS) {
      for (const [method, pathname] of everyRoute()) {
        for (const mode of ['no-cors', 'cors', 'navigate']) {
          // (A refused event stream is answered and closed: an admitted one would keep this request open.)
          const res = await request(server.port, {
            method, path: pathname,
            headers: { 'Sec-Fetch-Site': site, 'Sec-Fetch-Mode': mode, 'Sec-Fetch-Dest': mode === 'navigate' ? 'iframe' : 'empty', 'Content-Type': 'application/json' },
            body: method === 'POST' ? JSON.stringify({ filepath: planPath }) : undefined,
          });
          const label = `${site} ${mode} ${method} ${pathname}`;
          expect([label, res.status]).toEqual([label, 403]);
          if (method !== 'HEAD') expect([label, res.body]).toEqual([label, 'Forbidden: cross-origin request']);
          expect(res.headers['content-type']).toMatch(/^text\/plain/);
          expect(res.headers['x-content-type-options']).toBe('nosniff');
          expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
          expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        }
      }
    }
    expect(opened.length).toBe(openedBefore);
  });

  it('lets a top-level navigation from another site open the UI page, with or without a query', async () => {
    for (const site of CROSS) {
      for (const pathname of ['/', '/?view=memory', '/?view=plans&plan=safe-plan.md']) {
        const res = await request(server.port, { path: pathname, headers: { 'Sec-Fetch-Site': site, ...NAVIGATE, 'Sec-Fetch-User': '?1' } });
        expect([site, pathname, res.status]).toEqual([site, pathname, 200]);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
    }
  });

  it('refuses navigations from another site to anything but the UI page, framed ones and non-GET ones', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/api/plans', NAVIGATE], ['GET', '/api/plans/safe-plan.md/content', NAVIGATE], ['GET', '/api/events', NAVIGATE],
      ['GET', '/api/openapi.json', NAVIGATE], ['GET', '/index.html', NAVIGATE], ['GET', '/nope', NAVIGATE], ['GET', '//', NAVIGATE],
      ['GET', '/', { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' }], ['GET', '/', { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'object' }],
      ['GET', '/', { 'Sec-Fetch-Mode': 'navigate' }], ['GET', '/', { 'Sec-Fetch-Dest': 'document' }], ['GET', '/', { 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' }],
      ['HEAD', '/', NAVIGATE], ['POST', '/', NAVIGATE], ['POST', '/api/refresh', NAVIGATE],
    ];
    for (const [method, pathname, headers] of cases) {
      for (const site of CROSS) {
        const res = await request(server.port, { method, path: pathname, headers: { 'Sec-Fetch-Site': site, ...headers } });
        const label = `${site} ${method} ${pathname} ${JSON.stringify(headers)}`;
        expect([label, res.status]).toEqual([label, 403]);
      }
    }
    const navigateToAsset = await request(server.port, { path: asset, headers: { 'Sec-Fetch-Site': 'cross-site', ...NAVIGATE } });
    expect(navigateToAsset.status).toBe(403);
  });

  it('refuses values browsers never send, and the header sent twice', async () => {
    for (const site of ['Cross-Site', 'SAME-ORIGIN', '', 'unknown', ['same-origin', 'cross-site'], ['same-origin', 'same-origin']]) {
      const res = await request(server.port, { path: '/api/plans', headers: { 'Sec-Fetch-Site': site } });
      expect([site, res.status]).toEqual([site, 403]);
    }
  });

  it('serves same-origin requests, direct navigations (none) and clients that send no Fetch Metadata (curl, scripts)', async () => {
    const ours: Record<string, string>[] = [{}, { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' }, { 'Sec-Fetch-Site': 'none', ...NAVIGATE }];
    for (const headers of ours) {
      for (const pathname of ['/api/plans', '/api/search?q=safe', '/', asset, '/api/openapi.json']) {
        const res = await request(server.port, { path: pathname, headers });
        expect([pathname, headers, res.status]).toEqual([pathname, headers, 200]);
      }
    }
    const search = await request(server.port, { path: '/api/search?q=safe', headers: { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors' } });
    expect(JSON.parse(search.body)).toEqual({ filenames: ['safe-plan.md'] });
  });
});

describe('headers and limits', () => {
  it('sends the security headers and never CORS headers', async () => {
    for (const [method, pathname] of [['GET', '/api/plans'], ['GET', '/'], ['GET', '/api/nope'], ['OPTIONS', '/api/open'], ['GET', '/api/plans/x/content']] as const) {
      const res = await request(server.port, { method, path: pathname, headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' } });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('never grants a CORS preflight', async () => {
    const res = await request(server.port, { method: 'OPTIONS', path: '/api/open', headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers bodies over 16 KiB with 413', async () => {
    const body = JSON.stringify({ filepath: planPath, pad: 'x'.repeat(17 * 1024) });
    const res = await request(server.port, { method: 'POST', path: '/api/open', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('the system opener', () => {
  let bin: string;
  let log: string;

  beforeAll(async () => {
    bin = path.join(home.root, 'bin');
    log = path.join(home.root, 'opener.log');
    await mkdir(bin, { recursive: true });
  });

  async function fakeXdgOpen(script: string): Promise<NodeJS.ProcessEnv> {
    const file = path.join(bin, 'xdg-open');
    await writeFile(file, `#!/bin/sh\n${script}\n`);
    await chmod(file, 0o755);
    return { ...process.env, PATH: `${bin}:/usr/bin:/bin` };
  }

  it('passes the path as exactly one argv element, no shell', async () => {
    const env = await fakeXdgOpen(`printf '%s\\n' "$#" "$1" > '${log}'`);
    const nasty = path.join(home.root, 'a plan; $(touch pwned) `id` & x.md');
    expect(await openWithSystem(nasty, { platform: 'linux', env })).toBe(true);
    expect(await readFile(log, 'utf8')).toBe(`1\n${nasty}\n`);
  });

  it('reports a non-zero exit as a failure', async () => {
    const env = await fakeXdgOpen('exit 4');
    expect(await openWithSystem(planPath, { platform: 'linux', env })).toBe(false);
  });

  it('reports a missing opener as a failure without throwing', async () => {
    expect(await openWithSystem(planPath, { platform: 'linux', env: { ...process.env, PATH: path.join(home.root, 'empty') } })).toBe(false);
  });

  it('counts an opener still running after the wait as launched', async () => {
    const env = await fakeXdgOpen('sleep 3');
    expect(await openWithSystem(planPath, { platform: 'linux', env, launchWaitMs: 300 })).toBe(true);
  });

  it('maps a failing opener to 500 "Failed to open file" over HTTP', async () => {
    const env = await fakeXdgOpen('exit 1');
    const failing = await startServer({ claudeDir: home.claude, homeDir: home.root, opener: (f) => openWithSystem(f, { platform: 'linux', env }) });
    try {
      const res = await request(failing.port, { method: 'POST', path: '/api/open', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ filepath: planPath }) });
      expect(res.status).toBe(500);
      expect(res.body).toBe('Failed to open file');
    } finally {
      await failing.close();
    }
  });
});

// `npm run dev`: Vite's dev server (web/vite.config.ts) proxies /api to the service, and what the
// service's perimeter admits or refuses through it is what it would admit or refuse directly.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViteDevServer } from 'vite';
import { TempHome } from '../helpers/home.js';
import { startDevServer } from '../helpers/devServer.js';
import { request, startServer, type Running } from '../helpers/http.js';

let home: TempHome;
let service: Running;
let ui: ViteDevServer;
let uiPort: number;

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('proxied-plan.md', '# Proxied\n');
  service = await startServer({ claudeDir: home.claude, homeDir: home.root });
  ({ ui, port: uiPort } = await startDevServer(service.port, {
    // Nothing is pre-bundled but what a plugin asks for (Prefresh's runtime), into the test's own cache
    // rather than the one `npm run dev` uses.
    cacheDir: path.join(home.root, 'vite-cache'),
    optimizeDeps: { noDiscovery: true, include: [] },
  }));
});

afterAll(async () => {
  await ui?.close();
  await service?.close();
  await home?.cleanup();
});

const post = (headers: Record<string, string>) => request(uiPort, { method: 'POST', path: '/api/refresh', headers, host: `localhost:${uiPort}` });

describe('the dev server', () => {
  it('serves the API through its own origin', async () => {
    const res = await request(uiPort, { path: '/api/plans', host: `localhost:${uiPort}` });
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect((JSON.parse(res.body) as { plans: { filename: string }[] }).plans.map((p) => p.filename)).toEqual(['proxied-plan.md']);
  });

  it('lets the dev page change state and refuses other sites, as the service does', async () => {
    expect((await post({ Origin: `http://localhost:${uiPort}`, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
    // A browser without Fetch Metadata: its Origin is the dev page's, which the proxy vouches for.
    expect((await post({ Origin: `http://127.0.0.1:${uiPort}` })).status).toBe(200);
    expect((await post({ Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ Origin: `http://localhost:${uiPort}`, 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await request(uiPort, { path: '/api/plans', host: 'evil.example' })).status).toBe(403);
  });

  it('streams the events', async () => {
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${uiPort}/api/events`, { signal: controller.signal });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: ready')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect([res.headers.get('content-type'), text]).toEqual(['text/event-stream; charset=utf-8', expect.stringContaining('event: ready\ndata: {"demo":false}')]);
  });
});

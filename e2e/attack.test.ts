// Browser attacks on the running service (in-process, with a recording opener): DNS rebinding simulated
// with Chromium's host resolver, an attacker page on ANOTHER loopback port trying every request a page
// can make without a CORS grant (text/plain form POST, no-cors fetch, sendBeacon, iframe, a preflighted
// fetch), and hostile memory names and descriptions in the UI. The opener must never be called.
// (Plan bodies, titles and file names are covered by e2e/security.test.ts.) Everything is 127.0.0.1.
import http from 'node:http';
import { once } from 'node:events';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempHome, encodeCwd, eventually, uuid } from '../test/helpers/home.js';
import { startServer, type Running } from '../test/helpers/http.js';

const BASE_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface Seen {
  method: string;
  url: string;
  host: string;
  origin: string | null;
  site: string | null;
  type: string | null;
  status: number;
}

let home: TempHome;
let viewer: Running;
let browser: Browser;
let attacker: http.Server;
let attackerPort: number;
let planPath: string;
const opened: string[] = [];
const seen: Seen[] = [];
/** What the attacker page currently serves, keyed by path. */
const attackerPages = new Map<string, string>();

const XSS_NAME = '<img src=x onerror="globalThis.__xss=\'name\'">';
const XSS_DESCRIPTION = '<script>globalThis.__xss="description"</script><img src=x onerror="globalThis.__xss=\'desc-img\'">';

beforeAll(async () => {
  home = await TempHome.create('pmv-e2e-attack-');
  planPath = await home.plan('target-plan.md', '# Target plan\nSECRET-PLAN-BODY-5521\n');
  const repo = await home.repo('webapp');
  await home.session(repo, uuid(1), ['target-plan']);
  const mem = `projects/${encodeCwd(repo)}/memory`;
  await home.write(`${mem}/MEMORY.md`, `# Memory\n- [Evil](evil.md) — ${XSS_NAME}\n`);
  await home.write(`${mem}/evil.md`, [
    '---',
    `name: ${JSON.stringify(XSS_NAME)}`,
    `description: ${JSON.stringify(XSS_DESCRIPTION)}`,
    'type: user',
    '---',
    `# ${XSS_NAME}`,
    '',
    '<script>globalThis.__xss = "body"</script>',
    `[[${XSS_NAME}]] and [x](javascript:globalThis.__xss='link')`,
    '',
  ].join('\n'));

  viewer = await startServer({ claudeDir: home.claude, homeDir: home.root, opener: async (file) => (opened.push(file), true) });
  // Every request the viewer receives, with the headers that decide it and the answer it got.
  viewer.app.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.on('finish', () => seen.push({
      method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', origin: req.headers.origin ?? null,
      site: (req.headers['sec-fetch-site'] as string | undefined) ?? null, type: req.headers['content-type'] ?? null, status: res.statusCode,
    }));
  });

  attacker = http.createServer((req, res) => {
    const page = attackerPages.get((req.url ?? '/').split('?')[0]!);
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  attacker.listen(0, '127.0.0.1');
  await once(attacker, 'listening');
  attackerPort = (attacker.address() as { port: number }).port;

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // evil.example resolves to loopback: the second half of a DNS-rebinding attack.
    // Chromium's own Local/Private Network Access checks would block a rebound page's requests before they
    // leave the browser; other browsers have no such check, so they are off here: the server must hold alone.
    args: [...BASE_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1, MAP *.evil.example 127.0.0.1',
      '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults'],
  });
});

afterAll(async () => {
  await browser?.close();
  attacker?.close();
  await viewer?.close();
  await home?.cleanup();
});

/** Runs a page evaluation again when a navigation destroyed its context mid-way. */
async function retry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (error) {
      if (i >= attempts || !/context was destroyed|navigat/i.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function withContext<T>(fn: (context: BrowserContext) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await fn(context);
  } finally {
    await context.close();
  }
}

describe('DNS rebinding (evil.example resolves to 127.0.0.1)', () => {
  it('gets nothing but the fixed 403 when navigating to the UI, the API and the event stream', async () => {
    await withContext(async (context) => {
      const page = await context.newPage();
      for (const p of ['/', '/api/plans', '/api/plans/target-plan.md/content', '/api/memory', '/api/events', '/api/openapi.json', '/assets/nope.js']) {
        for (const host of ['evil.example', 'localhost.evil.example']) {
          const response = await page.goto(`http://${host}:${viewer.port}${p}`);
          expect([host, p, response?.status()]).toEqual([host, p, 403]);
          expect(await response?.text()).toBe('Forbidden: host not allowed');
        }
      }
    });
    // (Chromium also asks for /favicon.ico after each navigation: refused the same way.)
    const rebound = seen.filter((s) => s.host.includes('evil.example'));
    expect(rebound.length).toBeGreaterThanOrEqual(14);
    expect(rebound.every((s) => s.status === 403)).toBe(true);
  });

  it('a rebound page reads nothing and opens nothing with same-origin requests', async () => {
    // The attacker's page was served for evil.example:<port> before the name was rebound to 127.0.0.1;
    // its scripts now talk to the viewer as same-origin (Sec-Fetch-Site: same-origin, no preflight).
    const origin = `http://evil.example:${viewer.port}`;
    const before = seen.length;
    const script = `
      const results = {};
      const grab = async (name, url, init) => {
        try { const r = await fetch(url, init); results[name] = { status: r.status, body: await r.text() }; }
        catch (e) { results[name] = { error: String(e) }; }
      };
      await grab('plans', '/api/plans');
      await grab('content', '/api/plans/target-plan.md/content');
      await grab('search', '/api/search?q=SECRET');
      await grab('memory', '/api/memory');
      await grab('open', '/api/open', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ filepath: ${JSON.stringify(planPath)} }) });
      await grab('refresh', '/api/refresh', { method: 'POST' });
      globalThis.__results = results;`;
    const results = await withContext(async (context) => {
      await context.route(`${origin}/attack.html`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><script type="module">${script}</script>` }));
      const page = await context.newPage();
      await page.goto(`${origin}/attack.html`);
      await page.waitForFunction('globalThis.__results !== undefined');
      return page.evaluate('globalThis.__results') as Promise<Record<string, { status?: number; body?: string; error?: string }>>;
    });
    expect(Object.keys(results).sort()).toEqual(['content', 'memory', 'open', 'plans', 'refresh', 'search']);
    for (const [name, result] of Object.entries(results)) {
      expect([name, result.status, result.body]).toEqual([name, 403, 'Forbidden: host not allowed']);
    }
    const fromPage = seen.slice(before).filter((s) => s.host === `evil.example:${viewer.port}` && s.url !== '/favicon.ico');
    expect(fromPage.length).toBe(6);
    // As security.md says: a rebound page's Origin equals its Host, and plain http sends no Sec-Fetch-Site.
    expect(fromPage.find((s) => s.method === 'POST' && s.url === '/api/open')).toMatchObject({ origin: origin, site: null, status: 403 });
    expect(opened).toEqual([]);
  });
});

describe('an attacker page on another loopback port', () => {
  it('cannot make /api/open act with a text/plain form, a no-cors fetch, sendBeacon, a preflighted fetch or an iframe', async () => {
    const target = `http://127.0.0.1:${viewer.port}`;
    const body = JSON.stringify({ filepath: planPath });
    // The classic JSON CSRF: a text/plain form whose single field spells a JSON object.
    const [name, value] = [body.slice(0, -2) + ',"x":"', '"}'];
    attackerPages.set('/', `<!doctype html>
      <iframe name="sink" id="sink"></iframe>
      <iframe id="framed" src="${target}/"></iframe>
      <form id="f" method="POST" action="${target}/api/open" enctype="text/plain" target="sink">
        <input name='${name.replace(/'/g, '&#39;')}' value='${value}'>
      </form>
      <form id="g" method="POST" action="${target}/api/refresh" enctype="application/x-www-form-urlencoded" target="sink">
        <input name="a" value="b">
      </form>
      <script type="module">
        const results = {};
        const note = (k, v) => { results[k] = v; };
        try { await fetch('${target}/api/open', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: ${JSON.stringify(body)} }); note('noCorsText', 'sent'); } catch (e) { note('noCorsText', String(e)); }
        try { await fetch('${target}/api/open', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(body)} }); note('noCorsJson', 'sent'); } catch (e) { note('noCorsJson', String(e)); }
        try { const r = await fetch('${target}/api/open', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(body)} }); note('cors', r.status); } catch (e) { note('cors', 'blocked'); }
        try { const r = await fetch('${target}/api/plans'); note('read', await r.text()); } catch (e) { note('read', 'blocked'); }
        note('beaconText', navigator.sendBeacon('${target}/api/open', ${JSON.stringify(body)}));
        try { note('beaconJson', navigator.sendBeacon('${target}/api/open', new Blob([${JSON.stringify(body)}], { type: 'application/json' }))); } catch (e) { note('beaconJson', 'threw'); }
        document.getElementById('f').submit();
        await new Promise((r) => setTimeout(r, 300));
        document.getElementById('g').submit();
        globalThis.__results = results;
      </script>`);
    const outcome = await withContext(async (context) => {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${attackerPort}/`);
      await page.waitForFunction('globalThis.__results !== undefined');
      const results = await page.evaluate('globalThis.__results') as Record<string, unknown>;
      // Wait until the beacons and both form posts have reached the viewer (they are fire-and-forget).
      // Two no-cors fetches, a text beacon and two form posts; the JSON beacon and the JSON fetch need a preflight.
      const arrived = await eventually(() => seen.filter((s) => s.origin === `http://127.0.0.1:${attackerPort}` && s.method === 'POST').length >= 5, 10_000, 50);
      const framed = page.frames().find((f) => f.name() !== 'sink' && f !== page.mainFrame() && f.url() !== 'about:blank');
      const framedHasUi = framed ? await framed.evaluate('!!document.querySelector(".topbar, #root")').catch(() => false) : false;
      return { results, arrived, framedHasUi, framedUrl: framed?.url() ?? null };
    });
    expect(outcome.arrived).toBe(true);
    // The cross-origin read and the preflighted POST are stopped by the browser (no CORS grant ever).
    expect(outcome.results.read).toBe('blocked');
    expect(outcome.results.cors).toBe('blocked');
    // The framed UI never rendered (frame-ancestors 'none', X-Frame-Options: DENY).
    expect(outcome.framedUrl).toBe('chrome-error://chromewebdata/');
    expect(outcome.framedHasUi).toBe(false);
    const fromAttacker = seen.filter((s) => s.origin === `http://127.0.0.1:${attackerPort}`);
    const posts = fromAttacker.filter((s) => s.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(5);
    for (const post of posts) {
      // Chromium marks another port on the same host as same-site: refused by rule 3.
      expect([post.url, post.site, post.type, post.status]).toEqual([post.url, 'same-site', post.type, 403]);
    }
    expect(posts.some((p) => p.type?.startsWith('text/plain'))).toBe(true);
    const preflights = fromAttacker.filter((s) => s.method === 'OPTIONS');
    expect(preflights.length).toBeGreaterThanOrEqual(1);
    for (const p of preflights) expect(p.status).toBeGreaterThanOrEqual(400);
    expect(opened).toEqual([]);
  });
});

describe('hostile memory names and descriptions', () => {
  it('are shown as text in the memory view and the entry reader, and run nothing', async () => {
    const memory = await viewer.json<{ sources: { id: string }[]; entries: { id: string; name: string; description: string | null }[] }>('/api/memory');
    const evil = memory.entries.find((e) => e.id.endsWith('/evil.md'))!;
    expect(evil.name).toBe(XSS_NAME);
    expect(evil.description).toBe(XSS_DESCRIPTION);
    await withContext(async (context) => {
      const page = await context.newPage();
      const dialogs: string[] = [];
      const errors: string[] = [];
      page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
      page.on('pageerror', (e) => errors.push(e.message));
      const base = `http://127.0.0.1:${viewer.port}/`;
      const source = encodeURIComponent(memory.sources[0]!.id);
      for (const url of [`${base}?view=memory`, `${base}?view=memory&source=${source}`, `${base}?view=memory&source=${source}&entry=${encodeURIComponent(evil.id)}`,
        `${base}?view=memory&source=${source}&tab=graph`]) {
        await page.goto(url);
        await page.waitForSelector('.topbar');
        // The app may still replace its URL or re-render while loading: look again rather than fail on that.
        const shown = await eventually(() => page.evaluate(`document.body.innerText.includes(${JSON.stringify('onerror=')})`).catch(() => false), 15_000, 50);
        expect([url, shown]).toEqual([url, true]);
        const active = await retry(() => page.evaluate(`(() => ({
          xss: globalThis.__xss ?? null,
          scripts: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
          handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
          badImages: document.querySelectorAll('img[src="x"]').length,
          jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => /^\\s*javascript:/i.test(a.getAttribute('href'))).length,
        }))()`));
        expect([url, active]).toEqual([url, { xss: null, scripts: 0, handlers: 0, badImages: 0, jsLinks: 0 }]);
      }
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
    });
  }, 60_000);
});

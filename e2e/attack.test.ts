// Browser attacks on the running service (in-process, with a recording opener): DNS rebinding simulated
// with Chromium's host resolver, an attacker page on ANOTHER loopback port trying every request a page
// can make without a CORS grant (text/plain form POST, no-cors fetch, sendBeacon, iframe, a preflighted
// fetch), and hostile memory names and descriptions in the UI. The opener must never be called.
// (Plan bodies, titles and file names are covered by e2e/security.test.ts.) Everything is 127.0.0.1.
import http from 'node:http';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempHome, encodeCwd, eventually, uuid } from '../test/helpers/home.js';
import { startServer, WEB_DIR, type Running } from '../test/helpers/http.js';

const BASE_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface Seen {
  method: string;
  url: string;
  host: string;
  origin: string | null;
  site: string | null;
  mode: string | null;
  dest: string | null;
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
/** Every event stream the viewer answered, as it started answering it. */
const streams: { site: string | null; status: number }[] = [];
/** Calls of the plan search (the route whose timing leaked plan text), counted on the real store. */
let searches = 0;
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
  const search = viewer.viewer.plans.search.bind(viewer.viewer.plans);
  viewer.viewer.plans.search = (q: string) => (searches++, search(q));
  // Every request the viewer receives, with the headers that decide it and the answer it got.
  // (Before fastify's own listener, which may answer synchronously.)
  viewer.app.server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.on('finish', () => seen.push({
      method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', origin: req.headers.origin ?? null,
      site: (req.headers['sec-fetch-site'] as string | undefined) ?? null, mode: (req.headers['sec-fetch-mode'] as string | undefined) ?? null,
      dest: (req.headers['sec-fetch-dest'] as string | undefined) ?? null, type: req.headers['content-type'] ?? null, status: res.statusCode,
    }));
    // An event stream is answered at once but finishes only when closed: its status is taken from its head.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
    (res as { writeHead: (...args: unknown[]) => http.ServerResponse }).writeHead = (...args: unknown[]) => {
      if (req.url?.startsWith('/api/events')) streams.push({ site: (req.headers['sec-fetch-site'] as string | undefined) ?? null, status: Number(args[0]) });
      return writeHead(...args);
    };
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
    // As docs/security.md says: a rebound page's Origin equals its Host, and plain http sends no Sec-Fetch-Site.
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

  it('gets a 403 from the server for every read it makes: no-cors fetch, <img>, <script>, <link>, EventSource, iframe', async () => {
    const target = `http://127.0.0.1:${viewer.port}`;
    const index = await readFile(path.join(WEB_DIR, 'index.html'), 'utf8');
    const uiScript = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1]!;
    const uiStyle = /href="(\/assets\/[^"]+\.css)"/.exec(index)![1]!;
    // Each probe's URL is its own, so the server's log says which one arrived and what it was answered.
    const probes = {
      noCors: '/api/search?q=SECRET-PLAN-BODY-nocors',
      cors: '/api/search?q=SECRET-PLAN-BODY-cors',
      img: '/api/search?q=SECRET-PLAN-BODY-img',
      script: '/api/search?q=SECRET-PLAN-BODY-script',
      uiScript,
      uiStyle,
      imgContent: '/api/plans/target-plan.md/content',
      events: '/api/events',
      iframe: '/?view=memory',
    };
    const searchesBefore = searches;
    const before = seen.length;
    const streamsBefore = streams.length;
    attackerPages.set('/reads', `<!doctype html>
      <img src="${target}${probes.img}">
      <img src="${target}${probes.imgContent}">
      <link rel="stylesheet" href="${target}${probes.uiStyle}">
      <iframe src="${target}${probes.iframe}"></iframe>
      <script src="${target}${probes.script}"></script>
      <script type="module" src="${target}${probes.uiScript}"></script>
      <script type="module">
        const results = {};
        try { const r = await fetch('${target}${probes.noCors}', { mode: 'no-cors' }); results.noCors = r.type; } catch (e) { results.noCors = String(e); }
        try { const r = await fetch('${target}${probes.cors}'); results.cors = r.status; } catch (e) { results.cors = 'blocked'; }
        results.events = await new Promise((resolve) => {
          const source = new EventSource('${target}${probes.events}');
          source.onopen = () => { source.close(); resolve('open'); };
          source.onerror = () => { const state = source.readyState; source.close(); resolve(state === EventSource.CLOSED ? 'failed' : 'retrying'); };
        });
        globalThis.__results = results;
      </script>`);
    const outcome = await withContext(async (context) => {
      const page = await context.newPage();
      // What came back over the wire, as Chromium's network layer saw it: most of these answers never reach
      // the page (CORP and ORB block them), so Playwright's own response events do not report them.
      // (Its events about one request come in no fixed order: they are joined by request id at the end.)
      const urls = new Map<string, string>();
      const codes = new Map<string, number>();
      const cdp = await context.newCDPSession(page);
      cdp.on('Network.requestWillBeSent', (e) => void urls.set(e.requestId, e.request.url));
      cdp.on('Network.responseReceivedExtraInfo', (e) => void codes.set(e.requestId, e.statusCode));
      const statuses = (): Map<string, number> => {
        const byPath = new Map<string, number>();
        for (const [id, code] of codes) {
          const url = urls.get(id);
          if (url !== undefined) byPath.set(new URL(url).pathname + new URL(url).search, code);
        }
        return byPath;
      };
      await cdp.send('Network.enable');
      await page.goto(`http://127.0.0.1:${attackerPort}/reads`);
      await page.waitForFunction('globalThis.__results !== undefined');
      const results = await page.evaluate('globalThis.__results') as Record<string, unknown>;
      const paths = Object.values(probes);
      const arrived = await eventually(() => paths.every((p) => seen.slice(before).some((s) => s.url === p)), 10_000, 50);
      await eventually(() => paths.every((p) => statuses().has(p)), 10_000, 50);
      return { results, arrived, statuses: statuses() };
    });
    expect(outcome.arrived).toBe(true);
    const fromAttacker = seen.slice(before).filter((s) => s.site === 'same-site');
    for (const [name, url] of Object.entries(probes)) {
      const got = fromAttacker.filter((s) => s.url === url);
      expect([name, got.length > 0]).toEqual([name, true]);
      // Refused by the server itself: 403 in its own log, for every attempt (EventSource gives up after one).
      for (const s of got) expect([name, s.status]).toEqual([name, 403]);
      expect([name, outcome.statuses.get(url)]).toEqual([name, 403]);
    }
    expect(fromAttacker.find((s) => s.url === probes.iframe)).toMatchObject({ mode: 'navigate', dest: 'iframe' });
    expect(fromAttacker.find((s) => s.url === probes.img)).toMatchObject({ mode: 'no-cors', dest: 'image' });
    expect(fromAttacker.find((s) => s.url === probes.script)).toMatchObject({ mode: 'no-cors', dest: 'script' });
    expect(fromAttacker.find((s) => s.url === probes.events)).toMatchObject({ mode: 'cors', dest: 'empty' });
    // No stream was ever opened for the attacker, and the search whose timing leaked plan text never ran.
    expect(streams.slice(streamsBefore)).toEqual(fromAttacker.filter((s) => s.url === probes.events).map(() => ({ site: 'same-site', status: 403 })));
    expect(searches).toBe(searchesBefore);
    // What the page saw proves nothing (a hidden answer looks the same); it only shows the page got no data
    // and that the EventSource gave up instead of retrying.
    expect(outcome.results).toMatchObject({ cors: 'blocked', events: 'failed' });
    expect(outcome.results.noCors).not.toBe('basic');
  });

  it('can still send the user to the UI page, which then works as usual (its own requests are same-origin)', async () => {
    const target = `http://127.0.0.1:${viewer.port}`;
    attackerPages.set('/link', `<!doctype html><a id="go" href="${target}/?view=plans">open the viewer</a>`);
    const before = seen.length;
    const streamsBefore = streams.length;
    const searchesBefore = searches;
    await withContext(async (context) => {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${attackerPort}/link`);
      await Promise.all([page.waitForURL(`${target}/?view=plans`), page.click('#go')]);
      await page.waitForSelector('.topbar');
      await page.getByText('Target plan').first().waitFor();
      // The UI's search goes through the API like any other request of the page.
      await page.getByRole('searchbox').fill('SECRET-PLAN-BODY');
      expect(await eventually(() => searches > searchesBefore, 15_000, 50)).toBe(true);
      // And its event stream is open.
      expect(await eventually(() => streams.slice(streamsBefore).some((s) => s.site === 'same-origin' && s.status === 200), 15_000, 50)).toBe(true);
    });
    const navigation = seen.slice(before).find((s) => s.url === '/?view=plans');
    expect(navigation).toMatchObject({ site: 'same-site', mode: 'navigate', dest: 'document', status: 200 });
    const fromUi = seen.slice(before).filter((s) => s.url !== '/?view=plans' && s.host === `127.0.0.1:${viewer.port}`);
    expect(fromUi.some((s) => s.url === '/api/plans')).toBe(true);
    expect(fromUi.some((s) => s.url.startsWith('/assets/'))).toBe(true);
    for (const s of fromUi) expect([s.url, s.site, s.status === 403]).toEqual([s.url, 'same-origin', false]);
    for (const s of streams.slice(streamsBefore)) expect(s).toEqual({ site: 'same-origin', status: 200 });
  }, 60_000);
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

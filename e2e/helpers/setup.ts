// Shared setup of a browser test file: a fixture home, the real server over it, one Chromium.
import { afterAll, beforeAll, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, type Watched } from './browser.js';
import { buildFixture, type Fixture } from './fixture.js';
import { startServer, type RunningServer } from './server.js';

export interface TestEnv {
  fx: Fixture;
  server: RunningServer;
  browser: Browser;
  /** A fresh page (own context) at `path`, waiting until the app has rendered. */
  open(path?: string, options?: Parameters<typeof openPage>[2]): Promise<Watched>;
}

/**
 * expect.poll gives up after 1 s by default; live updates and debounced searches go through the
 * file watcher and the network, so browser tests wait longer (a wait, not an assertion on time).
 */
export function patientPolls(): void {
  vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 50 } } });
}

/** `extend` adds files to the fixture home before the server starts. */
export function useTestEnv(setup: { extend?(fx: Fixture): Promise<void> } = {}): TestEnv {
  patientPolls();
  const env = {} as TestEnv;
  const contexts: Watched[] = [];
  beforeAll(async () => {
    env.fx = await buildFixture();
    await setup.extend?.(env.fx);
    env.server = await startServer(env.fx.home);
    env.browser = await launchBrowser();
    env.open = async (path = '', options) => {
      const w = await openPage(env.browser, env.server.url, options);
      contexts.push(w);
      await w.page.goto(env.server.url + path.replace(/^\//, ''));
      await w.page.waitForSelector('.topbar');
      return w;
    };
  });
  afterAll(async () => {
    for (const w of contexts) await w.context.close().catch(() => undefined);
    await env.browser?.close();
    await env.server?.stop();
    await env.fx?.cleanup();
  });
  return env;
}

export interface ApiPlan {
  filename: string;
  filepath: string;
  title: string;
  size: number;
  modified: string;
  lineCount: number;
  project: string | null;
  sessionId: string | null;
}

export async function apiPlans(base: string): Promise<ApiPlan[]> {
  const res = await fetch(`${base}api/plans`);
  return ((await res.json()) as { plans: ApiPlan[] }).plans;
}

export interface ApiSource {
  id: string;
  project: string;
  kind: string;
  active: boolean;
  cwd: string | null;
  dir: string;
}

export async function apiMemory(base: string): Promise<{ sources: ApiSource[]; entries: { id: string; sourceId: string; filename: string; name: string }[] }> {
  const res = await fetch(`${base}api/memory`);
  return (await res.json()) as { sources: ApiSource[]; entries: { id: string; sourceId: string; filename: string; name: string }[] };
}

/** The file names of the plan rows currently rendered, top to bottom. */
export async function renderedRows(page: Page): Promise<string[]> {
  return page.$$eval('.grid-row', (rows) =>
    rows
      .map((r) => ({ y: r.getBoundingClientRect().top, f: (r as HTMLElement).dataset.filename ?? '' }))
      .sort((a, b) => a.y - b.y)
      .map((r) => r.f),
  );
}

export function query(page: Page): Promise<URLSearchParams> {
  return page.evaluate(() => location.search).then((s) => new URLSearchParams(s));
}

export async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

// `npm run dev`: an edit of a component's source shows up on the open page without a reload (Prefresh,
// web/vite.config.ts): the page's window and the rest of its state live on. The dev server is started
// from web/vite.config.ts as scripts/dev.js does, on a copy of web/ so the edit never touches the
// checkout, and the page is Debian's Chromium.
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViteDevServer } from 'vite';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../e2e/helpers/browser.js';
import { TempHome } from '../helpers/home.js';
import { startDevServer } from '../helpers/devServer.js';
import { startServer, type Running } from '../helpers/http.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

let home: TempHome;
let service: Running;
let ui: ViteDevServer;
let uiUrl: string;
let browser: Browser;
/** Holds web/ (copied), and src/ and node_modules/ (links to the checkout's) as the repository does. */
let copy: string;

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('hot-plan.md', '# Hot plan\n');
  service = await startServer({ claudeDir: home.claude, homeDir: home.root });

  copy = await mkdtemp(path.join(os.tmpdir(), 'pmv-hot-reload-'));
  await cp(path.join(ROOT, 'web'), path.join(copy, 'web'), { recursive: true });
  // The UI imports the service's contract from ../../../src, and its packages from node_modules.
  await symlink(path.join(ROOT, 'src'), path.join(copy, 'src'), 'dir');
  await symlink(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');

  let uiPort: number;
  ({ ui, port: uiPort } = await startDevServer(service.port, {
    // The copy instead of web/; its own dependency cache (the checkout's is `npm run dev`'s); files
    // served from the checkout through the links, which resolve to it.
    root: path.join(copy, 'web'),
    cacheDir: path.join(copy, 'vite-cache'),
    server: { fs: { allow: [copy, ROOT] } },
  }));
  uiUrl = `http://127.0.0.1:${uiPort}/`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await ui?.close();
  await service?.close();
  await home?.cleanup();
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('the dev server', () => {
  it('swaps an edited component in place: no reload, state kept', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    try {
      await page.goto(uiUrl);
      const brand = page.locator('header.topbar .brand .brand-name');
      await expect.poll(() => brand.textContent(), { timeout: 30_000 }).toBe('Plans & Memory');
      await page.getByText('Hot plan').first().waitFor();
      // State a reload would lose: a mark on the window, one on the edited component's element, and
      // text typed into the search box (the app's state).
      const search = page.locator('header.topbar input[type="search"]');
      await search.fill('hot');
      await page.evaluate("window.__beforeEdit = 'kept'; document.querySelector('header.topbar').__beforeEdit = 'kept'");

      const file = path.join(copy, 'web', 'src', 'ui', 'TopBar.tsx');
      const source = await readFile(file, 'utf8');
      const edited = source.replace('<span className="brand-name">Plans &amp; Memory</span>', '<span className="brand-name">Plans &amp; Memory, edited</span>');
      expect(edited).not.toBe(source);
      await writeFile(file, edited);

      await expect.poll(() => brand.textContent(), { timeout: 30_000 }).toBe('Plans & Memory, edited');
      expect(await page.evaluate("[window.__beforeEdit, document.querySelector('header.topbar').__beforeEdit]")).toEqual(['kept', 'kept']);
      expect(await search.inputValue()).toBe('hot');
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

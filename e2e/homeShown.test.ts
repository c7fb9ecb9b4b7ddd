// Which Claude Code home the page shows, and a progress page while the first scan runs instead of a blank
// tab: the page is served at once and reads GET /api/status until the scan is done, then lists the plans.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildServer } from '../src/http/server.js';
import { Viewer } from '../src/viewer.js';
import { TempHome } from '../test/helpers/home.js';
import { WEB_DIR } from '../test/helpers/http.js';
import { launchBrowser, openPage, screenshot } from './helpers/browser.js';

let browser: Browser;
let home: TempHome;

beforeAll(async () => {
  browser = await launchBrowser();
  home = await TempHome.create('pmv-home-shown-');
  await home.plan('shown-plan-calm-owl.md', '# Plan: Shown after the scan\n');
});

afterAll(async () => {
  await browser?.close();
  await home?.cleanup();
});

describe('the home shown', () => {
  it('shows a progress page naming the home during the first scan, the plans after it, and the home in the top bar', async () => {
    const viewer = await Viewer.create({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false });
    const app = await buildServer({ viewer, opener: async () => true, allowedHosts: [], webDir: WEB_DIR });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/`;
    const { page, context } = await openPage(browser, url);
    try {
      await page.goto(url);
      const reading = page.getByTestId('reading');
      await reading.waitFor();
      expect(await reading.locator('h2').textContent()).toBe(`Reading ${home.claude}`);
      expect(await reading.textContent()).toMatch(/0 plans, 0 session logs \(0 B read\) so far/);
      expect(await page.getByTestId('home-label').getAttribute('title')).toBe(`Showing ${home.claude}`);
      await screenshot(page, 'reading-home');
      await viewer.load();
      await page.locator('.grid-row[data-filename="shown-plan-calm-owl.md"]').waitFor();
      expect(await reading.count()).toBe(0);
      expect(await page.getByTestId('home-label').textContent()).toBe(home.claude);
    } finally {
      await context.close();
      await app.close();
      await viewer.close();
    }
  }, 60_000);
});

// Live updates over Server-Sent Events: files written on disk show up without a reload, the open
// document updates in place keeping its scroll position, and the page reconnects after a restart.
import { appendFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot, type Watched } from './helpers/browser.js';
import { buildFixture, type Fixture } from './helpers/fixture.js';
import { apiMemory, patientPolls, renderedRows } from './helpers/setup.js';
import { startServer, type RunningServer } from './helpers/server.js';

patientPolls();

let fx: Fixture;
let server: RunningServer;
let browser: Browser;
const pages: Watched[] = [];

beforeAll(async () => {
  fx = await buildFixture();
  server = await startServer(fx.home);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const w of pages) await w.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  await fx?.cleanup();
});

async function open(pathAndQuery = ''): Promise<Watched> {
  const w = await openPage(browser, server.url);
  pages.push(w);
  await w.page.goto(server.url + pathAndQuery);
  await w.page.waitForSelector('.live-live');
  // Set a flag a reload would wipe out.
  await w.page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 1));
  return w;
}

const stillSamePage = (w: Watched) => w.page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload === 1);

describe('live updates', () => {
  it('shows a new plan at the top, highlighted, without a reload; a deleted one disappears', async () => {
    const w = await open();
    const { page } = w;
    await page.waitForSelector('.grid-row');
    const name = 'brand-new-plan-fresh-owl.md';
    await writeFile(path.join(fx.plansDir, name), '# Plan: Brand new plan\n\nJust written.\n');
    const row = page.locator(`.grid-row[data-filename="${name}"]`);
    await row.waitFor();
    expect((await renderedRows(page))[0]).toBe(name);
    expect(await row.getAttribute('class')).toContain('fresh');
    expect(await row.locator('.badge-new').textContent()).toBe('new');
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toContain('65 plans');
    await screenshot(page, 'live-new-plan');
    expect(await stillSamePage(w)).toBe(true);

    await rm(path.join(fx.plansDir, 'task-03-delta-lynx.md'));
    await page.locator('.grid-row[data-filename="task-03-delta-lynx.md"]').waitFor({ state: 'detached' });
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toContain('64 plans');
    expect(await stillSamePage(w)).toBe(true);
  });

  it('keeps the list where it was when a plan arrives above the visible rows', async () => {
    const w = await open();
    const { page } = w;
    await page.waitForSelector('.grid-row');
    await page.locator('.grid-body').evaluate((el) => (el.scrollTop = 54 * 12));
    const topRow = () =>
      page.evaluate(() => {
        // The first row below the column headers, which stay at the top of the scrolling grid.
        const header = document.querySelector('.grid-header')!.getBoundingClientRect();
        const el = document.elementFromPoint(header.left + 40, header.bottom + 10)?.closest('.grid-row') as HTMLElement | null;
        return el?.dataset.filename ?? null;
      });
    const before = await topRow();
    expect(before).not.toBeNull();
    const counts = () => page.textContent('[data-testid="plan-counts"]').then((t) => Number(/(\d+) plans/.exec(t ?? '')?.[1]));
    const n = await counts();
    await writeFile(path.join(fx.plansDir, 'another-new-plan-calm-heron.md'), '# Plan: Another new plan\n');
    await expect.poll(counts).toBe(n + 1);
    expect(await topRow()).toBe(before);
    // Back at the top, the new plan is the first row.
    await page.locator('.grid-body').evaluate((el) => (el.scrollTop = 0));
    await expect.poll(async () => (await renderedRows(page))[0]).toBe('another-new-plan-calm-heron.md');
    expect(await stillSamePage(w)).toBe(true);
  });

  it('updates the open document in place and keeps its scroll position', async () => {
    const w = await open(`?plan=${fx.plans.rich}`);
    const { page } = w;
    await page.waitForSelector('#h-rollout');
    await page.locator('.reader-scroll').evaluate((el) => (el.scrollTop = 700));
    const top = await page.locator('.reader-scroll').evaluate((el) => el.scrollTop);
    expect(top).toBe(700);
    await appendFile(path.join(fx.plansDir, fx.plans.rich), '\n## Live section\n\nAdded while the plan was open.\n');
    await page.waitForSelector('#h-live-section');
    expect(await page.locator('nav.outline a', { hasText: 'Live section' }).count()).toBe(1);
    expect(await page.locator('.reader-scroll').evaluate((el) => el.scrollTop)).toBe(700);
    expect(await stillSamePage(w)).toBe(true);
    await screenshot(page, 'live-document-updated');
  });

  it('updates memory: a new topic appears in the list and in the open index', async () => {
    const memory = await apiMemory(server.url);
    const web = memory.sources.find((s) => s.project === 'webapp')!;
    const w = await open(`?view=memory&source=${encodeURIComponent(web.id)}`);
    const { page } = w;
    await page.waitForSelector('.index-health');
    const dir = fx.memoryDir.webapp;
    await writeFile(path.join(dir, 'fresh-topic.md'), '---\nname: fresh-topic\ndescription: Written live\ntype: project\n---\nFresh.\n');
    await appendFile(path.join(dir, 'MEMORY.md'), '- [Fresh topic](fresh-topic.md) — written live\n');
    await page.locator('.entry-name', { hasText: 'fresh-topic' }).waitFor();
    await page.locator('.markdown-body a', { hasText: 'Fresh topic' }).waitFor();
    expect(await stillSamePage(w)).toBe(true);
  });

  it('reconnects by itself after the service restarts and catches up', async () => {
    const w = await open();
    const { page } = w;
    await page.waitForSelector('.grid-row');
    const port = server.port;
    await server.stop();
    await page.waitForSelector('.live-connecting, .live-offline');
    await writeFile(path.join(fx.plansDir, 'written-while-down-quiet-mole.md'), '# Plan: Written while the service was down\n');
    server = await startServer(fx.home, { port });
    await page.waitForSelector('.live-live', { timeout: 40_000 });
    await page.locator('.grid-row[data-filename="written-while-down-quiet-mole.md"]').waitFor();
    expect(await stillSamePage(w)).toBe(true);
  }, 60_000);
});

// When something fails the screen says what happened and offers a way on: a search that could not ask
// the service says it failed (not "no match"), a plan that could not load has Retry, and a memory file
// deleted while open says it is gone instead of showing another file.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './helpers/axe.js';
import { openPage, screenshot } from './helpers/browser.js';
import { startServer } from './helpers/server.js';
import { apiMemory, query, renderedRows, useTestEnv } from './helpers/setup.js';

const env = useTestEnv();

describe('the service gone for a moment', () => {
  it('a content search says it failed and a plan says it could not load; Retry asks again; the app recovers when the service is back', async () => {
    // A server of this test's own, stopped and started again on the same port: a real failure.
    let server = await startServer(env.fx.home);
    const port = server.port;
    try {
      const { page, context, requests } = await openPage(env.browser, server.url);
      await page.goto(server.url);
      await page.waitForSelector('.grid-row');
      // The reader's code is fetched in the background once the rows are up; a plan opened first makes sure
      // it is here before the service goes (else the reader itself cannot load, which is not this test's case).
      await page.locator(`.grid-row[data-filename="${env.fx.plans.rich}"]`).click();
      await page.locator('.reader .markdown-body').waitFor();
      await server.stop();

      // Only the text of the rich plan has this word: without the service nothing can say whether it matches.
      await page.getByRole('searchbox').fill('zebracorn');
      const failed = page.locator('.state-panel.error', { hasText: 'The search failed' });
      await failed.waitFor();
      expect(await page.getByText('No plans match').count()).toBe(0);
      await screenshot(page, 'failure-search');
      await expectAccessible(page, 'search failed');
      // Retry asks the service again (which is still down: the failure is said again).
      const searches = () => requests.filter((u) => u.includes('/api/search?')).length;
      const asked = searches();
      await failed.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(searches).toBeGreaterThan(asked);
      await failed.waitFor();

      // Back again: the live connection resyncs and the search is answered.
      server = await startServer(env.fx.home, { port });
      await expect.poll(() => renderedRows(page)).toEqual([env.fx.plans.rich]);

      await page.getByRole('searchbox').fill('');
      await page.waitForSelector(`.grid-row[data-filename="${env.fx.plans.login}"]`);
      await server.stop();
      await page.locator(`.grid-row[data-filename="${env.fx.plans.login}"]`).click();
      const panel = page.locator('.reader .state-panel.error', { hasText: 'Could not load this plan' });
      await panel.waitFor();
      expect(await panel.textContent()).toContain('Cannot reach the viewer service');
      await screenshot(page, 'failure-plan');
      await expectAccessible(page, 'plan failed');
      const contents = () => requests.filter((u) => u.includes(`/api/plans/${env.fx.plans.login}/content`)).length;
      const loads = contents();
      await panel.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(contents).toBeGreaterThan(loads);
      await panel.waitFor();
      server = await startServer(env.fx.home, { port });
      await page.locator('.markdown-body h1', { hasText: 'Fix the login bug' }).waitFor();
      await context.close();
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('Retry is what brings back a search and a plan that failed while the live connection stayed up', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    // The browser fails these requests as a dropped connection would; the service and the live
    // connection stay up, so nothing but Retry asks again.
    // Both searches the box asks (the literal one and the ranked one) fail.
    await page.route(/\/api\/(search|find)\?/, (route) => route.abort('connectionreset'));
    await page.getByRole('searchbox').fill('zebracorn');
    const failed = page.locator('.state-panel.error', { hasText: 'The search failed' });
    await failed.waitFor();
    await page.unroute(/\/api\/(search|find)\?/);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => renderedRows(page)).toEqual([env.fx.plans.rich]);

    await page.getByRole('searchbox').fill('');
    const content = new RegExp(`/api/plans/${env.fx.plans.login}/content`);
    await page.route(content, (route) => route.abort('connectionreset'));
    await page.locator(`.grid-row[data-filename="${env.fx.plans.login}"]`).click();
    const panel = page.locator('.reader .state-panel.error', { hasText: 'Could not load this plan' });
    await panel.waitFor();
    await page.unroute(content);
    await panel.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.markdown-body h1', { hasText: 'Fix the login bug' }).waitFor();
  });
});

describe('a memory file deleted while open', () => {
  it('says it is gone, as a plan does, instead of showing the index in its place', async () => {
    const memory = await apiMemory(env.server.url);
    const entry = memory.entries.find((e) => e.filename === 'reference-links.md')!;
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(entry.sourceId)}&entry=${encodeURIComponent(entry.id)}`);
    await expect.poll(() => page.textContent('.reader-title')).toBe('reference-links');

    await rm(path.join(env.fx.memoryDir.webapp, 'reference-links.md'));
    const gone = page.locator('.state-panel', { hasText: 'This memory file is gone' });
    await gone.waitFor();
    expect(await gone.textContent()).toContain('reference-links.md was deleted');
    // Once the list has dropped it (the reader may say so first, from its content's 404), the reader is
    // gone too, and the address stays: the view did not switch to another file.
    await expect.poll(() => page.locator('.reader-title').count()).toBe(0);
    expect(await gone.textContent()).toContain('reference-links.md was deleted');
    expect((await query(page)).get('entry')).toBe(entry.id);
    await screenshot(page, 'failure-memory-gone');
    await expectAccessible(page, 'memory file gone');
  });
});

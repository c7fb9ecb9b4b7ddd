// The URL holds the screen, the keyboard reaches everything, themes follow the system with a toggle,
// and loading / empty / error / demo states say what is happening.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from './helpers/browser.js';
import { apiMemory, apiPlans, query, renderedRows, useTestEnv } from './helpers/setup.js';
import { startServer } from './helpers/server.js';

const env = useTestEnv();

describe('URL state', () => {
  it('round-trips search, filter, sort and selection through a reload', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    await page.getByRole('searchbox').fill('task');
    await page.getByRole('button', { name: /Project:/ }).click();
    await page.getByRole('option', { name: /^\W*api/ }).click();
    await page.keyboard.press('Escape');
    await page.locator('.grid-header button', { hasText: 'Size' }).click();
    await page.locator('.grid-header button', { hasText: 'Size' }).click();
    const target = (await renderedRows(page))[1]!;
    await page.locator(`.grid-row[data-filename="${target}"]`).click();
    await expect.poll(async () => (await query(page)).get('plan')).toBe(target);

    const url = page.url();
    const params = new URL(url).searchParams;
    expect(params.get('q')).toBe('task');
    expect(params.getAll('project')).toEqual(['api']);
    expect(params.get('sort')).toBe('size');
    expect(params.get('dir')).toBe('asc');
    const rowsBefore = await renderedRows(page);

    await page.reload();
    await page.waitForSelector('.grid-row');
    expect(page.url()).toBe(url);
    expect(await page.getByRole('searchbox').inputValue()).toBe('task');
    expect(await page.textContent('.filter-button')).toContain('api');
    expect(await page.locator('[role="columnheader"]', { hasText: 'Size' }).getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => renderedRows(page)).toEqual(rowsBefore);
    expect(await page.getAttribute('.grid-row.selected', 'data-filename')).toBe(target);
    await page.locator('.markdown-body h1').waitFor();
  });

  it('round-trips the memory view (source, entry, type filter, graph tab) and the back button', async () => {
    const memory = await apiMemory(env.server.url);
    const docs = memory.sources.find((s) => s.project === 'docs')!;
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(docs.id)}&type=reference&tab=graph`);
    await page.waitForSelector('.link-graph .node');
    expect(await page.textContent('.source-title')).toBe('docs');
    expect(await page.locator('.type-chips button[aria-pressed="true"]').textContent()).toContain('reference');
    await page.reload();
    await page.waitForSelector('.link-graph .node');
    expect(await page.locator('.tabs [aria-selected="true"]').textContent()).toBe('Link graph');

    await page.locator('.node', { hasText: 'late-doc' }).click();
    await expect.poll(() => page.textContent('.reader-title')).toBe('late-doc');
    await page.goBack();
    await page.waitForSelector('.link-graph .node');
    await page.goForward();
    await expect.poll(() => page.textContent('.reader-title')).toBe('late-doc');
  });
});

describe('keyboard', () => {
  it('moves with j/k and arrows, opens in the editor with Enter, switches views, focuses search', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const opened: string[] = [];
    await page.route('**/api/open', async (route) => {
      opened.push((JSON.parse(route.request().postData() ?? '{}') as { filepath: string }).filepath);
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":true}' });
    });
    const rows = await renderedRows(page);

    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).not.toBe('search');

    await page.keyboard.press('j');
    await expect.poll(async () => (await query(page)).get('plan')).toBe(rows[0]);
    await page.keyboard.press('j');
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await query(page)).get('plan')).toBe(rows[2]);
    await page.keyboard.press('k');
    await expect.poll(async () => (await query(page)).get('plan')).toBe(rows[1]);
    await page.locator('.markdown-body').waitFor();

    await page.keyboard.press('Enter');
    const plans = await apiPlans(env.server.url);
    await expect.poll(() => opened).toEqual([plans.find((p) => p.filename === rows[1])!.filepath]);

    await page.keyboard.press('f');
    await expect.poll(async () => (await query(page)).get('full')).toBe('1');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await query(page)).get('full')).toBeNull();

    await page.keyboard.press('2');
    await expect.poll(async () => (await query(page)).get('view')).toBe('memory');
    await page.locator('.source-group').first().waitFor();
    await page.keyboard.press('j');
    await expect.poll(async () => (await query(page)).get('entry')).not.toBeNull();
    await page.keyboard.press('g');
    await expect.poll(async () => (await query(page)).get('tab')).toBe('graph');
    await page.keyboard.press('1');
    await expect.poll(async () => (await query(page)).get('view')).toBeNull();

    await page.keyboard.press('/'); // Ctrl+K opens the find palette (e2e/find.test.ts)
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.keyboard.type('login');
    await expect.poll(async () => (await query(page)).get('q')).toBe('login');
    await page.keyboard.press('Enter');
    // Enter in the search box moves to the results.
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toContain('grid-body');
    await page.getByRole('searchbox').focus();
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await query(page)).get('q')).toBeNull();
  });

  it('shows every shortcut with ? and closes with Esc', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    await page.keyboard.press('?');
    const dialog = page.locator('dialog.help-dialog');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    const text = await dialog.textContent();
    for (const what of ['Move through the list', 'Open the selected file in your editor', 'Focus the search box', 'Next / previous search match', 'Plans / Memory']) {
      expect(text).toContain(what);
    }
    await screenshot(page, 'help-dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
  });

  it('labels every control for screen readers', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`);
    await page.locator('.markdown-body h1').waitFor();
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll('button, input, [role="button"], a[href]')]
        .filter((el) => {
          const label =
            el.getAttribute('aria-label') || el.getAttribute('title') || (el.textContent ?? '').trim() || (el.closest('label')?.textContent ?? '').trim();
          return !label && !(el as HTMLElement).closest('[aria-hidden="true"]');
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unlabeled).toEqual([]);
  });
});

describe('themes', () => {
  it('follows a dark system setting and toggles to light, remembering the choice', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`, { colorScheme: 'dark' });
    await page.locator('.markdown-body h1').waitFor();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await bg()).toBe('rgb(20, 22, 28)');
    await screenshot(page, 'theme-dark');
    await page.getByRole('button', { name: /^Theme:/ }).click();
    await expect.poll(() => page.getAttribute('html', 'data-theme')).toBe('light');
    expect(await bg()).toBe('rgb(255, 255, 255)');
    await page.reload();
    await page.locator('.markdown-body h1').waitFor();
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
  });
});

describe('states', () => {
  it('says what is happening while loading and on errors, and recovers with Retry', async () => {
    const w = await openPage(env.browser, env.server.url);
    const { page } = w;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let fail = true;
    await page.route('**/api/plans', async (route) => {
      await held;
      if (fail) await route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' });
      else await route.continue();
    });
    await page.goto(env.server.url);
    await page.getByText('Loading plans…').waitFor();
    await screenshot(page, 'state-loading');
    release();
    await page.getByText('Could not load plans').waitFor();
    expect(await page.textContent('.state-panel.error')).toContain('500');
    await screenshot(page, 'state-error');
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForSelector('.grid-row');
    await w.context.close();
  });

  it('explains an empty home', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'pmv-e2e-empty-'));
    const home = path.join(root, 'home');
    await mkdir(path.join(home, 'plans'), { recursive: true });
    const server = await startServer(home);
    try {
      const w = await openPage(env.browser, server.url);
      await w.page.goto(server.url);
      await w.page.getByText('No plans yet').waitFor();
      expect(await w.page.textContent('.state-panel')).toContain('plan mode');
      await screenshot(w.page, 'state-empty-plans');
      await w.page.keyboard.press('2');
      await w.page.getByText('No auto memory yet').waitFor();
      await screenshot(w.page, 'state-empty-memory');
      await w.context.close();
    } finally {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('says when it shows the bundled demo data', async () => {
    const server = await startServer(null, { args: ['--demo'] });
    try {
      const w = await openPage(env.browser, server.url);
      await w.page.goto(server.url);
      await w.page.waitForSelector('.grid-row');
      expect(await w.page.textContent('.demo-banner')).toContain('Demo data');
      await screenshot(w.page, 'state-demo');
      await w.context.close();
    } finally {
      await server.stop();
    }
  }, 60_000);
});

// Memory care in a real browser over the real server: the health overview (every source with its
// problem counts, worst first, inactive folders never shown as healthy), a source's problems, a fix
// previewed as a diff and applied (the file on disk changes only then), the 409 race answered with a
// fresh preview, undo, a secret masked until revealed, the project picker, and a read-only run.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './helpers/axe.js';
import { openPage, screenshot } from './helpers/browser.js';
import { addMemoryProject } from './helpers/fixture.js';
import { startServer } from './helpers/server.js';
import { query, useTestEnv } from './helpers/setup.js';

const SHOP_INDEX = '# Shop memory\n\n- [Checkout](checkout.md) — how checkout works\n';
const ORPHAN_LINE = '- [refunds](refunds.md) — Refund rules for the EU shop';
let shopDir = '';
let shopId = '';

const env = useTestEnv({
  async extend(fx) {
    ({ id: shopId, memoryDir: shopDir } = await addMemoryProject(fx, 'shop', '1b0c4f7e-2d3a-4c5b-9e8f-00000000c0de', {
      'MEMORY.md': SHOP_INDEX,
      'checkout.md': '---\nname: checkout\ndescription: how checkout works\nmetadata:\n  type: project\n---\n\nStaging login:\npassword: hunter2-correct-horse\n',
      'refunds.md': '---\nname: refunds\ndescription: Refund rules for the EU shop\nmetadata:\n  type: project\n---\n\nFourteen days.\n',
    }));
  },
});

const shopIndex = () => readFile(path.join(shopDir, 'MEMORY.md'), 'utf8');

async function openShopHealth(page: Page): Promise<void> {
  await page.locator('.health-row', { has: page.locator('.health-source', { hasText: 'shop' }) }).locator('.health-source').click();
  await expect.poll(async () => (await query(page)).get('tab')).toBe('health');
  await page.waitForSelector('.source-problems .problem-item');
}

const orphanItem = (page: Page) => page.locator('.problem-item[data-kind="orphan"]', { hasText: 'refunds.md' });

describe('the health overview', () => {
  it('lists every source with its problem counts, worst first, and never shows an inactive folder as healthy', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    await page.waitForSelector('.health-row');
    await expect.poll(() => page.locator('.health-overview-head [role="status"]').textContent()).toMatch(/\d+ sources · \d+ problems in \d+ sources?$/);
    const rows = page.locator('.health-row');
    // shop holds a secret, the worst kind: it comes first.
    expect(await rows.first().locator('.health-source').textContent()).toBe('shop');
    const shop = rows.first();
    expect(await shop.locator('.health-counts').textContent()).toContain('1 secret');
    expect(await shop.locator('.health-counts').textContent()).toContain('1 orphan');
    // The legacy default folder, which Claude Code no longer reads, says so instead of "healthy".
    const inactive = page.locator('.health-row.inactive');
    expect(await inactive.count()).toBeGreaterThan(0);
    for (const text of await inactive.locator('.health-status').allTextContents()) {
      expect(text).not.toContain('healthy');
    }
    expect(await inactive.first().locator('.health-status').getAttribute('data-status')).toBe('inactive');
    await screenshot(page, 'memory-health-overview');
  });

  it('opens a problem in one click', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    const shop = page.locator('.health-row', { has: page.locator('.health-source', { hasText: 'shop' }) });
    await shop.locator('.health-row-problems button', { hasText: 'refunds.md' }).click();
    await expect.poll(async () => (await query(page)).get('entry')).toBe(`${shopId}/refunds.md`);
    await expect.poll(() => page.textContent('.reader-title')).toBe('refunds');
  });

  it('shows one kind of problem at a time', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    await page.waitForSelector('.health-row');
    const chips = page.getByRole('group', { name: 'Show one kind of problem' });
    await chips.locator('button[data-kind="orphan"]').click();
    expect(await chips.locator('button[data-kind="orphan"]').getAttribute('aria-pressed')).toBe('true');
    const kinds = await page.locator('.health-row-problems .problem-kind').allTextContents();
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set([kinds[0]]));
    expect(await page.locator('.health-row .health-source').allTextContents()).toContain('shop');
    await chips.getByRole('button', { name: /^all/ }).click();
    await expect.poll(async () => new Set(await page.locator('.health-row-problems .problem-kind').allTextContents()).size).toBeGreaterThan(1);
    await expectAccessible(page, 'health filtered by kind');
  });

  it('follows the project picker', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    await page.waitForSelector('.health-row');
    expect(await page.locator('.health-row').count()).toBeGreaterThan(2);
    await page.getByRole('searchbox', { name: "Find a project's memory" }).fill('shop');
    await expect.poll(() => page.locator('.health-row .health-source').allTextContents()).toEqual(['shop']);
    await expect.poll(async () => (await query(page)).get('pick')).toBe('shop');
    expect(await page.locator('.source-group .group-title').allTextContents()).toEqual(['shop']);
  });
});

describe('fixing a problem', () => {
  it('previews the exact change as a diff, writes only on Apply, and undoes', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    await openShopHealth(page);
    const item = orphanItem(page);
    await item.getByRole('button', { name: 'Add to MEMORY.md…' }).click();
    const diff = item.locator('.diff-view');
    await expect.poll(() => item.locator('.diff-add').allTextContents()).toContain(`+${ORPHAN_LINE}\n`);
    expect(await diff.locator('.diff-file').count()).toBeGreaterThan(0);
    expect(await shopIndex()).toBe(SHOP_INDEX);
    await screenshot(page, 'memory-fix-preview');

    await item.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(shopIndex).toBe(`${SHOP_INDEX}${ORPHAN_LINE}\n`);
    await expect.poll(() => page.locator('.fix-applied').textContent()).toContain('Fix applied to MEMORY.md');
    // The health check runs again: the orphan is gone.
    await expect.poll(() => orphanItem(page).count()).toBe(0);

    await page.locator('.fix-applied').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(shopIndex).toBe(SHOP_INDEX);
    await expect.poll(() => orphanItem(page).count()).toBe(1);
    expect(await page.locator('.fix-applied').count()).toBe(0);
  });

  it('answers a file changed since the preview with the new preview, writing nothing until applied again', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    await openShopHealth(page);
    const item = orphanItem(page);
    await item.getByRole('button', { name: 'Add to MEMORY.md…' }).click();
    await expect.poll(() => item.locator('.diff-add').count()).toBeGreaterThan(0);
    // Claude Code saves a memory meanwhile.
    const saved = `${SHOP_INDEX}- [Shipping](shipping.md) — saved meanwhile\n`;
    await writeFile(path.join(shopDir, 'MEMORY.md'), saved);
    await item.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => item.locator('.fix-preview .notice').textContent()).toContain('The file changed since the preview');
    expect(await shopIndex()).toBe(saved);
    // The new preview shows the line written meanwhile as context; applying it now keeps both.
    await expect.poll(() => item.locator('.diff-ctx').allTextContents()).toContain(' - [Shipping](shipping.md) — saved meanwhile\n');
    await item.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(shopIndex).toBe(`${saved}${ORPHAN_LINE}\n`);
    await page.locator('.fix-applied').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(shopIndex).toBe(saved);
    await writeFile(path.join(shopDir, 'MEMORY.md'), SHOP_INDEX);
  });

  it('masks a secret until it is revealed', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    await openShopHealth(page);
    const secret = page.locator('.problem-item[data-kind="secret"]');
    expect(await secret.locator('.problem-file').textContent()).toBe('checkout.md:9');
    expect(await secret.textContent()).not.toContain('hunter2');
    await secret.getByRole('button', { name: 'Reveal' }).click();
    await expect.poll(() => secret.getByTestId('secret-text').textContent()).toBe('password: hunter2-correct-horse');
    await secret.getByRole('button', { name: 'Hide' }).click();
    await expect.poll(() => secret.textContent()).not.toContain('hunter2');
  });
});

describe('recent fixes', () => {
  it('outlive a reload: undone from the list, and off with the reason when a file changed since', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    await openShopHealth(page);
    const item = orphanItem(page);
    await item.getByRole('button', { name: 'Add to MEMORY.md…' }).click();
    await expect.poll(() => item.locator('.diff-add').count()).toBeGreaterThan(0);
    await item.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(shopIndex).toBe(`${SHOP_INDEX}${ORPHAN_LINE}\n`);

    // The page reloads: the banner's Undo is gone, the list keeps the fix.
    await page.goto(`${env.server.url}?view=memory&tab=health`);
    const recent = page.getByRole('region', { name: 'Recent fixes' });
    const fix = recent.locator('li', { hasText: 'Add to MEMORY.md' });
    await expect.poll(() => fix.textContent()).toContain('MEMORY.md');
    expect(await page.locator('.fix-applied').count()).toBe(0);

    // Claude Code saves a memory: undo would overwrite it, and the list says so.
    const theirs = `${SHOP_INDEX}${ORPHAN_LINE}\n- [Shipping](shipping.md) — saved meanwhile\n`;
    await writeFile(path.join(shopDir, 'MEMORY.md'), theirs);
    await expect.poll(() => fix.getByRole('button', { name: 'Undo' }).isDisabled()).toBe(true);
    expect(await fix.textContent()).toContain('MEMORY.md changed since this fix; undo would overwrite that change.');
    await screenshot(page, 'memory-recent-fixes');

    await writeFile(path.join(shopDir, 'MEMORY.md'), `${SHOP_INDEX}${ORPHAN_LINE}\n`);
    await expect.poll(() => fix.getByRole('button', { name: 'Undo' }).isEnabled()).toBe(true);
    await fix.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(shopIndex).toBe(SHOP_INDEX);
    await expect.poll(() => recent.count()).toBe(0);
    await expectAccessible(page, 'health after undo from recent fixes');
  });
});

describe('fix all of one kind', () => {
  it('previews one change for every dangling link of a source, applies it, and undoes it from the recent fixes', async () => {
    const dir = env.fx.memoryDir.webapp;
    const names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
    const before = await Promise.all(names.map((n) => readFile(path.join(dir, n), 'utf8')));
    const now = () => Promise.all(names.map((n) => readFile(path.join(dir, n), 'utf8')));
    const { page } = await env.open('?view=memory&tab=health');
    await page.waitForSelector('.health-row');
    await page.getByRole('group', { name: 'Show one kind of problem' }).locator('button[data-kind="dangling"]').click();
    const row = page.locator('.health-row', { has: page.locator('.health-source', { hasText: 'webapp' }) });
    const dangling = await row.locator('.health-row-problems li').count();
    expect(dangling).toBeGreaterThan(1);
    await row.getByRole('button', { name: `Fix all ${dangling}…` }).click();
    const preview = row.getByRole('region', { name: /^Preview: fix all dangling link findings/ });
    await expect.poll(() => preview.locator('.diff-file').count()).toBeGreaterThan(0);
    expect(await preview.textContent()).toContain(`One change fixes ${dangling} findings`);
    expect(await now()).toEqual(before);
    await screenshot(page, 'memory-fix-all-preview');

    await preview.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(now).not.toEqual(before);
    // No dangling link left in webapp: its row leaves the filtered list.
    await expect.poll(() => row.count()).toBe(0);
    const fix = page.getByRole('region', { name: 'Recent fixes' }).locator('li', { hasText: `Fixed ${dangling} × dangling link` });
    await fix.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(now).toEqual(before);
    await expect.poll(() => row.locator('.health-row-problems li').count()).toBe(dangling);
  });
});

describe('at 360 px', () => {
  it('the recent fixes and a fix-all preview fit the width: no sideways page scroll', async () => {
    const post = async <T>(route: string, body: unknown): Promise<T> => {
      const res = await fetch(`${env.server.url}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as T;
    };
    const fix = { sourceId: shopId, kind: 'add-to-index', file: 'refunds.md', target: null };
    const { hash } = await post<{ hash: string }>('api/memory/fix', { ...fix, apply: false });
    const { undoId } = await post<{ undoId: string }>('api/memory/fix', { ...fix, apply: true, hash });
    const { page } = await env.open('?view=memory&tab=health', { viewport: { width: 360, height: 800 } });
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await page.getByRole('region', { name: 'Recent fixes' }).locator('li').first().waitFor();
    expect(await wide()).toBeLessThanOrEqual(0);
    await page.getByRole('group', { name: 'Show one kind of problem' }).locator('button[data-kind="dangling"]').click();
    await page.getByRole('button', { name: /^Fix all \d+…$/ }).first().click();
    await page.locator('.fix-all-preview .diff-file').first().waitFor();
    expect(await wide()).toBeLessThanOrEqual(0);
    await screenshot(page, 'memory-fix-all-360');
    await post('api/memory/undo', { undoId });
    expect(await shopIndex()).toBe(SHOP_INDEX);
  });
});

describe('the Document tab', () => {
  it('masks a secret in the document until it is revealed, and again on the next file', async () => {
    const entry = `${shopId}/checkout.md`;
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(shopId)}&entry=${encodeURIComponent(entry)}`);
    const body = page.locator('.entry-reader .markdown-body');
    await expect.poll(() => body.textContent()).toContain('Staging login:');
    expect(await body.textContent()).not.toContain('hunter2');
    expect(await body.textContent()).toContain('password: ••••');
    const notice = page.getByTestId('secret-notice');
    expect(await notice.textContent()).toContain('1 secret hidden');
    await screenshot(page, 'memory-document-secret-masked');
    await notice.getByRole('button', { name: 'Reveal' }).click();
    await expect.poll(() => body.textContent()).toContain('password: hunter2-correct-horse');
    await notice.getByRole('button', { name: 'Hide' }).click();
    await expect.poll(() => body.textContent()).not.toContain('hunter2');
    // Revealed for one file only: another file, and this one opened again, start masked.
    await notice.getByRole('button', { name: 'Reveal' }).click();
    await expect.poll(() => body.textContent()).toContain('hunter2');
    await page.goto(`${env.server.url}?view=memory&source=${encodeURIComponent(shopId)}&entry=${encodeURIComponent(`${shopId}/refunds.md`)}`);
    await expect.poll(() => body.textContent()).toContain('Fourteen days.');
    expect(await page.getByTestId('secret-notice').count()).toBe(0);
    await page.goto(`${env.server.url}?view=memory&source=${encodeURIComponent(shopId)}&entry=${encodeURIComponent(entry)}`);
    await expect.poll(() => body.textContent()).toContain('Staging login:');
    expect(await body.textContent()).not.toContain('hunter2');
  });

  it('masks a secret in a find snippet, keeping the match marked', async () => {
    const { page } = await env.open('?view=memory');
    await page.keyboard.press('Control+k');
    await page.getByRole('searchbox', { name: 'Find anything' }).fill('password');
    const snippet = page.locator('.find-hit[data-kind="memory"] .find-snippet', { hasText: 'password' }).first();
    await snippet.waitFor();
    expect(await snippet.textContent()).toContain('password: ••••');
    expect(await snippet.textContent()).not.toContain('hunter2');
    expect(await snippet.locator('mark').first().textContent()).toBe('password');
  }, 60_000);
});

describe('a read-only run', () => {
  it('says so, previews, and offers no way to write', async () => {
    const server = await startServer(env.fx.home, { args: ['--read-only'], cache: env.server.cache });
    const w = await openPage(env.browser, server.url);
    try {
      const { page } = w;
      await page.goto(`${server.url}?view=memory&tab=health&source=${encodeURIComponent(shopId)}`);
      await page.waitForSelector('.source-problems .problem-item');
      expect(await page.locator('.read-only-notice').textContent()).toContain('--read-only');
      const item = orphanItem(page);
      await item.getByRole('button', { name: 'Add to MEMORY.md…' }).click();
      await expect.poll(() => item.locator('.diff-add').count()).toBeGreaterThan(0);
      expect(await item.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
      expect(await shopIndex()).toBe(SHOP_INDEX);
      // No fix of all findings of a kind either.
      await page.goto(`${server.url}?view=memory&tab=health`);
      await page.getByRole('group', { name: 'Show one kind of problem' }).locator('button[data-kind="dangling"]').click();
      await page.waitForSelector('.health-row-problems li');
      expect(await page.getByRole('button', { name: /^Fix all/ }).count()).toBe(0);
      // A fix applied by another run is listed, with no Undo.
      const body = { sourceId: shopId, kind: 'add-to-index', file: 'refunds.md', target: null };
      const post = (b: unknown) => fetch(`${env.server.url}api/memory/fix`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
      const { hash } = (await (await post({ ...body, apply: false })).json()) as { hash: string };
      const { undoId } = (await (await post({ ...body, apply: true, hash })).json()) as { undoId: string };
      // The health answer (which says the run is read-only) held back: the recent fixes, fetched on their own,
      // come first, and offer no Undo before the service has said it writes.
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/memory/health', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}?view=memory&tab=health`);
      const recent = page.getByRole('region', { name: 'Recent fixes' });
      await expect.poll(() => recent.locator('li').count()).toBe(1);
      expect(await recent.getByRole('button', { name: 'Undo' }).count()).toBe(0);
      release();
      await page.waitForSelector('.health-row');
      expect(await recent.getByRole('button', { name: 'Undo' }).count()).toBe(0);
      const undone = await fetch(`${env.server.url}api/memory/undo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ undoId }) });
      expect(undone.status).toBe(200);
    } finally {
      await w.context.close();
      await server.stop();
    }
  });
});

describe('the trash', () => {
  it('restores a topic after Claude Code rewrote MEMORY.md, and leads to the fix that re-adds its line', async () => {
    const post = async <T>(route: string, body: unknown): Promise<T> => {
      const res = await fetch(`${env.server.url}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as T;
    };
    const fix = { sourceId: shopId, kind: 'trash-topic', file: 'checkout.md' };
    const preview = await post<{ hash: string }>('api/memory/fix', { ...fix, apply: false });
    await post('api/memory/fix', { ...fix, apply: true, hash: preview.hash });
    // Claude Code saves a memory meanwhile.
    const saved = `${SHOP_INDEX.replace('- [Checkout](checkout.md) — how checkout works\n', '')}- [Shipping](shipping.md) — saved meanwhile\n`;
    await writeFile(path.join(shopDir, 'MEMORY.md'), saved);

    const { page } = await env.open('?view=memory&tab=health');
    const trash = page.locator('.memory-trash');
    await trash.locator('li', { hasText: 'checkout.md' }).getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => trash.locator('.trash-restored').textContent()).toContain('its index line was not put back');
    expect(await readFile(path.join(shopDir, 'checkout.md'), 'utf8')).toContain('name: checkout');
    expect(await shopIndex()).toBe(saved);

    await trash.getByRole('button', { name: 'Add it to MEMORY.md…' }).click();
    const orphan = page.locator('.problem-item[data-kind="orphan"]', { hasText: 'checkout.md' });
    await orphan.getByRole('button', { name: 'Add to MEMORY.md…' }).click();
    await expect.poll(() => orphan.locator('.diff-add').allTextContents()).toContain('+- [checkout](checkout.md) — how checkout works\n');
    await orphan.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(shopIndex).toBe(`${saved}- [checkout](checkout.md) — how checkout works\n`);
    await writeFile(path.join(shopDir, 'MEMORY.md'), SHOP_INDEX);
  });
});

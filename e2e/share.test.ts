// "Download HTML" in a real browser: the plan reader hands over one file, which is then opened from disk
// in a fresh context with every request recorded: the session card and the rendered plan (with its
// mermaid diagram as drawn) are there, and the file makes no request and runs no script, even for a
// hostile plan.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useTestEnv } from './helpers/setup.js';

const env = useTestEnv();

async function download(page: Page, name: string): Promise<{ file: string; suggested: string }> {
  const button = page.getByRole('button', { name: 'Download HTML' });
  await expect.poll(() => button.isEnabled()).toBe(true);
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const file = path.join(env.fx.root, name);
  await dl.saveAs(file);
  return { file, suggested: dl.suggestedFilename() };
}

/** The file opened from disk in its own context: every request but the file itself, dialogs, errors. */
async function openOffline(file: string) {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (r) => {
    if (r.url() !== url) requests.push(r.url());
  });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, requests, dialogs };
}

describe('Download HTML', () => {
  it('downloads the plan as one file with its session card, content and diagram, that makes no request', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`);
    await page.waitForSelector('#h-diagram');
    await page.evaluate(() => document.getElementById('h-diagram')!.scrollIntoView());
    await page.waitForSelector('.mermaid-diagram[data-status="ready"]');
    const { file, suggested } = await download(page, 'rich.html');
    expect(suggested).toBe('add-dark-mode-happy-otter.html');
    const html = await readFile(file, 'utf8');
    expect(html).not.toMatch(/<script|\/assets\/|<link/i);

    const off = await openOffline(file);
    try {
      const p = off.page;
      expect(await p.title()).toBe('Add a dark mode to the web app');
      expect(await p.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src data:/);
      const card = p.locator('.shared-card');
      expect(await card.locator('h1').textContent()).toBe('Add a dark mode to the web app');
      const cardText = (await card.textContent()) ?? '';
      expect(cardText).toContain('add-dark-mode-happy-otter.md');
      expect(cardText).toContain('webapp');
      expect(cardText).toContain('main'); // the branch
      expect(await card.locator('.resume-command').textContent()).toMatch(new RegExp(`claude --resume ${env.fx.sessions.webapp}$`));
      // Rendered, not markdown: headings, the table, a task list, highlighted code, the drawn diagram.
      const body = p.locator('article.markdown-body');
      expect(await body.locator('h2').allTextContents()).toEqual(expect.arrayContaining(['Context', 'Steps', 'Diagram']));
      expect(await body.locator('table td').first().textContent()).toBe('theme.css');
      expect(await body.locator('input[type="checkbox"]').count()).toBe(3);
      expect(await body.locator('pre code.hljs, pre code [class^="hljs-"]').count()).toBeGreaterThan(0);
      expect(await body.locator('.mermaid-block svg text').allTextContents()).toEqual(expect.arrayContaining(['System setting', 'Follow system']));
      expect(await body.locator('a[href="https://example.com/issues/42"]').count()).toBe(1);
      expect(off.requests).toEqual([]);
      expect(off.dialogs).toEqual([]);
    } finally {
      await off.context.close();
    }
  });

  it('keeps a hostile plan inert in the file: no script runs, no request is made', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.xss}`);
    await page.locator('.markdown-body h1').waitFor();
    const { file } = await download(page, 'xss.html');
    const off = await openOffline(file);
    try {
      const p = off.page;
      expect(await p.locator('.shared-card h1').textContent()).toContain('XSS');
      expect(await p.locator('article.markdown-body').textContent()).toContain('raw anchor');
      // The remote image is a link, as in the reader, not an image.
      expect(await p.locator('a.image-link[href="https://evil.example/pixel.png"]').count()).toBe(1);
      expect(await p.locator('img[src^="http"], iframe, script, [onerror], [onload], [onclick]').count()).toBe(0);
      expect(await p.evaluate(() => (window as unknown as { __xss?: string }).__xss ?? null)).toBeNull();
      expect(off.requests).toEqual([]);
      expect(off.dialogs).toEqual([]);
    } finally {
      await off.context.close();
    }
  });
});

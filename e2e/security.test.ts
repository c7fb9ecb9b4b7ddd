// Hostile content stays inert, nothing leaves localhost, and the UI works under a CSP without any
// 'unsafe-inline' (mermaid included).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { foreignRequests, screenshot, type Watched } from './helpers/browser.js';
import { apiMemory, useTestEnv } from './helpers/setup.js';

const env = useTestEnv();

const xssFlag = (page: Page) => page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss ?? null);

async function noActiveContent(page: Page): Promise<void> {
  const found = await page.evaluate(() => ({
    scripts: document.querySelectorAll('.markdown-body script, .reader script, .grid-body script').length,
    images: document.querySelectorAll('img[src="x"], img[onerror]').length,
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
    jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => /^\s*(javascript|data|vbscript):/i.test(a.getAttribute('href')!)).length,
    frames: document.querySelectorAll('iframe, object, embed').length,
  }));
  expect(found).toEqual({ scripts: 0, images: 0, handlers: 0, jsLinks: 0, frames: 0 });
}

describe('hostile plan content', () => {
  it('shows <script>, <img onerror>, javascript: links and HTML titles as text and runs nothing', async () => {
    const w = await env.open(`?plan=${env.fx.plans.xss}`);
    const { page } = w;
    await page.locator('.markdown-body h1').waitFor();
    const body = await page.textContent('.markdown-body');
    expect(body).toContain("<script>window.__xss = 'script'; alert('script')</script>");
    expect(body).toContain('<img src=x onerror="window.__xss=\'img\'; alert(\'img\')">');
    expect(body).toContain("[click me](javascript:window.__xss='link')");
    // The title (from the first heading) is text in the list and in the reader.
    expect(await page.textContent('.reader-title')).toBe('XSS <img src=x onerror="window.__xss=\'title\'"> <b>bold</b>');
    const row = page.locator(`.grid-row[data-filename="${env.fx.plans.xss}"] .row-title`);
    expect(await row.textContent()).toContain('<b>bold</b>');
    expect(await row.locator('b').count()).toBe(0);
    // The remote image is a link, never loaded.
    expect(await page.locator('.markdown-body a.image-link').getAttribute('href')).toBe('https://evil.example/pixel.png');

    // A file name made of HTML is text too, and its plan opens.
    const htmlRow = page.locator('.grid-row', { hasText: 'file name' });
    expect(await htmlRow.locator('.row-filename').textContent()).toBe(env.fx.plans.htmlName);
    await htmlRow.click();
    await expect.poll(() => page.textContent('.reader-title')).toBe('<i>file name</i> attack');
    expect(await page.locator('.reader-title i').count()).toBe(0);
    expect(await page.textContent('.reader .filename')).toBe(env.fx.plans.htmlName);

    // Search for the payloads: highlighting must not turn text into markup either.
    await page.getByRole('searchbox').fill('onerror');
    // Only the payload plan and the plan whose file name is HTML hold the word: once the list shows just
    // those two, the search has settled and its rows are not re-rendered under the click.
    await expect.poll(() => page.locator('.grid-row').count(), { timeout: 15_000 }).toBe(2);
    await page.locator(`.grid-row[data-filename="${env.fx.plans.xss}"]`).click();
    await expect.poll(() => page.textContent('.reader .filename')).toBe(env.fx.plans.xss);
    await page.locator('.markdown-body mark.search-hit').first().waitFor();
    await page.mouse.move(300, 300);
    await page.locator('.markdown-body').hover();

    await noActiveContent(page);
    expect(await xssFlag(page)).toBeNull();
    expect(w.dialogs).toEqual([]);
    expect(w.pageErrors).toEqual([]);
    await screenshot(page, 'security-xss-plan');
  });
});

describe('network', () => {
  it('never sends a request anywhere but the viewer, across every view', async () => {
    const w: Watched = await env.open(`?plan=${env.fx.plans.xss}`);
    const { page } = w;
    await page.locator('.markdown-body h1').waitFor();
    await page.locator(`.grid-row[data-filename="${env.fx.plans.rich}"]`).click();
    await page.waitForSelector('#h-diagram');
    await page.evaluate(() => document.getElementById('h-diagram')!.scrollIntoView());
    await page.waitForSelector('.mermaid-diagram[data-status="ready"]');
    const memory = await apiMemory(env.server.url);
    for (const source of memory.sources) {
      await page.goto(`${env.server.url}?view=memory&source=${encodeURIComponent(source.id)}`);
      await page.waitForSelector('.reader-title, .state-panel');
      await page.goto(`${env.server.url}?view=memory&source=${encodeURIComponent(source.id)}&tab=graph`);
      await page.waitForSelector('.link-graph .node');
    }
    await page.keyboard.press('?');
    expect(w.requests.length).toBeGreaterThan(10);
    expect(foreignRequests(w.requests, env.server.url)).toEqual([]);
  }, 60_000);
});

describe('content security policy', () => {
  it('works under a policy without unsafe-inline: no violations, mermaid still styled', async () => {
    const w = await env.open();
    const { page, context } = w;
    const strict = [
      "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
      "connect-src 'self'", "worker-src 'self' blob:", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
      "form-action 'none'",
    ].join('; ');
    await context.route(`${env.server.url}**`, async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': strict } });
    });
    await context.addInitScript(() => {
      const list: string[] = [];
      (window as unknown as { __csp: string[] }).__csp = list;
      document.addEventListener('securitypolicyviolation', (e) => list.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`));
    });
    const response = await page.goto(`${env.server.url}?plan=${env.fx.plans.rich}`);
    expect(response!.headers()['content-security-policy']).toBe(strict);
    await page.waitForSelector('#h-diagram');
    await page.evaluate(() => document.getElementById('h-diagram')!.scrollIntoView());
    await page.waitForSelector('.mermaid-diagram[data-status="ready"]');
    // Mermaid's own stylesheet applied through CSSOM: node boxes are filled with its theme colour, not black.
    const fill = await page.locator('.diagram-canvas .node rect, .diagram-canvas .node polygon').first().evaluate((el) => getComputedStyle(el).fill);
    expect(fill).not.toBe('rgb(0, 0, 0)');
    expect(fill).not.toBe('none');
    await screenshot(page, 'security-strict-csp-mermaid');
    const violations = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    expect(await violations()).toEqual([]);

    const web = (await apiMemory(env.server.url)).sources.find((s) => s.project === 'webapp')!;
    await page.goto(`${env.server.url}?view=memory&source=${encodeURIComponent(web.id)}&tab=graph`);
    await page.waitForSelector('.link-graph .node');
    await page.getByRole('button', { name: /^Theme:/ }).click();
    expect(await violations()).toEqual([]);
  });
});

// Debian's Chromium driven by playwright-core (never a browser download), with everything a test
// needs to prove nothing unsafe happened: every request URL, dialogs, page errors, CSP violations.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  requests: string[];
  dialogs: string[];
  pageErrors: string[];
  consoleErrors: string[];
}

export async function openPage(
  browser: Browser,
  baseUrl: string,
  options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<Watched> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseUrl).origin });
  const page = await context.newPage();
  // Fail a wait with Playwright's own message before the test's timeout hides it.
  page.setDefaultTimeout(15_000);
  const watched: Watched = { context, page, requests: [], dialogs: [], pageErrors: [], consoleErrors: [] };
  page.on('request', (r) => watched.requests.push(r.url()));
  page.on('dialog', (d) => {
    watched.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => watched.pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') watched.consoleErrors.push(m.text());
  });
  return watched;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Every request the page made went to the viewer itself (or was inline data). */
export function foreignRequests(requests: string[], baseUrl: string): string[] {
  const origin = new URL(baseUrl).origin;
  return requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
}

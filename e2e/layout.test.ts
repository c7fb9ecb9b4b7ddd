// The page itself never scrolls, only its panes do, and every view works from 360 px up: no
// horizontal page scroll, every top-bar control on screen, clickable and reachable by keyboard, and
// on a phone one pane at a time with a way back from the reader to the list.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectAccessible } from './helpers/axe.js';
import { openPage, screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { startServer } from './helpers/server.js';
import { apiMemory, query, useTestEnv } from './helpers/setup.js';

/** Memory sources added to the fixture, so the source list is far longer than any window. */
const MANY = 150;

async function addManySources(fx: Fixture): Promise<void> {
  for (let i = 0; i < MANY; i += 1) {
    const cwd = path.join(fx.root, 'many', `proj-${String(i).padStart(3, '0')}`);
    const dir = path.join(fx.home, 'projects', encodeKey(cwd), 'memory');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'MEMORY.md'), '# Memory\n\n- [Topic](topic.md) — the only topic\n');
    await writeFile(path.join(dir, 'topic.md'), '---\nname: topic\ndescription: The only topic\ntype: user\n---\nBody.\n');
  }
}

const env = useTestEnv({ extend: addManySources });
// Each screen is walked, photographed and checked by axe (a second or more each on the shared cores):
// a generous wait, not a time limit the UI must meet.
vi.setConfig({ testTimeout: 120_000 });

/** Below this width a view shows its list or its reader, not both (app.css, "Phones"). */
const PHONE_MAX = 640;

const SIZES = [
  { width: 360, height: 740 },
  { width: 800, height: 1000 },
  { width: 1400, height: 900 },
];
// Both themes at every size: axe checks the colours of each screen, and they differ by theme.
const CASES = SIZES.flatMap((size) => (['light', 'dark'] as const).map((scheme) => ({ ...size, scheme })));

interface DocumentBox {
  scrollTop: number;
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
}

function documentBox(page: Page): Promise<DocumentBox> {
  return page.evaluate(() => {
    const s = document.scrollingElement!;
    return {
      scrollTop: s.scrollTop,
      scrollLeft: s.scrollLeft,
      scrollWidth: s.scrollWidth,
      clientWidth: s.clientWidth,
      scrollHeight: s.scrollHeight,
      clientHeight: s.clientHeight,
    };
  });
}

/** The document fits the window both ways: nothing to scroll but the panes. */
async function expectNoPageScroll(page: Page, screen: string): Promise<void> {
  const box = await documentBox(page);
  expect(box.scrollWidth, `${screen}: document width`).toBeLessThanOrEqual(box.clientWidth);
  expect(box.scrollHeight, `${screen}: document height`).toBeLessThanOrEqual(box.clientHeight);
  expect(box.scrollTop, `${screen}: document scrolled`).toBe(0);
  expect(box.scrollLeft, `${screen}: document scrolled sideways`).toBe(0);
}

interface Control {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** A click at its centre lands on it (nothing covers it). */
  hit: boolean;
}

function topBarControls(page: Page): Promise<Control[]> {
  return page.$$eval('.topbar button, .topbar input', (els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {
        name: el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName,
        left: r.left,
        top: r.top,
        right: r.right,
        bottom: r.bottom,
        hit: at !== null && el.contains(at),
      };
    }),
  );
}

/** The four view tabs (Costs too), the search box, reload, theme and help: all inside the window and uncovered. */
async function expectTopBarOnScreen(page: Page, screen: string): Promise<void> {
  const size = page.viewportSize()!;
  const controls = await topBarControls(page);
  expect(controls.map((c) => c.name), screen).toHaveLength(8);
  for (const c of controls) {
    expect(c.left, `${screen}: ${c.name} left edge`).toBeGreaterThanOrEqual(0);
    expect(c.top, `${screen}: ${c.name} top edge`).toBeGreaterThanOrEqual(0);
    expect(c.right, `${screen}: ${c.name} right edge`).toBeLessThanOrEqual(size.width);
    expect(c.bottom, `${screen}: ${c.name} bottom edge`).toBeLessThanOrEqual(size.height);
    expect(c.hit, `${screen}: a click on ${c.name} reaches it`).toBe(true);
  }
}

async function expectInsideWindow(page: Page, locator: Locator, what: string): Promise<void> {
  const size = page.viewportSize()!;
  const box = (await locator.boundingBox())!;
  expect(box, what).not.toBeNull();
  expect(box.x, `${what} left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} right edge`).toBeLessThanOrEqual(size.width);
}

/** Two animation frames: whatever a wheel event scrolls has been scrolled. */
function frames(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

const sourceButton = (page: Page, project: string) =>
  page.locator('.source-group', { has: page.locator('.group-title', { hasText: new RegExp(`^${project}$`) }) }).locator('.source-button').first();

describe('the page never scrolls, only its panes', () => {
  it.each([360, 1400])('a wheel past the end of a long memory list at %i px scrolls nothing else', async (width) => {
    const { page, context } = await env.open('?view=memory', { viewport: { width, height: 800 } });
    await page.waitForSelector('.source-group');
    expect(await page.locator('.source').count()).toBeGreaterThan(MANY);
    await expectNoPageScroll(page, 'before the wheel');

    const list = page.locator('.memory-scroll');
    const box = (await list.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const leftToScroll = () => list.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, 2000);
        return leftToScroll();
      })
      .toBeLessThanOrEqual(1);
    // Past the end: the wheel would now chain to the document.
    for (let i = 0; i < 5; i += 1) await page.mouse.wheel(0, 2000);
    await frames(page);

    await expectNoPageScroll(page, 'after the wheel');
    const bar = (await page.locator('.topbar').boundingBox())!;
    expect(bar.y).toBe(0);
    await expectTopBarOnScreen(page, 'after the wheel');
    await screenshot(page, `layout-${width}-memory-wheel`);
    await context.close();
  });
});

describe.each(CASES)('at $width px, $scheme', ({ width, height, scheme }) => {
  const phone = width <= PHONE_MAX;
  const tag = `${width}-${scheme}`;
  const open = (at: string) => env.open(at, { viewport: { width, height }, colorScheme: scheme });

  it('every top-bar control is on screen, clickable and reachable by keyboard', async () => {
    const { page, context } = await open('');
    await page.waitForSelector('.grid-row');
    // Both counts shown, so the tabs' names no longer change.
    await expect.poll(() => page.locator('.view-tabs .count').count()).toBe(2);
    await expectTopBarOnScreen(page, 'plans');

    // By keyboard: Tab from the start of the page visits every control of the top bar.
    const names = new Set<string>();
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      const name = await page.evaluate(() => {
        const el = document.activeElement;
        return el && el.closest('.topbar') ? el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName : null;
      });
      if (name) names.add(name);
    }
    expect([...names]).toEqual(expect.arrayContaining((await topBarControls(page)).map((c) => c.name)));
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.help-dialog[open]').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Close');
    await page.keyboard.press('Escape');
    await page.locator('.help-dialog:not([open])').waitFor({ state: 'attached' });

    // By click (a real click at the element's centre, which fails if anything covers it).
    await page.getByRole('tab', { name: /Memory/ }).click();
    await expect.poll(async () => (await query(page)).get('view')).toBe('memory');
    await page.getByRole('tab', { name: /Plans/ }).click();
    await expect.poll(async () => (await query(page)).get('view')).toBeNull();
    await page.getByRole('searchbox').click();
    await page.keyboard.type('zebracorn');
    await expect.poll(() => page.locator('.grid-row').count()).toBe(1);
    await page.getByRole('searchbox').fill('');
    await page.getByRole('button', { name: 'Reload from disk' }).click();
    await page.locator('.toast', { hasText: 'Reloaded from disk' }).waitFor();
    const theme = page.locator('.topbar [data-theme-mode]');
    // The theme button cycles through the modes back to 'system' (two or three clicks).
    const modes = [await theme.getAttribute('data-theme-mode')];
    do {
      await theme.click();
      await expect.poll(() => theme.getAttribute('data-theme-mode')).not.toBe(modes.at(-1));
      modes.push(await theme.getAttribute('data-theme-mode'));
    } while (modes.at(-1) !== 'system' && modes.length < 5);
    expect(modes[0]).toBe('system');
    expect(modes.length).toBeGreaterThanOrEqual(3);
    expect(modes.at(-1)).toBe('system');
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    const dialog = page.locator('.help-dialog[open]');
    await dialog.waitFor();
    await expectInsideWindow(page, dialog, 'help dialog');
    await expectNoPageScroll(page, 'help');
    await screenshot(page, `layout-${tag}-help`);
    await expectAccessible(page, `${tag} help`);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator('.help-dialog:not([open])').waitFor({ state: 'attached' });
    await context.close();
  });

  it('plans: the list, a plan, and back', async () => {
    const { page, context } = await open('');
    await page.waitForSelector('.grid-row');
    await expectNoPageScroll(page, 'plans list');
    await screenshot(page, `layout-${tag}-plans`);
    await expectAccessible(page, `${tag} plans`);

    await page.locator(`.grid-row[data-filename="${env.fx.plans.rich}"]`).click();
    await page.locator('.markdown-body h1').waitFor();
    await expectInsideWindow(page, page.locator('.reader-title'), 'plan title');
    await expectInsideWindow(page, page.getByRole('button', { name: 'Copy markdown' }), 'plan actions');
    // A phone shows the reader alone; wider screens keep the list beside or above it.
    expect(await page.locator('.plans-split .pane-list').isVisible()).toBe(!phone);
    await expectNoPageScroll(page, 'plan reader');
    await expectTopBarOnScreen(page, 'plan reader');
    await screenshot(page, `layout-${tag}-plan`);
    await expectAccessible(page, `${tag} plan`);

    const back = page.getByRole('button', { name: 'Back to the plans list' });
    const close = page.getByRole('button', { name: 'Close the plan' });
    expect(await back.isVisible()).toBe(phone);
    expect(await close.isVisible()).toBe(!phone);
    await (phone ? back : close).click();
    await expect.poll(async () => (await query(page)).get('plan')).toBeNull();
    await page.locator(`.grid-row[data-filename="${env.fx.plans.rich}"]`).waitFor();
    await expectNoPageScroll(page, 'plans list again');
    await context.close();
  });

  it('memory: sources, an entry, index health, the link graph, and back', async () => {
    const { page, context } = await open('?view=memory');
    await page.waitForSelector('.source-group');
    await expectNoPageScroll(page, 'memory sources');
    await expectTopBarOnScreen(page, 'memory sources');
    await screenshot(page, `layout-${tag}-memory`);
    await expectAccessible(page, `${tag} memory`);

    await sourceButton(page, 'webapp').click();
    await page.locator('.entry-button', { hasText: 'user-role' }).click();
    await expect.poll(() => page.textContent('.reader-title')).toBe('user-role');
    await page.locator('.markdown-body h1').waitFor();
    await expectInsideWindow(page, page.locator('.reader-title'), 'entry title');
    expect(await page.locator('.memory-sidebar').isVisible()).toBe(!phone);
    await expectNoPageScroll(page, 'entry reader');
    await expectTopBarOnScreen(page, 'entry reader');
    await screenshot(page, `layout-${tag}-entry`);
    await expectAccessible(page, `${tag} entry`);

    const back = page.getByRole('button', { name: 'Back to the memory list' });
    expect(await back.isVisible()).toBe(phone);
    if (phone) {
      await back.click();
      await expect.poll(async () => (await query(page)).get('entry')).toBeNull();
      await page.locator('.entry-button', { hasText: 'user-role' }).waitFor();
      expect(await page.locator('.source-view').isVisible()).toBe(false);
    }

    const docs = (await apiMemory(env.server.url)).sources.find((s) => s.project === 'docs')!;
    await sourceButton(page, 'docs').click();
    await page.locator(`.entry-button[data-entry-id="${docs.id}/MEMORY.md"]`).click();
    await page.locator('.index-health').waitFor();
    await expectInsideWindow(page, page.locator('.index-health'), 'index health');
    await expectNoPageScroll(page, 'index health');
    await screenshot(page, `layout-${tag}-index`);
    await expectAccessible(page, `${tag} index`);

    await page.getByRole('tab', { name: 'Link graph' }).click();
    await page.locator('.link-graph .node').first().waitFor();
    await expectInsideWindow(page, page.locator('.graph-viewport'), 'link graph');
    await expectInsideWindow(page, page.getByRole('button', { name: 'Fit graph' }), 'graph controls');
    await expectNoPageScroll(page, 'link graph');
    await expectTopBarOnScreen(page, 'link graph');
    await screenshot(page, `layout-${tag}-graph`);
    await expectAccessible(page, `${tag} graph`);
    if (phone) {
      await back.click();
      await expect.poll(async () => (await query(page)).get('tab')).toBeNull();
      await page.locator('.memory-sidebar').waitFor();
    }
    await context.close();
  });
});

describe.each(['light', 'dark'] as const)('the other screens at 360 px, %s', (scheme) => {
  const viewport = { width: 360, height: 740 };

  it('an empty home (plans and memory) and the demo banner', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'pmv-e2e-empty-'));
    const home = path.join(root, 'home');
    await mkdir(path.join(home, 'plans'), { recursive: true });
    const empty = await startServer(home);
    const demo = await startServer(null, { args: ['--demo'] });
    try {
      const w = await openPage(env.browser, empty.url, { viewport, colorScheme: scheme });
      await w.page.goto(empty.url);
      await w.page.getByText('No plans yet').waitFor();
      await expectNoPageScroll(w.page, 'no plans');
      await expectTopBarOnScreen(w.page, 'no plans');
      await screenshot(w.page, `layout-360-${scheme}-empty-plans`);
      await expectAccessible(w.page, `${scheme} empty plans`);
      await w.page.getByRole('tab', { name: /Memory/ }).click();
      await w.page.getByText('No auto memory yet').waitFor();
      await expectNoPageScroll(w.page, 'no memory');
      await screenshot(w.page, `layout-360-${scheme}-empty-memory`);
      await expectAccessible(w.page, `${scheme} empty memory`);
      await w.context.close();

      const d = await openPage(env.browser, demo.url, { viewport, colorScheme: scheme });
      await d.page.goto(demo.url);
      await d.page.waitForSelector('.grid-row');
      await expectInsideWindow(d.page, d.page.locator('.demo-banner'), 'demo banner');
      await expectInsideWindow(d.page, d.page.getByRole('button', { name: 'Hide the demo notice' }), 'demo banner close');
      await expectNoPageScroll(d.page, 'demo');
      await expectTopBarOnScreen(d.page, 'demo');
      await screenshot(d.page, `layout-360-${scheme}-demo`);
      await expectAccessible(d.page, `${scheme} demo`);
      await d.context.close();
    } finally {
      await empty.stop();
      await demo.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 180_000);
});

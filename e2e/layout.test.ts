// The page itself never scrolls, only its panes do.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { useTestEnv } from './helpers/setup.js';

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

/** Both view tabs, the search box, reload, theme and help: all inside the window and uncovered. */
async function expectTopBarOnScreen(page: Page, screen: string): Promise<void> {
  const size = page.viewportSize()!;
  const controls = await topBarControls(page);
  expect(controls.map((c) => c.name), screen).toHaveLength(6);
  for (const c of controls) {
    expect(c.left, `${screen}: ${c.name} left edge`).toBeGreaterThanOrEqual(0);
    expect(c.top, `${screen}: ${c.name} top edge`).toBeGreaterThanOrEqual(0);
    expect(c.right, `${screen}: ${c.name} right edge`).toBeLessThanOrEqual(size.width);
    expect(c.bottom, `${screen}: ${c.name} bottom edge`).toBeLessThanOrEqual(size.height);
    expect(c.hit, `${screen}: a click on ${c.name} reaches it`).toBe(true);
  }
}

/** Two animation frames: whatever a wheel event scrolls has been scrolled. */
function frames(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

describe('the page never scrolls, only its panes', () => {
  it.each([1400])('a wheel past the end of a long memory list at %i px scrolls nothing else', async (width) => {
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

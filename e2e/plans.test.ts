// Plans view in a real browser over the real server: list, sorting, project filter, search (client
// match + content hits merged, highlights, next/previous match), the reader and its actions.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser.js';
import { apiMemory, apiPlans, clipboard, query, renderedRows, useTestEnv } from './helpers/setup.js';

const env = useTestEnv();

describe('plans list', () => {
  it('lists plans virtualized with title, project, relative modified (exact on hover), size and lines', async () => {
    const { page, requests } = await env.open();
    await page.waitForSelector('.grid-row');
    // One request for the list: the app takes the answer index.html preloaded, asked for before its first render.
    expect(requests.filter((url) => new URL(url).pathname === '/api/plans')).toHaveLength(1);
    const plans = await apiPlans(env.server.url);
    expect(plans).toHaveLength(64);
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toContain('64 plans');

    const rows = await renderedRows(page);
    // Newest first by default, and only the rows near the viewport exist in the DOM.
    expect(rows[0]).toBe(env.fx.plans.rich);
    expect(rows.length).toBeLessThan(plans.length);

    const rich = plans.find((p) => p.filename === env.fx.plans.rich)!;
    const row = page.locator(`.grid-row[data-filename="${env.fx.plans.rich}"]`);
    await expect.poll(() => row.locator('.row-title').textContent()).toBe('Add a dark mode to the web app');
    expect(await row.locator('.col-project').textContent()).toBe('webapp');
    expect(await row.locator('.col-modified').textContent()).toMatch(/just now|min ago/);
    await row.locator('.col-modified').hover();
    expect(await row.locator('.col-modified').getAttribute('title')).toContain(new Date(rich.modified).toISOString());
    expect(await row.locator('.col-size').textContent()).toBe(`${(rich.size / 1024).toFixed(1)} KB`);
    expect(await row.locator('.col-lines').textContent()).toBe(String(rich.lineCount));

    // Scrolling to the end renders the oldest plan.
    await page.locator('.grid-body').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForSelector(`.grid-row[data-filename="task-60-alpha-lynx.md"]`);
    expect((await renderedRows(page)).length).toBeLessThan(plans.length);
    await screenshot(page, 'plans-list-scrolled');
  });

  it('sorts by every column, both ways', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const plans = await apiPlans(env.server.url);
    const header = (name: string) => page.locator('.grid-header [role="columnheader"]', { hasText: name });

    await header('Size').locator('button').click();
    await expect.poll(async () => (await query(page)).get('sort')).toBe('size');
    expect(await header('Size').getAttribute('aria-sort')).toBe('descending');
    const bySize = [...plans].sort((a, b) => b.size - a.size);
    await expect.poll(async () => (await renderedRows(page))[0]).toBe(bySize[0]!.filename);
    await header('Size').locator('button').click();
    expect(await header('Size').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(async () => (await renderedRows(page))[0]).toBe(bySize.at(-1)!.filename);

    await header('Lines').locator('button').click();
    const byLines = [...plans].sort((a, b) => b.lineCount - a.lineCount);
    await expect.poll(async () => (await renderedRows(page))[0]).toBe(byLines[0]!.filename);

    await header('Title').locator('button').click();
    expect(await header('Title').getAttribute('aria-sort')).toBe('ascending');
    const titles = await page.$$eval('.grid-row', (rows) =>
      rows.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map((r) => r.querySelector('.row-title')!.textContent!),
    );
    const sorted = [...titles].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));
    expect(titles).toEqual(sorted);

    await header('Project').locator('button').click();
    await expect.poll(async () => page.locator('.grid-row').first().locator('.col-project').textContent()).toBe('api');
    await header('Modified').locator('button').click();
    expect(await header('Modified').getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => (await renderedRows(page))[0]).toBe(env.fx.plans.rich);
    await header('Modified').locator('button').click();
    await expect.poll(async () => (await renderedRows(page))[0]).toBe('task-60-alpha-lynx.md');
  });

  it('filters by several projects at once, with counts per project', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const plans = await apiPlans(env.server.url);
    const count = (p: string | null) => plans.filter((x) => x.project === p).length;

    await page.getByRole('button', { name: /Project:/ }).click();
    const option = (name: string) => page.getByRole('option', { name: new RegExp(`^\\W*${name}`) });
    expect(await option('webapp').locator('.count').textContent()).toBe(String(count('webapp')));
    expect(await option('No project').locator('.count').textContent()).toBe(String(count(null)));
    await screenshot(page, 'plans-project-filter');

    await option('webapp').click();
    await option('No project').click();
    expect(await option('webapp').getAttribute('aria-selected')).toBe('true');
    await expect.poll(async () => (await query(page)).getAll('project')).toEqual(['webapp', '']);
    const expected = count('webapp') + count(null);
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toContain(`${expected} of 64 plans`);
    const projects = await page.$$eval('.grid-row .col-project', (cells) => [...new Set(cells.map((c) => c.textContent))]);
    expect(projects.sort()).toEqual(['webapp', '—'].sort());

    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toContain('64 plans');
  });

  it('merges the instant title/file/project match with content hits, counts and highlights them', async () => {
    const { page } = await env.open();
    await page.waitForSelector('.grid-row');
    const search = page.getByRole('searchbox');

    await search.fill('login');
    // "login" is in the title of one plan and in the text of two (the rich plan links to it).
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toMatch(/2 matches \(1 in title\/file\/project, 2 in text\)/);
    expect((await renderedRows(page)).sort()).toEqual([env.fx.plans.rich, env.fx.plans.login].sort());
    const loginRow = page.locator(`.grid-row[data-filename="${env.fx.plans.login}"]`);
    expect(await loginRow.locator('.row-title mark').first().textContent()).toBe('login');
    expect(await loginRow.locator('.row-filename mark').first().textContent()).toBe('login');
    const richRow = page.locator(`.grid-row[data-filename="${env.fx.plans.rich}"]`);
    expect(await richRow.locator('.badge-content').textContent()).toBe('in text');
    await screenshot(page, 'plans-search');

    // Content-only word.
    await search.fill('zebracorn');
    await expect.poll(() => page.textContent('[data-testid="plan-counts"]')).toMatch(/1 match \(0 in title\/file\/project, 1 in text\)/);
    expect(await renderedRows(page)).toEqual([env.fx.plans.rich]);
    expect((await query(page)).get('q')).toBe('zebracorn');

    // Titles match case-insensitively.
    await search.fill('TASK 0');
    await expect.poll(async () => (await renderedRows(page)).length).toBe(9);
  });

  it('highlights matches in the open document, scrolls to the first and steps with n / N', async () => {
    const { page } = await env.open(`?q=zebracorn&plan=${env.fx.plans.rich}`);
    await page.waitForSelector('.markdown-body mark.search-hit');
    await expect.poll(() => page.textContent('.match-count')).toBe('Match 1 of 32');
    const inView = () =>
      page.evaluate(() => {
        const mark = document.querySelector('mark.search-hit.current')!;
        const box = mark.getBoundingClientRect();
        const pane = document.querySelector('.reader-scroll')!.getBoundingClientRect();
        return box.top >= pane.top && box.bottom <= pane.bottom;
      });
    await expect.poll(inView).toBe(true);

    await page.locator('.grid-body').focus();
    await page.keyboard.press('n');
    await page.keyboard.press('n');
    await expect.poll(() => page.textContent('.match-count')).toBe('Match 3 of 32');
    await expect.poll(inView).toBe(true);
    await expect
      .poll(() => page.evaluate(() => [...document.querySelectorAll('mark.search-hit')].findIndex((m) => m.classList.contains('current'))))
      .toBe(2);
    await page.keyboard.press('Shift+N');
    await expect.poll(() => page.textContent('.match-count')).toBe('Match 2 of 32');
    // Going back past the first wraps to the last.
    await page.keyboard.press('Shift+N');
    await page.keyboard.press('Shift+N');
    await expect.poll(() => page.textContent('.match-count')).toBe('Match 32 of 32');
    await expect.poll(inView).toBe(true);
    await screenshot(page, 'reader-search-matches');
  });
});

describe('plan reader', () => {
  it('renders GFM: tables, task lists, strikethrough, autolinks; highlights code', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`);
    const body = page.locator('.markdown-body');
    await body.locator('table').waitFor();
    expect(await body.locator('table tr').count()).toBe(3);
    expect(await body.locator('s').textContent()).toBe('one');
    expect(await body.locator('input[type="checkbox"]').count()).toBe(3);
    expect(await body.locator('input[type="checkbox"]:checked').count()).toBe(1);
    expect(await body.locator('input[type="checkbox"]:not([disabled])').count()).toBe(0);
    const autolink = body.locator('a[href="https://example.com/issues/42"]');
    expect(await autolink.getAttribute('target')).toBe('_blank');
    expect(await autolink.getAttribute('rel')).toContain('noopener');
    expect(await body.locator('code.language-ts .hljs-keyword').first().textContent()).toBe('export');
    expect(await body.locator('code.language-python .hljs-keyword').first().textContent()).toBe('def');
    await screenshot(page, 'reader');
  });

  it('has an outline that follows the scroll and jumps on click', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`);
    const outline = page.locator('nav.outline');
    await outline.waitFor();
    expect(await outline.locator('a').allTextContents()).toEqual([
      'Plan: Add a dark mode to the web app', 'Context', 'Steps', 'Code', 'Diagram', 'Rollout', 'Verification',
    ]);
    const active = () => outline.locator('a[aria-current="location"]').textContent();
    await expect.poll(active).toBe('Plan: Add a dark mode to the web app');
    await page.evaluate(() => document.getElementById('h-rollout')!.scrollIntoView({ block: 'start' }));
    await expect.poll(active).toBe('Rollout');
    await outline.locator('a', { hasText: 'Steps' }).click();
    await expect.poll(active).toBe('Steps');
    const stepsTop = await page.evaluate(() => {
      const h = document.getElementById('h-steps')!.getBoundingClientRect().top;
      return h - document.querySelector('.reader-scroll')!.getBoundingClientRect().top;
    });
    expect(Math.abs(stepsTop)).toBeLessThan(40);
  });

  it('loads mermaid only when a diagram is shown, and pans and zooms it', async () => {
    const w = await env.open(`?plan=${env.fx.plans.login}`);
    const { page } = w;
    await page.locator('.markdown-body h1').waitFor();
    expect(w.requests.filter((u) => /mermaid/i.test(u))).toEqual([]);

    await page.locator(`.grid-row[data-filename="${env.fx.plans.rich}"]`).click();
    await page.evaluate(() => document.getElementById('h-diagram')?.scrollIntoView());
    await page.waitForSelector('#h-diagram');
    await page.evaluate(() => document.getElementById('h-diagram')!.scrollIntoView());
    const diagram = page.locator('.mermaid-diagram');
    await page.waitForSelector('.mermaid-diagram[data-status="ready"]');
    expect(w.requests.some((u) => /mermaid/i.test(u))).toBe(true);
    expect(await diagram.locator('svg text').allTextContents()).toEqual(expect.arrayContaining(['System setting', 'Follow system']));
    // The source is hidden once the diagram is drawn.
    expect(await page.locator('.mermaid-block .mermaid-source').isVisible()).toBe(false);

    const status = () => diagram.locator('.diagram-status').textContent();
    const before = await status();
    await diagram.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(status).not.toBe(before);
    const transform = () => diagram.locator('.diagram-canvas').evaluate((el) => (el as HTMLElement).style.transform);
    const t0 = await transform();
    const box = (await diagram.locator('.diagram-viewport').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2 + 10, { steps: 5 });
    await page.mouse.up();
    await expect.poll(transform).not.toBe(t0);
    await screenshot(page, 'reader-mermaid');

    await diagram.getByRole('button', { name: 'Expand diagram' }).click();
    await expect.poll(() => diagram.getAttribute('class')).toContain('expanded');
    await screenshot(page, 'reader-mermaid-expanded');
    await page.keyboard.press('Escape');
    await expect.poll(() => diagram.getAttribute('class')).not.toContain('expanded');
    // Esc closed only the diagram, not the plan.
    expect((await query(page)).get('plan')).toBe(env.fx.plans.rich);
    await diagram.getByRole('button', { name: 'Expand diagram' }).click();
    await diagram.getByRole('button', { name: 'Close expanded diagram' }).click();
    await expect.poll(() => diagram.getAttribute('class')).not.toContain('expanded');
  });

  it('gives code blocks a copy button, keyboard access and 4-column tabs', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`);
    const block = page.getByRole('group', { name: 'Code block, ts' });
    await block.waitFor();
    expect(await block.getAttribute('tabindex')).toBe('0');
    expect(await block.evaluate((el) => getComputedStyle(el).tabSize)).toBe('4');
    // Tab from the block reaches its own copy button.
    await block.focus();
    await page.keyboard.press('Tab');
    const copy = page.locator('.code-block', { has: block }).getByRole('button', { name: 'Copy the code' });
    expect(await copy.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => clipboard(page)).toBe(
      "export function applyTheme(dark: boolean): void {\n  document.documentElement.dataset.theme = dark ? 'dark' : 'light';\n}\n",
    );
    await page.locator('.toast', { hasText: 'Copied the code' }).waitFor();
    // Searching for the button's words finds nothing in the document: it adds no text.
    await page.getByRole('searchbox').fill('Copy the code');
    await expect.poll(() => page.textContent('.match-count')).toBe('No matches in this document');
  });

  it('holds the place of a diagram with a placeholder, never the raw source, and opens it fitted to the column', async () => {
    const w = await env.open(`?plan=${env.fx.plans.login}`);
    const { page } = w;
    await page.locator('.markdown-body h1').waitFor();
    // The renderer's chunk waits until the placeholder has been looked at.
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(/mermaidRender-[\w-]+\.js$/, async (route) => {
      await gate;
      await route.continue();
    });
    await page.locator(`.grid-row[data-filename="${env.fx.plans.rich}"]`).click();
    await page.waitForSelector('#h-diagram');
    await page.evaluate(() => document.getElementById('h-diagram')!.scrollIntoView());
    const diagram = page.locator('.mermaid-diagram');
    await page.waitForSelector('.mermaid-diagram[data-status="loading"]');
    expect(await page.locator('.mermaid-block .mermaid-source').isVisible()).toBe(false);
    const placeholder = (await diagram.locator('.diagram-viewport').boundingBox())!;
    expect(placeholder.height).toBeGreaterThanOrEqual(120);
    expect(await diagram.locator('.diagram-placeholder').isVisible()).toBe(true);
    await screenshot(page, 'reader-mermaid-placeholder');
    release();

    await page.waitForSelector('.mermaid-diagram[data-status="ready"]');
    expect(await page.locator('.mermaid-block .mermaid-source').isVisible()).toBe(false);
    const fit = await diagram.evaluate((el) => {
      const viewport = el.querySelector('.diagram-viewport')!.getBoundingClientRect();
      const svg = el.querySelector('.diagram-canvas svg')!.getBoundingClientRect();
      const scale = Number(/scale\(([\d.]+)\)/.exec((el.querySelector('.diagram-canvas') as HTMLElement).style.transform)![1]);
      return { viewportWidth: viewport.width, viewportHeight: viewport.height, width: svg.width, height: svg.height, scale };
    });
    // Whole width in the column, unless that would be below the readable 60%.
    expect(fit.scale).toBeGreaterThanOrEqual(0.6);
    expect(fit.scale).toBeLessThanOrEqual(1);
    if (fit.scale > 0.6) expect(fit.width).toBeLessThanOrEqual(fit.viewportWidth);
    // The box is as tall as the drawn diagram (no empty band), within its margins, and 120 px at least.
    expect(Math.abs(fit.viewportHeight - Math.max(120, fit.height + 16))).toBeLessThanOrEqual(4);
    await screenshot(page, 'reader-mermaid-fitted');
  });

  it('copies markdown and path, opens in the editor, goes full screen', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`);
    await page.locator('.markdown-body h1').waitFor();
    const file = path.join(env.fx.plansDir, env.fx.plans.rich);

    await page.getByRole('button', { name: 'Copy markdown' }).click();
    await expect.poll(() => clipboard(page)).toBe(await readFile(file, 'utf8'));
    await page.getByRole('button', { name: 'Copy path' }).click();
    await expect.poll(() => clipboard(page)).toBe(file);

    const posted: { body: string | null; type: string | undefined }[] = [];
    await page.route('**/api/open', async (route) => {
      posted.push({ body: route.request().postData(), type: route.request().headers()['content-type'] });
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":true}' });
    });
    await page.getByRole('button', { name: 'Open in editor' }).click();
    await expect.poll(() => posted.length).toBe(1);
    expect(JSON.parse(posted[0]!.body!)).toEqual({ filepath: file });
    expect(posted[0]!.type).toContain('application/json');
    await expect.poll(() => page.textContent('.toasts')).toContain('Opened in your editor');

    await page.unroute('**/api/open');
    await page.route('**/api/open', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'Failed to open file' }));
    await page.getByRole('button', { name: 'Open in editor' }).click();
    await expect.poll(() => page.textContent('.toasts')).toContain('No application could open the file');

    await page.getByRole('button', { name: 'Full screen' }).click();
    await expect.poll(async () => (await query(page)).get('full')).toBe('1');
    expect(await page.locator('.pane-list').isVisible()).toBe(false);
    await screenshot(page, 'reader-fullscreen');
    await page.getByRole('button', { name: 'Exit full screen' }).click();
    expect(await page.locator('.pane-list').isVisible()).toBe(true);
  });

  it('navigates relative links to other plans in the app and back', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`);
    await page.locator('.markdown-body a', { hasText: 'the login plan' }).click();
    await expect.poll(() => page.textContent('.reader-title')).toBe('Fix the login bug');
    expect((await query(page)).get('plan')).toBe(env.fx.plans.login);
    await page.goBack();
    await expect.poll(() => page.textContent('.reader-title')).toBe('Add a dark mode to the web app');
    // A link to a source file is not a page of the viewer: it does not navigate.
    await page.locator('.markdown-body a', { hasText: 'a source file' }).click();
    await expect.poll(() => page.textContent('.toasts')).toContain('path on disk');
    expect((await query(page)).get('plan')).toBe(env.fx.plans.rich);
  });

  it('session chip copies the resume command with the project cwd; project badge opens its memory', async () => {
    const { page } = await env.open(`?plan=${env.fx.plans.rich}`);
    await page.locator('.session-chip').click();
    await expect.poll(() => clipboard(page)).toBe(`cd ${env.fx.cwd.webapp} && claude --resume ${env.fx.sessions.webapp}`);

    const memory = await apiMemory(env.server.url);
    const webapp = memory.sources.find((s) => s.project === 'webapp' && s.active)!;
    await page.locator('.project-chip').click();
    await expect.poll(async () => (await query(page)).get('view')).toBe('memory');
    expect((await query(page)).get('source')).toBe(webapp.id);
    await expect.poll(() => page.textContent('.source-title')).toBe('webapp');
  });
});

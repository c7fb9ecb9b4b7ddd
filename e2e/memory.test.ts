// Memory view in a real browser over the real server: sources, type chips, search, the entry reader
// with in-app links, MEMORY.md health with the exact cut point, orphans, dangling links, the graph.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from './helpers/browser.js';
import { encodeKey } from './helpers/fixture.js';
import { startServer } from './helpers/server.js';
import { apiMemory, query, useTestEnv } from './helpers/setup.js';

const env = useTestEnv();

async function sourceId(project: string, active = true): Promise<string> {
  const memory = await apiMemory(env.server.url);
  return memory.sources.find((s) => s.project === project && s.active === active)!.id;
}

function entryParam(source: string, file: string): string {
  return `entry=${encodeURIComponent(`${source}/${file}`)}`;
}

async function readerTitle(page: Page): Promise<string | null> {
  return page.textContent('.reader-title');
}

describe('memory sources and entries', () => {
  it('groups sources by project with their kind, and marks inactive ones', async () => {
    const { page } = await env.open('?view=memory');
    await page.waitForSelector('.source-group');
    expect(await page.locator('.group-title').allTextContents()).toEqual(['api', 'docs', 'legacy', 'mobile', 'webapp']);
    const legacy = page.locator('.source-group', { has: page.locator('.group-title', { hasText: 'legacy' }) });
    expect(await legacy.locator('.source').count()).toBe(2);
    const custom = legacy.locator('.source', { hasText: 'custom autoMemoryDirectory' });
    expect(await custom.locator('.badge-inactive').count()).toBe(0);
    const old = legacy.locator('.source.inactive');
    expect(await old.locator('.kind').textContent()).toBe('default');
    expect(await old.locator('.badge-inactive').textContent()).toBe('not read by Claude Code');
    // Health dots from the index stats: over (api, docs), near (mobile), ok (webapp).
    const dot = (project: string) =>
      page.locator('.source-group', { has: page.locator('.group-title', { hasText: project }) }).locator('.health-dot').first().getAttribute('class');
    expect(await dot('api')).toContain('level-over');
    expect(await dot('docs')).toContain('level-over');
    expect(await dot('mobile')).toContain('level-near');
    expect(await dot('webapp')).toContain('level-ok');
    await screenshot(page, 'memory-sources');
  });

  it('filters by type chips with counts', async () => {
    const { page } = await env.open('?view=memory');
    await page.waitForSelector('.type-chips');
    const chip = (name: string) => page.locator('.type-chips button', { hasText: name });
    expect(await chip('user').locator('.count').textContent()).toBe('2');
    expect(await chip('feedback').locator('.count').textContent()).toBe('1');
    expect(await chip('reference').locator('.count').textContent()).toBe('4');
    expect(await chip('project').locator('.count').textContent()).toBe('13');
    await chip('feedback').click();
    await expect.poll(async () => (await query(page)).getAll('type')).toEqual(['feedback']);
    await expect.poll(() => page.locator('.entry-button').allTextContents()).toEqual([expect.stringContaining('testing-style')]);
    await chip('user').click();
    await expect.poll(() => page.locator('.entry-name').allTextContents()).toEqual(expect.arrayContaining(['old', 'user-role']));
    expect(await page.locator('.entry-button').count()).toBe(3);
  });

  it('searches names and descriptions instantly and contents through the service', async () => {
    const { page } = await env.open('?view=memory');
    await page.waitForSelector('.source-group');
    const search = page.getByRole('searchbox', { name: /Search/ });
    await search.fill('backend');
    // user-role by its description at once; MEMORY.md once the service's content search answers (its index
    // line says "backend"), so only that final state is certain. Their order is find's ("Best match"), which
    // may answer before or after the content search: the set is what this checks.
    await expect.poll(async () => (await page.locator('.entry-name').allTextContents()).sort()).toEqual(['MEMORY.md', 'user-role']);
    await search.fill('grafana');
    // Only in the body of reference-links: a content hit from GET /api/memory/search.
    await expect.poll(() => page.locator('.entry-button').allTextContents()).toEqual([expect.stringContaining('reference-links')]);
    expect(await page.locator('.entry-button .badge-content').textContent()).toBe('in text');
    await page.locator('.entry-button').click();
    await expect.poll(() => page.locator('.markdown-body mark.search-hit').first().textContent()).toBe('Grafana');
    await screenshot(page, 'memory-search');
  });
});

describe('memory entry reader', () => {
  it('shows the description as lead, the body without frontmatter, linked-from and the writing session with its plan', async () => {
    const web = await sourceId('webapp');
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(web)}&${entryParam(web, 'user-role.md')}`);
    await page.waitForSelector('.markdown-body h1');
    expect(await page.textContent('.lead')).toBe('Senior backend engineer, new to React');
    const body = await page.textContent('.markdown-body');
    expect(body).not.toContain('originSessionId');
    expect(body).not.toContain('node_type');
    expect(await page.locator('.entry-footer li').allTextContents()).toEqual(['MEMORY.md', 'orphan-note', 'testing-style']);
    expect(await page.getAttribute('.session-chip', 'data-command')).toBe(`cd ${env.fx.cwd.webapp} && claude --resume ${env.fx.sessions.webapp}`);
    await screenshot(page, 'memory-entry');

    await page.locator('.plan-link').click();
    await expect.poll(async () => (await query(page)).get('plan')).toBe(env.fx.plans.rich);
    expect((await query(page)).get('view')).toBeNull();
    await expect.poll(() => readerTitle(page)).toBe('Add a dark mode to the web app');
  });

  it('follows wikilinks and markdown links inside the app and marks broken ones', async () => {
    const web = await sourceId('webapp');
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(web)}&${entryParam(web, 'user-role.md')}`);
    const broken = page.locator('.markdown-body .broken-link', { hasText: 'ghost-memory' });
    await broken.waitFor();
    expect(await broken.getAttribute('title')).toContain('Broken link');
    expect(await broken.getAttribute('href')).toBeNull();
    const color = await broken.evaluate((el) => getComputedStyle(el).textDecorationStyle);
    expect(color).toBe('wavy');

    await page.locator('.markdown-body a.wikilink', { hasText: 'testing-style' }).click();
    await expect.poll(() => readerTitle(page)).toBe('testing-style');
    expect((await query(page)).get('entry')).toBe(`${web}/testing-style.md`);
    await page.locator('.markdown-body a', { hasText: 'user role' }).click();
    await expect.poll(() => readerTitle(page)).toBe('user-role');
    await page.locator('.markdown-body a', { hasText: 'the index' }).click();
    await expect.poll(() => readerTitle(page)).toBe('MEMORY.md');
    await page.goBack();
    await expect.poll(() => readerTitle(page)).toBe('user-role');
  });
});

describe('MEMORY.md health', () => {
  it('over the line limit: meters, exact cut after line 200, later lines dimmed, unreachable topic flagged', async () => {
    const api = await sourceId('api');
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(api)}`);
    await page.waitForSelector('.index-health');
    const lines = page.locator('.meter', { hasText: 'Lines' });
    expect(await lines.locator('.meter-value').textContent()).toContain('230 / 200 lines');
    expect(await lines.getAttribute('class')).toContain('level-over');
    expect(await page.locator('.meter', { hasText: 'Characters' }).getAttribute('class')).toContain('level-ok');
    expect(await page.textContent('[data-testid="cut-summary"]')).toContain('loads the first 200 lines');

    const around = await page.evaluate(() => {
      // Inside a list the marker is an item of its own, between the items it separates.
      const cut = document.querySelector('.markdown-body .cut-marker')!;
      const marker = cut.closest('li.cut-marker-item') ?? cut;
      return {
        before: marker.previousElementSibling?.textContent ?? '',
        beforeDim: marker.previousElementSibling?.classList.contains('past-cut'),
        after: marker.nextElementSibling?.textContent ?? '',
        afterDim: marker.nextElementSibling?.classList.contains('past-cut'),
        dimmed: document.querySelectorAll('.markdown-body .past-cut').length,
        // Dimmed by colour, not opacity, so that it stays readable: another colour and a background.
        dimColour: getComputedStyle(marker.nextElementSibling!).color !== getComputedStyle(marker.previousElementSibling!).color,
        dimBackground: getComputedStyle(marker.nextElementSibling!).backgroundColor !== getComputedStyle(marker.previousElementSibling!).backgroundColor,
      };
    });
    expect(around.before).toContain('Note line 200:');
    expect(around.beforeDim).toBe(false);
    expect(around.after).toContain('Note line 201:');
    expect(around.afterDim).toBe(true);
    expect(around.dimmed).toBe(30);
    expect(around.dimColour).toBe(true);
    expect(around.dimBackground).toBe(true);

    const unreachable = page.locator('.problem.unreachable li');
    expect(await unreachable.allTextContents()).toEqual(['late-topic']);
    await screenshot(page, 'memory-health-over-lines');
    await page.getByRole('button', { name: 'Show the cut' }).click();
    await expect.poll(() => page.locator('.cut-marker').getAttribute('class')).toContain('flash');
    await screenshot(page, 'memory-cut-lines');
    await unreachable.locator('button').click();
    await expect.poll(() => readerTitle(page)).toBe('late-topic');
  });

  it('over 25,000 characters: cut at the last newline before the limit', async () => {
    const docs = await sourceId('docs');
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(docs)}`);
    await page.waitForSelector('.index-health');
    // 120 lines of 250 characters, trimmed (the final newline and the last line's trailing space): what
    // Claude Code counts, not the 30,000 bytes on disk.
    const size = page.locator('.meter', { hasText: 'Characters' });
    expect(await size.locator('.meter-value').textContent()).toContain('29,998 / 25,000 characters');
    expect(await page.textContent('[data-testid="disk-stats"]')).toContain('30,000 bytes');
    expect(await size.getAttribute('class')).toContain('level-over');
    expect(await page.locator('.meter', { hasText: 'Lines' }).getAttribute('class')).toContain('level-ok');
    const kept = env.fx.docsKeptLines;
    expect(await page.textContent('[data-testid="cut-summary"]')).toContain(`loads the first ${kept} lines`);
    const around = await page.evaluate(() => {
      // Inside a list the marker is an item of its own, between the items it separates.
      const cut = document.querySelector('.markdown-body .cut-marker')!;
      const marker = cut.closest('li.cut-marker-item') ?? cut;
      return { before: marker.previousElementSibling?.textContent ?? '', after: marker.nextElementSibling?.textContent ?? '' };
    });
    expect(around.before).toContain(`Note ${String(kept).padStart(3, '0')} `);
    expect(around.after).toContain(`Note ${String(kept + 1).padStart(3, '0')} `);
    expect(await page.locator('.problem.unreachable li').allTextContents()).toEqual(['late-doc']);
    await page.evaluate(() => document.querySelector('.cut-marker')!.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'memory-cut-chars');
  });

  it('near the limit from 80%', async () => {
    const mobile = await sourceId('mobile');
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(mobile)}`);
    await page.waitForSelector('.index-health');
    const lines = page.locator('.meter', { hasText: 'Lines' });
    expect(await lines.getAttribute('class')).toContain('level-near');
    expect(await lines.locator('.level-tag').textContent()).toBe('near the limit');
    expect(await page.locator('.markdown-body .cut-marker').count()).toBe(0);
  });

  it('lists orphans and dangling links, one click to each', async () => {
    const web = await sourceId('webapp');
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(web)}`);
    await page.waitForSelector('.index-health');
    expect(await page.locator('.problem.orphans li').allTextContents()).toEqual(['orphan-note']);
    expect(await page.locator('.problem.dangling li').allTextContents()).toEqual(['deleted-topic.md']);
    const brokenInIndex = page.locator('.markdown-body .broken-link', { hasText: 'Deleted topic' });
    expect(await brokenInIndex.count()).toBe(1);
    await page.locator('.problem.dangling button').click();
    await expect.poll(() => brokenInIndex.getAttribute('class')).toContain('flash');
    await screenshot(page, 'memory-health-ok');
    await page.locator('.problem.orphans button').click();
    await expect.poll(() => readerTitle(page)).toBe('orphan-note');
    expect(await page.textContent('.entry-reader .reader-meta')).toContain('not linked from MEMORY.md');
  });
});

describe('link graph', () => {
  it('draws entries and links around the index, marks orphans and dangling targets, opens nodes on click', async () => {
    const web = await sourceId('webapp');
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(web)}&tab=graph`);
    await page.waitForSelector('.link-graph svg .node');
    // MEMORY.md, four topics, and the index's one dangling link (a topic's broken wikilink is marked in
    // the reader, not listed: `links` holds only targets that exist).
    expect(await page.locator('.node').count()).toBe(6);
    expect(await page.locator('.node-index').count()).toBe(1);
    const index = await page.locator('.node-index').getAttribute('transform');
    expect(index).toBe('translate(0 0)');
    expect(await page.locator('.node.orphan').getAttribute('aria-label')).toContain('orphan-note');
    expect(await page.locator('.node-dangling').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-key')).sort())).toEqual([
      'dangling:deleted-topic.md',
    ]);
    expect(await page.locator('.edge.dangling').count()).toBe(1);
    await screenshot(page, 'memory-graph');

    await page.locator('.node', { hasText: 'testing-style' }).click();
    await expect.poll(() => readerTitle(page)).toBe('testing-style');
    expect((await query(page)).get('tab')).toBeNull();

    // Keyboard: nodes are focusable buttons.
    await page.getByRole('tab', { name: 'Link graph' }).click();
    await page.locator('.node', { hasText: 'reference-links' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => readerTitle(page)).toBe('reference-links');
  });
});

describe('frontmatter and links read as Claude Code reads them', () => {
  it('warns, in words, that an unquoted ` #` cuts a value, shows the full text, and opens a wikilink by heading', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'pmv-e2e-cut-'));
    const home = path.join(root, 'home');
    const cwd = path.join(root, 'work', 'epics');
    const project = path.join(home, 'projects', encodeKey(cwd));
    const mem = path.join(project, 'memory');
    await mkdir(mem, { recursive: true });
    await mkdir(path.join(home, 'plans'), { recursive: true });
    await writeFile(
      path.join(project, '1b0c4f7e-2d3a-4c5b-9e8f-0000000000bb.jsonl'),
      `${JSON.stringify({ type: 'user', cwd, sessionId: '1b0c4f7e-2d3a-4c5b-9e8f-0000000000bb', message: { role: 'user', content: 'x' } })}\n`,
    );
    await writeFile(path.join(mem, 'MEMORY.md'), '# Memory\n\n- [Epic](epic.md) — the epic\n- [[Deploy Notes]] — how we ship\n- [Gone](gone.md)\n');
    await writeFile(path.join(mem, 'epic.md'), '---\nname: epic-604\ndescription: Epic #604 — converge the parsers\ntype: project\n---\n# Epic\n\nBody.\n');
    await writeFile(path.join(mem, 'deploy-notes-2024.md'), '# Deploy Notes\n\nSteps.\n');
    const server = await startServer(home);
    try {
      const memory = await apiMemory(server.url);
      const source = memory.sources.find((s) => s.project === 'epics')!;
      // What the model sees stays the spec's `description`: the part before ` #`.
      expect(memory.entries.find((e) => e.filename === 'epic.md')).toMatchObject({ description: 'Epic' });
      const w = await openPage(env.browser, server.url);
      await w.page.goto(`${server.url}?view=memory&source=${encodeURIComponent(source.id)}&${entryParam(source.id, 'epic.md')}`);
      const warning = w.page.getByRole('note', { name: 'Frontmatter that Claude Code reads only in part' });
      await warning.waitFor();
      expect(await w.page.textContent('.lead')).toBe('Epic #604 — converge the parsers');
      const text = (await warning.textContent()) ?? '';
      expect(text).toContain('Claude Code reads this frontmatter value only up to the unquoted “ #”');
      expect(text).toContain('drops the rest the next time it rewrites the file');
      expect(await warning.locator('.comment-cut-written').textContent()).toBe('Epic #604 — converge the parsers');
      expect(await warning.locator('.comment-cut-read').textContent()).toBe('Epic');
      expect(await warning.locator('dt').textContent()).toBe('description');
      await screenshot(w.page, 'memory-comment-cut');

      // The index: the wikilink to a topic named by its heading opens it; only gone.md is dangling.
      await w.page.goto(`${server.url}?view=memory&source=${encodeURIComponent(source.id)}`);
      await w.page.waitForSelector('.index-health');
      expect(await w.page.locator('.problem.dangling li').allTextContents()).toEqual(['gone.md']);
      expect(await w.page.locator('.problem.orphans li').count()).toBe(0);
      await w.page.locator('.markdown-body a.wikilink', { hasText: 'Deploy Notes' }).click();
      await expect.poll(() => w.page.textContent('.reader-title')).toBe('Deploy Notes');
      // The reader's title comes before its footer's linked-from list: wait for the list itself.
      await expect.poll(() => w.page.locator('.entry-footer li').allTextContents()).toEqual(['MEMORY.md']);
      await w.context.close();
    } finally {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a large memory folder', () => {
  it('draws a 300-node graph and every node stays clickable', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'pmv-e2e-big-'));
    const home = path.join(root, 'home');
    const cwd = path.join(root, 'work', 'bigproj');
    const project = path.join(home, 'projects', encodeKey(cwd));
    const mem = path.join(project, 'memory');
    await mkdir(mem, { recursive: true });
    await mkdir(path.join(home, 'plans'), { recursive: true });
    await writeFile(
      path.join(project, '1b0c4f7e-2d3a-4c5b-9e8f-0000000000aa.jsonl'),
      `${JSON.stringify({ type: 'user', cwd, sessionId: '1b0c4f7e-2d3a-4c5b-9e8f-0000000000aa', message: { role: 'user', content: 'x' } })}\n`,
    );
    const index = ['# Big memory'];
    for (let i = 1; i < 300; i += 1) {
      const name = `topic-${String(i).padStart(3, '0')}`;
      const next = `topic-${String(((i * 7) % 299) + 1).padStart(3, '0')}`;
      await writeFile(path.join(mem, `${name}.md`), `---\nname: ${name}\ndescription: Topic ${i}\ntype: project\n---\nSee [[${next}]].\n`);
      if (i <= 120) index.push(`- [${name}](${name}.md) — hook`);
    }
    await writeFile(path.join(mem, 'MEMORY.md'), `${index.join('\n')}\n`);
    const server = await startServer(home);
    try {
      const memory = await apiMemory(server.url);
      const big = memory.sources.find((s) => s.project === 'bigproj')!;
      const w = await openPage(env.browser, server.url);
      await w.page.goto(`${server.url}?view=memory&source=${encodeURIComponent(big.id)}&tab=graph`);
      await w.page.waitForSelector('.link-graph .node');
      expect(await w.page.locator('.node').count()).toBe(300);
      // No two nodes drawn on the same spot.
      const spots = await w.page.locator('.node').evaluateAll((nodes) => new Set(nodes.map((n) => n.getAttribute('transform'))).size);
      expect(spots).toBe(300);
      await screenshot(w.page, 'memory-graph-300');
      // The default zoom keeps labels readable, so most of 300 nodes are off screen until Fit.
      await w.page.getByRole('button', { name: 'Fit graph' }).click();
      await w.page.locator('.node[data-key$="/topic-250.md"]').click();
      await expect.poll(() => w.page.textContent('.reader-title')).toBe('topic-250');
      await w.context.close();
    } finally {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});

// The link graph of a memory folder with 135 topics in a real browser: a legend whose swatches are the
// nodes' own colours, the topics linked only past the MEMORY.md cut marked, labels that keep their size
// at the default zoom and never overlap, and nodes spread over an area rather than one ring.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser.js';
import { encodeKey } from './helpers/fixture.js';
import { apiMemory, useTestEnv } from './helpers/setup.js';

const TYPES = ['user', 'feedback', 'project', 'reference', null] as const;
const name = (i: number) => `topic-${String(i).padStart(3, '0')}-${['deploy', 'testing', 'api', 'style'][i % 4]}-notes`;

const env = useTestEnv({
  async extend(fx) {
    const cwd = path.join(path.dirname(fx.home), 'work', 'crowded');
    const project = path.join(fx.home, 'projects', encodeKey(cwd));
    const mem = path.join(project, 'memory');
    await mkdir(mem, { recursive: true });
    const session = '1b0c4f7e-2d3a-4c5b-9e8f-0000000000cc';
    await writeFile(path.join(project, `${session}.jsonl`), `${JSON.stringify({ type: 'user', cwd, sessionId: session, message: { role: 'user', content: 'x' } })}\n`);
    for (let i = 1; i <= 135; i += 1) {
      const type = TYPES[i % TYPES.length];
      await writeFile(path.join(mem, `${name(i)}.md`), `---\nname: ${name(i)}\ndescription: Topic ${i}\n${type ? `type: ${type}\n` : ''}---\nBody ${i}.\n`);
    }
    // Topics 1–110 on lines 2–111; 100 lines of notes; topics 111–130 on lines 212–231, past the
    // 200-line cut; 131–135 not linked at all (orphans).
    const link = (i: number) => `- [${name(i)}](${name(i)}.md) — hook ${i}`;
    const lines = ['# Memory'];
    for (let i = 1; i <= 110; i += 1) lines.push(link(i));
    for (let i = 0; i < 100; i += 1) lines.push(`note ${i}`);
    for (let i = 111; i <= 130; i += 1) lines.push(link(i));
    await writeFile(path.join(mem, 'MEMORY.md'), `${lines.join('\n')}\n`);
  },
});

describe('link graph at 135 topics', () => {
  it('has a legend in the nodes\' colours, marks unreachable topics, spreads nodes and keeps labels readable and apart', async () => {
    const source = (await apiMemory(env.server.url)).sources.find((s) => s.project === 'crowded')!;
    const { page } = await env.open(`?view=memory&source=${encodeURIComponent(source.id)}&tab=graph`);
    await page.waitForSelector('.link-graph .node');
    expect(await page.locator('.link-graph .nodes .node').count()).toBe(136);

    // The legend names every type, and each swatch has the fill of a node of that type.
    const legend = page.getByRole('list', { name: 'Legend' });
    expect(await legend.locator('li').allTextContents()).toEqual(expect.arrayContaining(['user', 'feedback', 'project', 'reference', 'untyped']));
    const fill = (selector: string) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).fill);
    const fills = new Set<string>();
    for (const type of ['user', 'feedback', 'project', 'reference']) {
      const node = await fill(`.nodes .node.type-${type} circle.dot`);
      expect(await fill(`.graph-legend li:has-text("${type}") circle.dot`)).toBe(node);
      fills.add(node);
    }
    expect(fills.size).toBe(4);
    expect(await legend.locator('li', { hasText: 'unreachable' }).count()).toBe(1);

    // Topics 111–130 are linked only past the cut: the health check names them and the graph marks them.
    await expect.poll(() => page.locator('.nodes .node.unreachable').count()).toBe(20);
    const marked = await page.locator('.nodes .node.unreachable').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-key')!.split('/').pop()).sort());
    expect(marked).toEqual(Array.from({ length: 20 }, (_, i) => `${name(111 + i)}.md`));
    expect(await page.locator('.nodes .node.unreachable').first().getAttribute('aria-label')).toContain('unreachable: linked from MEMORY.md only past the cut');
    expect(await page.locator('.nodes .node.unreachable circle.unreachable-mark').count()).toBe(20);
    expect(await page.textContent('.graph-toolbar')).toContain('20 unreachable');

    // Default zoom: labels drawn at their font size, and no two label boxes overlap on screen.
    const boxes = await page.locator('.nodes .node .label').evaluateAll((texts) =>
      texts.map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
      }));
    expect(boxes).toHaveLength(136);
    expect(Math.min(...boxes.map((b) => b.y1 - b.y0))).toBeGreaterThanOrEqual(11);
    const overlaps: string[] = [];
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5) overlaps.push(`${a.text} / ${b.text}`);
      }
    }
    expect(overlaps).toEqual([]);
    // The index is on screen with labels around it.
    const viewport = await page.locator('.graph-viewport').boundingBox();
    const onScreen = boxes.filter((b) => b.x0 >= viewport!.x && b.x1 <= viewport!.x + viewport!.width && b.y0 >= viewport!.y && b.y1 <= viewport!.y + viewport!.height);
    expect(onScreen.map((b) => b.text)).toContain('MEMORY.md');
    expect(onScreen.length).toBeGreaterThan(20);

    // Not a ring: the distances of the topics from the index vary widely.
    const radii = await page.locator('.nodes .node-topic').evaluateAll((nodes) => nodes.map((n) => {
      const m = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(n.getAttribute('transform')!)!;
      return Math.hypot(Number(m[1]), Number(m[2]));
    }));
    const mean = radii.reduce((a, b) => a + b, 0) / radii.length;
    const sd = Math.sqrt(radii.reduce((a, r) => a + (r - mean) ** 2, 0) / radii.length);
    expect(sd / mean).toBeGreaterThan(0.3);
    await screenshot(page, 'memory-graph-135');

    // Fit shows every node inside the viewport.
    await page.getByRole('button', { name: 'Fit graph' }).click();
    await expect.poll(() => page.locator('.nodes .node circle.dot, .nodes .node path').evaluateAll((els, vp) => els.filter((e) => {
      const r = e.getBoundingClientRect();
      return r.left < vp.x || r.right > vp.x + vp.width || r.top < vp.y || r.bottom > vp.y + vp.height;
    }).length, viewport!)).toBe(0);
    await screenshot(page, 'memory-graph-135-fit');
  }, 60_000);
});

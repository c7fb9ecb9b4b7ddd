// The Costs view in a real browser: reached from the top bar, the charting library fetched only then (its
// own chunk), the figures per day, project and plan the same as GET /api/costs, the top plans linking to
// their Outcome tab; accessible in both themes, at 360 px.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPROVED, exitPlanMode, prompt, toolResult, write, type LineContext } from '../test/history/transcript.js';
import { expectAccessible } from './helpers/axe.js';
import { screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { query, useTestEnv } from './helpers/setup.js';

const PLAN = 'costly-plan-bold-yak.md';
const SESSION = '5e55104e-0000-4000-8000-0000000000e1';
const OTHER = '5e55104e-0000-4000-8000-0000000000e2';

function usage(ctx: LineContext, input: number, output: number): string {
  return JSON.stringify({
    parentUuid: null, isSidechain: false, type: 'assistant', timestamp: ctx.at, cwd: ctx.cwd, sessionId: ctx.sessionId, uuid: `u-${ctx.at}`,
    message: { model: 'claude-sonnet-4-5', id: `msg_${ctx.at}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: input, output_tokens: output } },
  });
}

function turn(ctx: LineContext, ms: number): string {
  return JSON.stringify({ parentUuid: null, isSidechain: false, type: 'system', subtype: 'turn_duration', durationMs: ms, timestamp: ctx.at, uuid: `t-${ctx.at}`, cwd: ctx.cwd, sessionId: ctx.sessionId });
}

async function addCosts(fx: Fixture): Promise<void> {
  const day = (n: number, minutes: number) => new Date(Date.UTC(2026, 9, 10 + n, 9, minutes)).toISOString();
  const web = (n: number, m: number): LineContext => ({ cwd: fx.cwd.webapp, sessionId: SESSION, slug: 'costly-plan-bold-yak', at: day(n, m) });
  const api = (n: number, m: number): LineContext => ({ cwd: fx.cwd.api, sessionId: OTHER, at: day(n, m) });
  const planPath = path.join(fx.plansDir, 'costly-plan-bold-yak.md');
  const exit = exitPlanMode(web(0, 2));
  // Sonnet 4.5 at $3 and $15 a million: 100,000 in + 20,000 out = $0.60; 50,000 in = $0.15.
  const webLines = [prompt(web(0, 0), 'Make it costly'), write(web(0, 1), planPath, '# Plan: Costly\n\n1. Spend\n'), exit.line, toolResult(web(0, 3), exit.id, APPROVED),
    usage(web(0, 4), 100_000, 20_000), turn(web(0, 5), 600_000)];
  const apiLines = [prompt(api(1, 0), 'Cheap one'), usage(api(1, 1), 50_000, 0), turn(api(1, 2), 120_000)];
  for (const [cwd, id, lines] of [[fx.cwd.webapp, SESSION, webLines], [fx.cwd.api, OTHER, apiLines]] as const) {
    const dir = path.join(fx.home, 'projects', encodeKey(cwd));
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${id}.jsonl`), lines.join('\n') + '\n');
  }
  await writeFile(planPath, '# Plan: Costly\n\n1. Spend\n');
}

const env = useTestEnv({ extend: addCosts });

interface Costs { rows: { key: string; costUsd: number; activeMs: number }[]; totalUsd: number; pricesAsOf: string }
async function costs(by: string): Promise<Costs> {
  return (await (await fetch(`${env.server.url}api/costs?by=${by}`)).json()) as Costs;
}

async function tableRows(page: import('playwright-core').Page, by: string): Promise<{ key: string; usd: number; ms: number }[]> {
  return page.locator(`.cost-table[data-by="${by}"] tbody tr`).evaluateAll((rows) => rows.map((r) => ({
    key: (r as HTMLElement).dataset.key ?? '',
    usd: Number(r.querySelector<HTMLElement>('.cost-usd')!.dataset.usd),
    ms: Number(r.querySelector<HTMLElement>('.cost-active')!.dataset.ms),
  })));
}

describe('the Costs view', () => {
  it('opens from the top bar, loads its charts on demand, and shows the figures of /api/costs', async () => {
    const { page, consoleErrors, pageErrors } = await env.open();
    await page.waitForSelector('.grid-row');
    const chartCode = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /uPlot/i.test(e.name)).length);
    expect(await chartCode()).toBe(0);
    await page.getByRole('tab', { name: 'Costs' }).click();
    await expect.poll(async () => (await query(page)).get('view')).toBe('costs');
    await page.locator('.cost-table[data-by="day"]').waitFor();
    await page.locator('.cost-chart .uplot canvas').first().waitFor();
    expect(await chartCode()).toBeGreaterThan(0);

    for (const by of ['day', 'project', 'plan']) {
      const body = await costs(by);
      const shown = await tableRows(page, by);
      expect(shown).toEqual(body.rows.slice(0, by === 'plan' ? 10 : undefined).map((r) => ({ key: r.key, usd: r.costUsd, ms: r.activeMs })));
    }
    // By hand: the two days of the fixture's sessions.
    const dayRow = (key: string) => page.locator(`.cost-table[data-by="day"] tr[data-key="${key}"]`);
    expect(await dayRow('2026-10-10').locator('.cost-usd').textContent()).toBe('$0.600');
    expect(await dayRow('2026-10-10').locator('.cost-active').textContent()).toBe('10 min');
    expect(await dayRow('2026-10-11').locator('.cost-usd').textContent()).toBe('$0.150');
    expect(await page.locator('.costs-note').textContent()).toContain((await costs('day')).pricesAsOf);
    expect(await page.locator(`.cost-table[data-by="plan"] tr[data-key="${PLAN}"] .cost-usd`).textContent()).toBe('$0.600');
    // The charts draw under the page's content security policy: nothing refused, nothing thrown.
    expect([...consoleErrors, ...pageErrors]).toEqual([]);
    await screenshot(page, 'costs-view');
    await expectAccessible(page, 'costs view');

    // A top plan opens on its Outcome tab.
    await page.locator(`.cost-table[data-by="plan"] tr[data-key="${PLAN}"] a`).click();
    await expect.poll(async () => (await query(page)).get('plan')).toBe(PLAN);
    expect((await query(page)).get('ptab')).toBe('outcome');
    await page.getByTestId('outcome').waitFor();
  }, 120_000);

  it('shows the days picked: from and to dates, and back to all time', async () => {
    const { page } = await env.open('?view=costs');
    await page.locator('.cost-table[data-by="day"]').waitFor();
    expect((await tableRows(page, 'day')).map((r) => r.key)).toEqual(['2026-10-10', '2026-10-11']);
    await page.getByLabel('From', { exact: true }).fill('2026-10-11');
    await expect.poll(async () => (await tableRows(page, 'day')).map((r) => r.key)).toEqual(['2026-10-11']);
    const body = (await (await fetch(`${env.server.url}api/costs?by=project&after=2026-10-11`)).json()) as Costs;
    expect(await tableRows(page, 'project')).toEqual(body.rows.map((r) => ({ key: r.key, usd: r.costUsd, ms: r.activeMs })));
    expect(await page.getByTestId('costs-total').textContent()).toContain('$0.150');
    await page.getByLabel('From', { exact: true }).fill('');
    await page.getByLabel('To', { exact: true }).fill('2026-10-10');
    await expect.poll(async () => (await tableRows(page, 'day')).map((r) => r.key)).toEqual(['2026-10-10']);
    await page.getByRole('button', { name: 'All time' }).click();
    await expect.poll(async () => (await tableRows(page, 'day')).map((r) => r.key)).toEqual(['2026-10-10', '2026-10-11']);
    expect(await page.getByRole('button', { name: 'All time' }).getAttribute('aria-pressed')).toBe('true');
    // Days with no answer say so.
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.getByText('No model answers in these days.').waitFor();
  }, 120_000);

  it('passes axe in the dark theme at 360 px without a sideways page scroll', async () => {
    const { page, context } = await env.open('?view=costs', { colorScheme: 'dark', viewport: { width: 360, height: 800 } });
    await page.locator('.cost-chart .uplot canvas').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'costs view, dark, 360');
    await screenshot(page, 'costs-view-360-dark');
    await context.close();
  }, 120_000);

  it('searches the plans when you type in the top bar\'s box', async () => {
    const { page } = await env.open('?view=costs');
    await page.locator('.cost-table[data-by="day"]').waitFor();
    const box = page.getByRole('searchbox', { name: 'Search plans: title, file, project, text' });
    await box.fill('Costly');
    await expect.poll(async () => (await query(page)).get('view')).toBeNull();
    expect((await query(page)).get('q')).toBe('Costly');
    await expect.poll(() => page.locator(`.grid-row[data-filename="${PLAN}"]`).count()).toBe(1);
  }, 60_000);
});

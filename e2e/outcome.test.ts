// The Outcome tab of a plan in a real browser: the work after its approval at a glance, the steps against
// the work (said to be a heuristic), the files and commands, time and cost; accessible in both themes.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPROVED, exitPlanMode, prompt, toolResult, toolUse, write, type LineContext } from '../test/history/transcript.js';
import { expectAccessible } from './helpers/axe.js';
import { screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { query, useTestEnv } from './helpers/setup.js';

const PLAN = 'outcome-demo-quick-lynx.md';
const SESSION = '5e55104e-0000-4000-8000-0000000000c0';
const TEXT = '# Plan: Cache the avatars\n\n1. Add the cache in src/avatars.ts\n2. Run `npm test`\n3. Document it in docs/cache.md\n';

async function addWork(fx: Fixture): Promise<void> {
  const cwd = fx.cwd.webapp;
  const base = Date.now() - 2 * 86_400_000;
  const ctx = (minutes: number): LineContext => ({ cwd, sessionId: SESSION, slug: 'outcome-demo-quick-lynx', at: new Date(base + minutes * 60_000).toISOString() });
  const planPath = path.join(fx.plansDir, PLAN);
  const exit = exitPlanMode(ctx(2));
  const edit = toolUse(ctx(4), 'Edit', { file_path: path.join(cwd, 'src/avatars.ts'), old_string: 'a\n', new_string: 'a\nb\nc\n' });
  const test = toolUse(ctx(5), 'Bash', { command: 'npm test' });
  const usage = JSON.stringify({
    parentUuid: null, isSidechain: false, type: 'assistant', timestamp: ctx(5).at, cwd, sessionId: SESSION, uuid: 'u-usage',
    message: { model: 'claude-sonnet-4-5', id: 'msg_usage', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 100_000, output_tokens: 20_000 } },
  });
  const lines = [
    prompt(ctx(0), 'Cache the avatars'), write(ctx(1), planPath, TEXT), exit.line, toolResult(ctx(3), exit.id, APPROVED),
    edit.line, toolResult(ctx(4), edit.id, 'The file has been updated.'), test.line, toolResult(ctx(6), test.id, 'Tests 3 passed'), usage,
  ];
  const log = path.join(fx.home, 'projects', encodeKey(cwd), `${SESSION}.jsonl`);
  await mkdir(path.dirname(log), { recursive: true });
  await writeFile(log, lines.join('\n') + '\n');
  await writeFile(planPath, TEXT);
}

const env = useTestEnv({ extend: addWork });

describe('the Outcome tab', () => {
  it('shows the work after the approval, the steps against it, time and cost', async () => {
    const { page } = await env.open(`?plan=${PLAN}`);
    await page.getByRole('tab', { name: 'Outcome' }).click();
    await expect.poll(async () => (await query(page)).get('ptab')).toBe('outcome');
    const panel = page.getByTestId('outcome');
    await panel.waitFor();
    // 2 min from the approval's answer (10:03) to the last work (10:05); $0.30 + $0.30 of Sonnet 4.5:
    // 100,000 × 3 / 1e6 and 20,000 × 15 / 1e6.
    await expect.poll(() => page.locator('.outcome-glance').textContent()).toBe(
      '2 of 3 steps done, 0 partly, 1 without evidence · 1 file (+2 −0) · 0 commits · tests passing · 0 s active of 2 min · $0.600',
    );
    expect(await page.locator('.outcome-steps tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelector('.step-chip')!.textContent))).toEqual(['done', 'done', 'no evidence']);
    expect(await panel.textContent()).toContain('a heuristic');
    expect(await page.locator('.outcome-files li').first().textContent()).toContain('src/avatars.ts +2 −0');
    await screenshot(page, 'outcome-tab');
    await expectAccessible(page, 'outcome tab');
  });

  it('passes axe in the dark theme at 360 px without a sideways page scroll', async () => {
    const { page, context } = await env.open(`?plan=${PLAN}&ptab=outcome`, { colorScheme: 'dark', viewport: { width: 360, height: 800 } });
    await page.getByTestId('outcome').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'outcome tab, dark, 360');
    await screenshot(page, 'outcome-tab-360-dark');
    await context.close();
  });
});

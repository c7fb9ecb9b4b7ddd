// The Archive's retention panel and a session whose transcript is gone, in a real browser over a real
// server: the panel's summary tells what the API counts, its lists open, the page never scrolls sideways
// at 360, 800 or 1400 px, and axe finds nothing; a gone session shows its prompts from history.jsonl.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './helpers/axe.js';
import { screenshot } from './helpers/browser.js';
import { encodeKey, type Fixture } from './helpers/fixture.js';
import { useTestEnv } from './helpers/setup.js';

const DAY = 86_400_000;
const DUE_PLAN = 'retire-the-quokka-cache.md';
const DUE_SESSION = '5e55104e-0000-4000-8000-0000000000e1';
const GONE_SESSION = '5e55104e-0000-4000-8000-0000000000e2';

async function addFiles(fx: Fixture): Promise<void> {
  const ago = (days: number): Date => new Date(Date.now() - days * DAY);
  await writeFile(path.join(fx.home, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 10 }));
  const plan = path.join(fx.plansDir, DUE_PLAN);
  await writeFile(plan, '# Plan: Retire the quokka cache\n');
  await utimes(plan, ago(8), ago(8));
  const dir = path.join(fx.home, 'projects', encodeKey(fx.cwd.webapp));
  await mkdir(dir, { recursive: true });
  const log = path.join(dir, `${DUE_SESSION}.jsonl`);
  await writeFile(log, JSON.stringify({
    type: 'user', message: { role: 'user', content: 'Count the quokkas' }, timestamp: ago(9).toISOString(), cwd: fx.cwd.webapp, sessionId: DUE_SESSION, uuid: 'u-q1', parentUuid: null,
  }) + '\n');
  await utimes(log, ago(9), ago(9));
  const line = (display: string, minutes: number, sessionId?: string): string =>
    JSON.stringify({ display, pastedContents: {}, timestamp: Date.now() - 40 * DAY + minutes * 60_000, project: fx.cwd.webapp, ...(sessionId ? { sessionId } : {}) });
  await writeFile(path.join(fx.home, 'history.jsonl'), [
    line('an old prompt of no session', 0),
    line('Migrate the wallaby store to SQLite', 1, GONE_SESSION),
    line('now run the wallaby tests', 2, GONE_SESSION),
    line('Count the quokkas', 3, DUE_SESSION),
  ].join('\n') + '\n');
}

const env = useTestEnv({ extend: addFiles });

interface Retention { counts: { plans: number; plansKept: number; transcripts: number } }

describe('retention and gone sessions in the UI', () => {
  it('summarises what Claude Code deletes within a week in the Archive, at every width', async () => {
    const r = await (await fetch(`${env.server.url}api/retention`)).json() as Retention;
    expect(r.counts.plans).toBeGreaterThanOrEqual(1);
    expect(r.counts.transcripts).toBeGreaterThanOrEqual(1);
    for (const width of [1400, 800, 360]) {
      const { page, context } = await env.open('?view=archive', { viewport: { width, height: 800 }, colorScheme: width === 360 ? 'dark' : 'light' });
      const panel = page.getByTestId('retention-panel');
      await panel.waitFor();
      // The viewer observes plans in the background: the kept count may still grow, the others not.
      await expect.poll(() => panel.locator('summary').innerText()).toMatch(
        new RegExp(`will delete ${r.counts.plans} plans? and ${r.counts.transcripts} transcripts? within a week; the viewer keeps \\d+ of the plans' versions`),
      );
      await panel.locator('summary').click();
      await panel.getByText(DUE_PLAN).waitFor();
      await panel.getByRole('button', { name: new RegExp(DUE_SESSION) }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page, `archive with retention panel, ${width} px`);
      if (width === 360) await screenshot(page, 'retention-panel-360-dark');
      await context.close();
    }
  }, 180_000);

  it('shows a gone session\'s prompts from history.jsonl with a note instead of a transcript', async () => {
    const { page, context } = await env.open(`?view=session&session=${GONE_SESSION}`, { viewport: { width: 360, height: 800 } });
    await page.getByTestId('gone-note').waitFor();
    expect(await page.getByTestId('gone-note').innerText()).toMatch(/^Transcript deleted; from ~\/\.claude\/history\.jsonl/);
    await page.getByText('now run the wallaby tests').waitFor();
    expect(await page.locator('.session-view-title').innerText()).toBe('Migrate the wallaby store to SQLite');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'gone session, 360 px');
    await context.close();
  }, 120_000);
});

// The first answers of a start (issue 38, item 4): the built service listens before its first pass over the
// transcripts is done, and after a restart it parses the saved facts in the background. A plan's history,
// a session's card and the archive asked for at once must be the whole story (they wait for the
// transcripts' facts), never the disk's version alone or a 404 for a session the plan list already names.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanVersion, SessionCard } from '../../src/domain/types.js';
import { bannerUrl, runCli, type CliRun } from '../helpers/cli.js';
import { conversationLine, TempHome, uuid } from '../helpers/home.js';
import { request } from '../helpers/http.js';
import { exitPlanMode, toolResult, write, APPROVED, type LineContext } from '../history/transcript.js';

const SESSION = uuid(0x38);
const OTHER = uuid(0x39);
/** Enough lines that the first pass is still running when the first requests arrive. */
const PADDING_LINES = 60_000;

let home: TempHome;
let cache: string;

beforeAll(async () => {
  home = await TempHome.create('pmv-first-answers-');
  cache = path.join(home.root, 'xdg-cache');
  const repo = await home.repo('app');
  const planPath = path.join(home.claude, 'plans', 'first-plan.md');
  const ctx = (minute: number): LineContext => ({ cwd: repo, sessionId: SESSION, slug: 'first-plan', at: new Date(Date.UTC(2026, 10, 19, 9, minute)).toISOString() });
  const exit = exitPlanMode(ctx(2));
  await home.plan('first-plan.md', '# First plan\n\nSecond version, by hand.\n');
  // The other session comes first in the walk's order and is long: the plan's session is read after it.
  const padding = Array.from({ length: PADDING_LINES }, (_, i) => conversationLine(repo, OTHER, null, `line ${i} ${'x'.repeat(200)}`));
  await home.session(repo, OTHER, [], padding);
  await home.session(repo, SESSION, ['first-plan'], [
    write(ctx(1), planPath, '# First plan\n\nWritten by Claude.\n'),
    exit.line,
    toolResult(ctx(3), exit.id, APPROVED),
  ]);
}, 120_000);

afterAll(async () => {
  await home?.cleanup();
});

async function start(): Promise<{ run: CliRun; port: number }> {
  const run = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, XDG_CACHE_HOME: cache } });
  const url = await bannerUrl(run, 60_000, 'listening');
  return { run, port: Number(new URL(url).port) };
}

async function stop(run: CliRun): Promise<void> {
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
}

/** Asked for together, as soon as the server listens. */
async function firstAnswers(port: number): Promise<void> {
  const get = (p: string) => request(port, { path: p });
  const [history, card, plans] = await Promise.all([get('/api/plans/first-plan.md/history'), get(`/api/sessions/${SESSION}`), get('/api/plans')]);
  expect(plans.status).toBe(200);
  expect(history.status, history.body).toBe(200);
  const { versions, events } = JSON.parse(history.body) as { versions: PlanVersion[]; events: { kind: string }[] };
  expect(versions.map((v) => v.source)).toEqual(['write', 'disk']);
  expect(events.map((e) => e.kind)).toContain('plan-approved');
  expect(card.status, card.body).toBe(200);
  expect((JSON.parse(card.body) as SessionCard).plans).toEqual(['first-plan.md']);
}

describe('the first answers of a start', () => {
  it('hold the whole story on a cold start and on a warm restart', async () => {
    const cold = await start();
    try {
      await firstAnswers(cold.port);
    } finally {
      await stop(cold.run);
    }
    const warm = await start();
    try {
      await firstAnswers(warm.port);
    } finally {
      await stop(warm.run);
    }
  }, 180_000);
});

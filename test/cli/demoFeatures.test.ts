// The demo shows every feature to a newcomer: a plan written then edited twice with a rejection (with the
// user's words) and an approval between, an archived plan, and memory with each kind of finding health
// reports. Run through the built CLI with --demo, asked over HTTP as the UI asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_KINDS } from '../../src/contract/memoryCare.js';
import { bannerUrl, runCli, type CliRun } from '../helpers/cli.js';

let run: CliRun;
let url: string;

beforeAll(async () => {
  run = runCli(['--port', '0', '--demo']);
  url = await bannerUrl(run);
}, 60_000);

afterAll(async () => {
  run.child.kill('SIGTERM');
  await run.exited;
});

const get = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`)).json()) as T;

describe('the demo home', () => {
  it('has a plan with three versions, a rejection with feedback, then an approval', async () => {
    const story = await get<{ versions: { source: string }[]; events: { kind: string; feedback?: string | null }[] }>(
      'api/plans/add-dark-mode-toggle-snug-otter.md/history',
    );
    expect(story.versions.map((v) => v.source)).toEqual(['write', 'edit', 'edit']);
    const kinds = story.events.map((e) => e.kind);
    expect(kinds.indexOf('plan-rejected')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('plan-rejected')).toBeLessThan(kinds.indexOf('plan-approved'));
    expect(JSON.stringify(story.events)).toContain('Put it inside the account menu on narrow screens.');
  });

  it('has an archived plan', async () => {
    const { plans } = await get<{ plans: { filename: string }[] }>('api/archive');
    expect(plans.map((p) => p.filename)).toContain('retire-the-legacy-cron-host-dusty-finch.md');
  });

  it('has memory with every kind of finding but the pinned limit', async () => {
    const health = await get<{ sources: { problems: { kind: string }[] }[] }>('api/memory/health');
    const found = new Set(health.sources.flatMap((s) => s.problems.map((p) => p.kind)));
    expect([...found].sort()).toEqual(PROBLEM_KINDS.filter((k) => k !== 'pinned-over-limit').sort());
  });
});

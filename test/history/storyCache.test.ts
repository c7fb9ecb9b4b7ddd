// The plan stories kept between requests: at most a few, and at most so many characters of versions together
// (a story of multi-MB versions would otherwise keep hundreds of MB alive); the newest is always kept, and a
// story let go is built again, the same.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanHistory } from '../../src/domain/history/planHistory.js';
import { Viewer } from '../../src/viewer.js';
import { TempHome, uuid } from '../helpers/home.js';
import { prompt, write } from './transcript.js';

let home: TempHome;
let viewer: Viewer;
const NAMES = ['first-plan.md', 'second-plan.md', 'third-plan.md'];
const text = (i: number): string => `# Plan ${i}\n\n${'x'.repeat(990)}\n`;

beforeAll(async () => {
  home = await TempHome.create('pmv-story-cache-');
  const sessionId = uuid(7);
  const ctx = { cwd: '/work/app', sessionId, slug: 'first-plan', at: '2026-10-01T10:00:00.000Z' };
  const lines = [prompt(ctx, 'Plan them')];
  for (const [i, name] of NAMES.entries()) {
    const plan = path.join(home.claude, 'plans', name);
    lines.push(write({ ...ctx, at: `2026-10-01T10:0${i + 1}:00.000Z` }, plan, text(i)));
    await home.write(path.join('plans', name), text(i));
  }
  await home.write(path.join('projects', '-work-app', `${sessionId}.jsonl`), lines.join('\n') + '\n');
  viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false });
  await viewer.transcriptsReady;
});

afterAll(async () => {
  await viewer?.close();
  await home?.cleanup();
});

const stories = (keptChars?: number): PlanHistory => new PlanHistory({
  claudeDir: home.claude, plans: viewer.plans, sessions: viewer.sessions, history: viewer.history.index, observed: viewer.history.observed, keptChars,
});

describe('the plan stories kept', () => {
  it('hold every story asked for while they fit', async () => {
    const kept = stories();
    for (const name of NAMES) expect((await kept.story(name))?.versions.length).toBe(1);
    expect(kept.keptStories()).toEqual({ count: 3, chars: 3 * text(0).length });
  });

  it('let the oldest go past their characters, keep the newest, and build a story let go again the same', async () => {
    const kept = stories(2 * text(0).length + 10);
    const first = await kept.story(NAMES[0]!);
    await kept.story(NAMES[1]!);
    await kept.story(NAMES[2]!);
    expect(kept.keptStories()).toEqual({ count: 2, chars: 2 * text(0).length });
    const again = await kept.story(NAMES[0]!);
    expect(again).not.toBe(first);
    expect(again?.versions).toEqual(first?.versions);
    // Smaller than any one story: the newest still stays.
    const tight = stories(10);
    await tight.story(NAMES[0]!);
    await tight.story(NAMES[1]!);
    expect(tight.keptStories()).toEqual({ count: 1, chars: text(1).length });
  });
});

// The plan reader's change notices name the plans that changed, and the ranked search takes in only
// those: a plan written is found by its new text without the whole listing being compared again; a plan
// deleted is gone from the results; a notice naming none (the sessions' links moved) compares every plan.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Viewer } from '../../src/viewer.js';
import { TempHome } from '../helpers/home.js';
import { buildFindHome, day } from './home.js';

let home: TempHome;
let viewer: Viewer;

beforeEach(async () => {
  home = await TempHome.create();
  await buildFindHome(home);
  viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false, cacheDir: null });
  await viewer.finder.built;
});

afterEach(async () => {
  await viewer.close();
  await rm(home.root, { recursive: true, force: true });
});

const ids = async (q: string): Promise<string[]> => {
  await viewer.finder.idle();
  return (await viewer.finder.find(q, { limit: 50 })).results.map((r) => r.id);
};

describe('plan change notices', () => {
  it('re-index only the plans they name', async () => {
    const listed = vi.spyOn(viewer.plans, 'list');
    const written = await home.plan('title-plan.md', '# Okapi migration\n\nMove the data.\n', day('2026-08-01'));
    await viewer.plans.updatePath(written);
    expect(await ids('okapi')).toEqual(['title-plan.md']);
    const added = await home.plan('walrus-plan.md', '# Walrus\n\nA new plan.\n', day('2026-08-02'));
    await viewer.plans.updatePath(added);
    expect(await ids('walrus')).toEqual(['walrus-plan.md']);
    expect(listed).not.toHaveBeenCalled();
    // A plan gone from disk may be an archived one now: the archive's own pass lists the plans.
    const gone = path.join(home.claude, 'plans', 'walrus-plan.md');
    await rm(gone);
    await viewer.plans.updatePath(gone);
    expect(await ids('walrus')).toEqual([]);
  });

  it('compare every plan when they name none', async () => {
    const listed = vi.spyOn(viewer.plans, 'list');
    viewer.plans.linksChanged();
    await viewer.finder.idle();
    expect(listed).toHaveBeenCalled();
    expect(await ids('zebra')).toContain('title-plan.md');
  });
});

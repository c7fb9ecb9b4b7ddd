// A restart takes plan titles and counts from the persisted cache for files that did not move, reads
// every file that did, and never lists a plan that is gone: the cache saves work, never truth.
import { DERIVATION_VERSION } from '../../src/domain/derivation.js';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Viewer } from '../../src/viewer.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
let cache: string;
let warnings: string[];
const open = (): Promise<Viewer> =>
  Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir: cache });

async function cacheFile(): Promise<string> {
  const name = (await readdir(cache)).find((f) => f.startsWith('plans-') && f.endsWith('.json'));
  if (!name) throw new Error('no plan cache was written');
  return path.join(cache, name);
}

/** Rewrites one plan's title inside the cache file, as only the cache (never the file) could say it. */
async function editCachedTitle(filename: string, title: string): Promise<void> {
  const file = await cacheFile();
  const doc = JSON.parse(await readFile(file, 'utf8')) as { plans: { filename: string; title: string }[] };
  const entry = doc.plans.find((p) => p.filename === filename);
  if (!entry) throw new Error(`${filename} is not in the cache`);
  entry.title = title;
  await writeFile(file, JSON.stringify(doc));
}

beforeEach(async () => {
  home = await TempHome.create();
  cache = path.join(home.root, 'cache');
  warnings = [];
  await home.plan('kept-plan.md', '# Kept\n\nthe quick brown fox\n', new Date('2026-01-01T00:00:00Z'));
  await home.plan('edited-plan.md', '# Before\n', new Date('2026-01-02T00:00:00Z'));
  await home.plan('deleted-plan.md', '# Deleted\n', new Date('2026-01-03T00:00:00Z'));
});

afterEach(async () => {
  await home.cleanup();
});

describe('persisted plan facts', () => {
  it('are reused only for unmoved files; edited files are read, deleted ones dropped', async () => {
    await (await open()).close();
    await editCachedTitle('kept-plan.md', 'Title only the cache knows');
    await editCachedTitle('edited-plan.md', 'Stale cached title');
    await home.plan('edited-plan.md', '# After the edit\n\nmore words here\n', new Date('2026-01-04T00:00:00Z'));
    await rm(path.join(home.claude, 'plans', 'deleted-plan.md'));

    const viewer = await open();
    const byName = new Map(viewer.plans.list().map((p) => [p.filename, p]));
    expect([...byName.keys()]).toEqual(['edited-plan.md', 'kept-plan.md']);
    // Not read again: the listing shows what the cache said.
    expect(byName.get('kept-plan.md')?.title).toBe('Title only the cache knows');
    expect(byName.get('edited-plan.md')).toMatchObject({ title: 'After the edit', wordCount: 7, lineCount: 3 });
    // Search reads the restored plan's text when it needs it.
    expect(await viewer.plans.search('BROWN FOX')).toEqual(['kept-plan.md']);
    await viewer.close();
    expect(warnings).toEqual([]);
  });

  it('are ignored with one warning when the cache is corrupt or foreign', async () => {
    await (await open()).close();
    for (const content of ['{not json', JSON.stringify({ derivation: DERIVATION_VERSION, format: 'something-else', version: 1, plans: [] })]) {
      await writeFile(await cacheFile(), content);
      warnings = [];
      const viewer = await open();
      expect(viewer.plans.list().map((p) => p.title).sort()).toEqual(['Before', 'Deleted', 'Kept']);
      await viewer.close();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/ignoring the plan cache/);
    }
  });

  it('drop malformed entries and keep the valid ones', async () => {
    await (await open()).close();
    const file = await cacheFile();
    const doc = JSON.parse(await readFile(file, 'utf8')) as { plans: Record<string, unknown>[] };
    doc.plans = doc.plans.map((p) => (p.filename === 'kept-plan.md' ? { ...p, title: 'Cached', size: 'big' } : { ...p, title: 'Cached' }));
    await writeFile(file, JSON.stringify(doc));
    const viewer = await open();
    const titles = Object.fromEntries(viewer.plans.list().map((p) => [p.filename, p.title]));
    expect(titles).toEqual({ 'kept-plan.md': 'Kept', 'edited-plan.md': 'Cached', 'deleted-plan.md': 'Cached' });
    await viewer.close();
  });
});

// A restart trusts its caches only when they were derived by the same rules (src/domain/derivation.ts):
// a cache another build wrote is set aside even for files that did not change, so a new title rule (or any
// rule) shows at once instead of when the file is next touched. The caches are edited here the way an
// older build would have written them: other facts for the same, unchanged files.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DERIVATION_VERSION } from '../../src/domain/derivation.js';
import type { PlanMetadata } from '../../src/domain/types.js';
import { Viewer } from '../../src/viewer.js';
import { TempHome, uuid } from '../helpers/home.js';

let home: TempHome;
let cache: string;
let repo: string;

const open = (): Promise<Viewer> =>
  Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false, cacheDir: cache });

async function listed(): Promise<PlanMetadata> {
  const viewer = await open();
  const plan = viewer.plans.list().find((p) => p.filename === 'the-plan.md')!;
  await viewer.close();
  return plan;
}

async function cacheFile(kind: string): Promise<string> {
  const name = (await readdir(cache)).find((f) => f.startsWith(`${kind}-`) && f.endsWith('.json') && !f.endsWith('.list.json'));
  if (!name) throw new Error(`no ${kind} cache was written`);
  return path.join(cache, name);
}

/**
 * Rewrites a cache file's text (its facts), and the rules' version it claims: one JSON document, or lines
 * whose first names the version (the session index, indexCache.ts).
 */
async function editCache(kind: string, edit: (text: string) => string, derivation: number): Promise<void> {
  const file = await cacheFile(kind);
  const text = edit(await readFile(file, 'utf8'));
  if (text.startsWith('{"derivation":') && text.includes('\n')) {
    await writeFile(file, `${JSON.stringify({ derivation })}${text.slice(text.indexOf('\n'))}`);
    return;
  }
  const doc = JSON.parse(text) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...doc, derivation }));
}

beforeEach(async () => {
  home = await TempHome.create('pmv-derivation-');
  cache = path.join(home.root, 'cache');
  repo = await home.repo('webapp');
  await home.plan('the-plan.md', '# Plan: The title\n\nBody.\n');
  await home.session(repo, uuid(1), ['the-plan']);
  // The first run derives everything and saves its caches on close.
  expect(await listed()).toMatchObject({ title: 'The title', project: 'webapp' });
});

afterEach(async () => {
  await home?.cleanup();
});

describe('persisted plan facts', () => {
  it('are served as saved when the same rules derived them', async () => {
    await editCache('plans', (text) => text.replace('"The title"', '"A title from the cache"'), DERIVATION_VERSION);
    expect((await listed()).title).toBe('A title from the cache');
  });

  it('are derived again when other rules derived them, though the file did not change', async () => {
    await editCache('plans', (text) => text.replace('"The title"', '"A title an older rule gave"'), DERIVATION_VERSION + 1);
    expect((await listed()).title).toBe('The title');
  });
});

describe('the persisted session index', () => {
  it('is used as saved when the same rules derived it', async () => {
    await editCache('plans', (text) => text, DERIVATION_VERSION + 1);
    await editCache('session-index', (text) => text.replaceAll(repo, `${path.dirname(repo)}/from-cache`), DERIVATION_VERSION);
    expect((await listed()).project).toBe('from-cache');
  });

  it('is rebuilt when other rules derived it, though no log changed', async () => {
    await editCache('plans', (text) => text, DERIVATION_VERSION + 1);
    await editCache('session-index', (text) => text.replaceAll(repo, `${path.dirname(repo)}/older-rule`), DERIVATION_VERSION + 1);
    expect((await listed()).project).toBe('webapp');
  });
});

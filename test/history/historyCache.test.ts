// The history index between runs (persisted.ts): saved as lines of its own cache file, restored a line at a
// time by the next run for logs that did not change, and set aside when other rules wrote it or it is torn.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DERIVATION_VERSION } from '../../src/domain/derivation.js';
import { Viewer } from '../../src/viewer.js';
import { TempHome, uuid } from '../helpers/home.js';
import { meta, prompt, write } from './transcript.js';

let home: TempHome;
let cache: string;
const warnings: string[] = [];

async function open(): Promise<Viewer> {
  const viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir: cache });
  await viewer.history.start();
  return viewer;
}

/** The session's title as the history index tells it, from a fresh run; the run is closed (and saves). */
async function title(): Promise<string | null> {
  const viewer = await open();
  const answer = viewer.history.index.session(uuid(1))?.facts.customTitle ?? null;
  await viewer.close();
  return answer;
}

async function cacheFile(): Promise<string> {
  const name = (await readdir(cache)).find((f) => f.startsWith('history-') && f.endsWith('.jsonl'));
  if (!name) throw new Error('no history cache was written');
  return path.join(cache, name);
}

beforeEach(async () => {
  home = await TempHome.create('pmv-history-cache-');
  cache = path.join(home.root, 'cache');
  warnings.length = 0;
  const sessionId = uuid(1);
  const ctx = { cwd: '/work/app', sessionId, slug: 'the-plan', at: '2026-10-01T10:00:00.000Z' };
  const log = path.join(home.claude, 'projects', '-work-app', `${sessionId}.jsonl`);
  await mkdir(path.dirname(log), { recursive: true });
  const plan = path.join(home.claude, 'plans', 'the-plan.md');
  await writeFile(log, [prompt(ctx, 'Plan it'), write(ctx, plan, '# The plan\n'), meta.customTitle(sessionId, 'Title from the log')].join('\n') + '\n');
  expect(await title()).toBe('Title from the log');
});

afterEach(async () => {
  await home?.cleanup();
});

describe('the history cache', () => {
  it('is lines: the rules\' version, the index\'s header, then one log each', async () => {
    const lines = (await readFile(await cacheFile(), 'utf8')).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual({ derivation: DERIVATION_VERSION });
    expect(JSON.parse(lines[1]!)).toMatchObject({ format: 'plan-memory-viewer/history' });
    expect(lines.slice(2, -1).map((line) => (JSON.parse(line) as [string])[0])).toEqual([path.join(home.claude, 'projects', '-work-app', `${uuid(1)}.jsonl`)]);
  });

  it('is restored for an unchanged log instead of reading it again', async () => {
    const file = await cacheFile();
    await writeFile(file, (await readFile(file, 'utf8')).replace('Title from the log', 'Title from the cache'));
    expect(await title()).toBe('Title from the cache');
    expect(warnings).toEqual([]);
  });

  it('is restored when a log change is heard before the first pass reads the logs, not read over first', async () => {
    const file = await cacheFile();
    await writeFile(file, (await readFile(file, 'utf8')).replace('Title from the log', 'Title from the cache'));
    const viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir: cache });
    const started = viewer.history.start();
    // A watcher's rescan soon after a start: it is answered once the first pass, which sees it, is done.
    await viewer.history.logChanged(null);
    expect(viewer.history.index.session(uuid(1))?.facts.customTitle).toBe('Title from the cache');
    await started;
    await viewer.close();
    expect(warnings).toEqual([]);
  });

  it('is set aside when other rules wrote it, and when it is torn', async () => {
    const file = await cacheFile();
    const saved = (await readFile(file, 'utf8')).replace('Title from the log', 'Title from the cache');
    await writeFile(file, saved.replace(`{"derivation":${DERIVATION_VERSION}}`, `{"derivation":${DERIVATION_VERSION - 1}}`));
    expect(await title()).toBe('Title from the log');
    expect(warnings).toEqual([]);
    await writeFile(file, saved.slice(0, saved.length - 30));
    expect(await title()).toBe('Title from the log');
    expect(warnings).toEqual([expect.stringContaining('ignoring the history cache')]);
  });
});

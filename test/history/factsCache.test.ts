// The transcripts' facts between runs (persisted.ts): saved beside the session index, one record per log,
// restored by the next run for logs that did not change (not read again), and set aside when other rules
// wrote them or they are torn.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DERIVATION_VERSION } from '../../src/domain/derivation.js';
import { Viewer } from '../../src/viewer.js';
import { PART_SEPARATOR, PARTS } from '../../src/domain/transcripts/savedFacts.js';
import { TempHome, uuid } from '../helpers/home.js';
import { factsFileOf, readIndexCache, writeIndexCache } from '../sessions/helpers.js';
import { meta, prompt, write } from './transcript.js';

let home: TempHome;
let cache: string;
const warnings: string[] = [];

/** The session's title from a fresh run, once its facts are all at hand; the run is closed (and saves). */
async function title(): Promise<string | null> {
  const viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir: cache });
  await viewer.transcriptsReady;
  const answer = viewer.history.index.session(uuid(1))?.facts.customTitle ?? null;
  await viewer.close();
  return answer;
}

async function cacheFile(): Promise<string> {
  const name = (await readdir(cache)).find((f) => f.startsWith('session-index-') && f.endsWith('.json'));
  if (!name) throw new Error('no session index cache was written');
  return path.join(cache, name);
}

beforeEach(async () => {
  home = await TempHome.create('pmv-facts-cache-');
  cache = path.join(home.root, 'cache');
  warnings.length = 0;
  const sessionId = uuid(1);
  const ctx = { cwd: '/work/app', sessionId, slug: 'the-plan', at: '2026-10-01T10:00:00.000Z' };
  const plan = path.join(home.claude, 'plans', 'the-plan.md');
  await home.write(path.join('projects', '-work-app', `${sessionId}.jsonl`),
    [prompt(ctx, 'Plan it'), write(ctx, plan, '# The plan\n'), meta.customTitle(sessionId, 'Title from the log')].join('\n') + '\n');
  expect(await title()).toBe('Title from the log');
});

afterEach(async () => {
  await home?.cleanup();
});

describe('the transcripts\' facts between runs', () => {
  it('are saved beside the session index, one line per log, marked with the rules\' version', async () => {
    const saved = await readIndexCache(await cacheFile());
    expect(saved.header).toEqual({ derivation: DERIVATION_VERSION });
    expect(saved.facts).toHaveLength(1);
    expect(saved.facts[0]).toContain('Title from the log');
  });

  it('are restored for an unchanged log instead of reading it again', async () => {
    const file = await cacheFile();
    const saved = await readIndexCache(file);
    await writeIndexCache(file, { ...saved, facts: saved.facts.map((line) => line.replace('Title from the log', 'Title from the cache')) });
    expect(await title()).toBe('Title from the cache');
    expect(warnings).toEqual([]);
  });

  it('are set aside when other rules wrote them, when they are torn, and when one log\'s record is not what this build saves', async () => {
    const file = await cacheFile();
    const factsFile = factsFileOf(file);
    const parts = await readIndexCache(file);
    const cached = { ...parts, facts: parts.facts.map((line) => line.replace('Title from the log', 'Title from the cache')) };
    const put = async (change: (index: string, facts: string) => [string, string]): Promise<void> => {
      await writeIndexCache(file, cached);
      const [index, facts] = change(await readFile(file, 'utf8'), await readFile(factsFile, 'utf8'));
      await writeFile(file, index);
      await writeFile(factsFile, facts);
    };
    await put((index, facts) => [index.replace(`{"derivation":${DERIVATION_VERSION}}`, `{"derivation":${DERIVATION_VERSION - 1}}`), facts]);
    expect(await title()).toBe('Title from the log');
    expect(warnings).toEqual([]);
    await put((index, facts) => [index, facts]);
    expect(await title()).toBe('Title from the cache');
    // Torn within the last log's facts: the file's lines are not the lengths it gives, and the logs are read again.
    await put((index, facts) => [index, facts.slice(0, facts.length - 30)]);
    expect(await title()).toBe('Title from the log');
    expect(warnings).toEqual([expect.stringContaining('reading them again')]);
    warnings.length = 0;
    // A facts file of another save (its stamp is not the one the index names): the logs are read again.
    await put((index, facts) => [index, facts.replace(/^\{"stamp":"[0-9a-f]{16}"/, '{"stamp":"0123456789abcdef"')]);
    expect(await title()).toBe('Title from the log');
    expect(warnings).toEqual([expect.stringContaining('reading them again')]);
    warnings.length = 0;
    // Torn within the index: the whole cache is set aside.
    await put((index, facts) => [index.slice(0, index.indexOf('\n', index.indexOf('\n') + 1) - 30), facts]);
    expect(await title()).toBe('Title from the log');
    expect(warnings).toEqual([expect.stringContaining('ignoring the session index cache')]);
    warnings.length = 0;
    // One part of one log's facts (its session cards) of another shape.
    const cardsPart = PARTS.indexOf('cards');
    const tampered = (line: string): string => line.split(PART_SEPARATOR).map((part, i) => (i === cardsPart ? part.replace('[[', '[[[]],[[') : part)).join(PART_SEPARATOR);
    await writeIndexCache(file, { ...cached, facts: cached.facts.map(tampered) });
    expect(await title()).toBe('Title from the log');
    expect(warnings).toEqual([expect.stringContaining('reading them again')]);
  });

  it('read a log again when a part the search does not parse first is not what this build saves', async () => {
    const file = await cacheFile();
    const parts = await readIndexCache(file);
    const workPart = PARTS.indexOf('work');
    const tampered = (line: string): string => line.replace('Title from the log', 'Title from the cache').split(PART_SEPARATOR)
      .map((part, i) => (i === workPart ? '{"not":"work"}' : part)).join(PART_SEPARATOR);
    await writeIndexCache(file, { ...parts, facts: parts.facts.map(tampered) });
    // The search's parts were fine, the work's was not: by the time every fact is at hand, the log was read again.
    expect(await title()).toBe('Title from the log');
    expect(warnings).toEqual([expect.stringContaining('reading them again')]);
  });
});

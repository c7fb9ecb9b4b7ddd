// The ranked search over a real home in a temp dir: ranking, typos and prefixes, phrases, filters, and
// snippets checked against the raw files.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindQueryError, type FindAnswer } from '../../src/domain/find/finder.js';
import { foldTerm } from '../../src/domain/find/terms.js';
import { Viewer } from '../../src/viewer.js';
import { TempHome } from '../helpers/home.js';
import { buildFindHome, SESSION } from './home.js';

let home: TempHome;
let viewer: Viewer;
let log: string;

beforeAll(async () => {
  home = await TempHome.create();
  ({ log } = await buildFindHome(home));
  viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false, cacheDir: null });
  await viewer.finder.built;
  await viewer.history.ready;
  await viewer.finder.idle();
});

afterAll(async () => {
  await viewer.close();
  await home.cleanup();
});

const find = (q: string, page?: { limit?: number; offset?: number }): Promise<FindAnswer> => viewer.finder.find(q, page);
const ids = async (q: string): Promise<string[]> => (await find(q, { limit: 100 })).results.map((r) => r.id);

describe('ranking', () => {
  it('puts a term in a title above the same term once in a long body (even a newer one)', async () => {
    const answer = await find('zebra');
    const order = answer.results.map((r) => r.id);
    expect(order).toContain('body-plan.md');
    expect(order.indexOf('title-plan.md')).toBeLessThan(order.indexOf('body-plan.md'));
    expect(answer.results[0]!.score).toBeGreaterThan(answer.results.find((r) => r.id === 'body-plan.md')!.score);
  });

  it('matches a quoted phrase only where its words stand together; the loose words match both', async () => {
    expect(await ids('"blue whale"')).toEqual(['phrase-plan.md']);
    const loose = await ids('blue whale');
    expect(loose).toEqual(expect.arrayContaining(['phrase-plan.md', 'scattered-plan.md']));
  });

  it('finds a phrase far into a long plan, and not its words reversed', async () => {
    expect(await ids('"amber lynx"')).toEqual(['deep-phrase-plan.md']);
    expect(await ids('"lynx amber"')).toEqual([]);
  });

  it('stops a phrase query whose asker has gone', async () => {
    const gone = new AbortController();
    gone.abort();
    await expect(viewer.finder.find('"blue whale"', { signal: gone.signal })).rejects.toThrow(/abort/i);
    // Words alone are answered from the index: nothing to stop.
    expect((await viewer.finder.find('blue whale', { signal: gone.signal })).total).toBeGreaterThan(0);
  });

  it('needs every word', async () => {
    expect(await ids('zebra pipeline ')).toEqual([await idOfMemory('deploy.md')]);
  });

  it('finds a word with one typo when it has 5 or more letters, and none in shorter words', async () => {
    expect(await ids('migratoin ')).toContain('title-plan.md'); // two letters swapped
    expect(await ids('migraton ')).toContain('title-plan.md'); // one missing
    expect(await ids('migrattion ')).toContain('title-plan.md'); // one extra
    expect(await ids('zebar ')).toContain('title-plan.md'); // swapped, 5 letters
    expect(await ids('zbra ')).toEqual([]); // 4 letters: exact only
    expect(await ids('mgiratoin ')).toEqual([]); // two typos
  });

  it('matches the last word as a prefix while it is typed, not after a space', async () => {
    expect(await ids('migr')).toContain('title-plan.md');
    expect(await ids('migr ')).toEqual([]);
    expect(await ids('migr zebra')).toEqual([]); // only the last word is a prefix
  });

  it('folds case and accents', async () => {
    expect(await ids('cafe ')).toEqual(['cafe-plan.md']);
    expect(await ids('CAFÉ ')).toEqual(['cafe-plan.md']);
  });

  it('finds memory entries by name, description and content, and sessions by title and prompts', async () => {
    expect(await ids('production ')).toEqual([await idOfMemory('deploy.md')]);
    expect(await ids('checklist ')).toEqual([await idOfMemory('release.md')]);
    const billing = await find('billing ');
    expect(billing.results.map((r) => [r.kind, r.id])).toEqual([['session', SESSION]]);
    expect(billing.results[0]!.title).toBe('Billing refactor');
    expect(billing.results[0]!.project).toBe('webapp');
    expect(await ids('invoices ')).toEqual([SESSION]);
  });

  it('pages: total counts every match, limit and offset cut the page', async () => {
    const all = await find('the ', { limit: 100 });
    expect(all.total).toBeGreaterThan(2);
    const second = await find('the ', { limit: 1, offset: 1 });
    expect(second.total).toBe(all.total);
    expect(second.results.map((r) => r.id)).toEqual([all.results[1]!.id]);
  });
});

describe('filters', () => {
  it('in: narrows to one kind', async () => {
    const any = await find('pipeline ');
    expect(new Set(any.results.map((r) => r.kind))).toEqual(new Set(['memory']));
    expect((await find('zebra in:memory')).results.map((r) => r.kind)).toEqual(['memory']);
    expect((await find('zebra in:plans')).results.every((r) => r.kind === 'plan')).toBe(true);
    expect((await find('billing in:memory')).total).toBe(0);
  });

  it('project: and type: narrow memory entries', async () => {
    expect(await ids('pipeline project:tools')).toEqual([await idOfMemory('release.md')]);
    expect(await ids('pipeline project:WEBAPP')).toEqual([await idOfMemory('deploy.md')]);
    expect(await ids('type:feedback')).toEqual([await idOfMemory('style.md')]);
    expect(await ids('pipeline type:feedback')).toEqual([]);
  });

  it('after: and before: narrow by modification day', async () => {
    expect(await ids('zebra after:2026-02-01')).toEqual(['body-plan.md']);
    expect(await ids('zebra before:2026-02-01 in:plans')).toEqual(['title-plan.md']);
    expect(await ids('zebra after:2026-03-10 before:2026-03-11')).toEqual(['body-plan.md']);
  });

  it('refuses filters that cannot mean anything', async () => {
    await expect(find('x in:everything')).rejects.toThrow(FindQueryError);
    await expect(find('x type:other')).rejects.toThrow(FindQueryError);
    await expect(find('x after:2026-02-30')).rejects.toThrow(FindQueryError);
    await expect(find('x before:yesterday')).rejects.toThrow(FindQueryError);
  });

  it('answers nothing for an empty query', async () => {
    expect(await find('')).toEqual({ total: 0, results: [] });
    expect(await find('   ')).toEqual({ total: 0, results: [] });
  });
});

describe('snippets', () => {
  async function checkAgainstFile(answer: FindAnswer, fileOf: (id: string, kind: string) => Promise<string>): Promise<number> {
    let checked = 0;
    for (const result of answer.results) {
      expect(result.snippets.length).toBeLessThanOrEqual(3);
      const lines = (await readFile(await fileOf(result.id, result.kind), 'utf8')).split('\n');
      for (const snippet of result.snippets) {
        expect(lines[snippet.line - 1]).toContain(snippet.text);
        expect(snippet.ranges.length).toBeGreaterThan(0);
        for (const [start, end] of snippet.ranges) {
          expect(start).toBeGreaterThanOrEqual(0);
          expect(end).toBeLessThanOrEqual(snippet.text.length);
          checked++;
        }
      }
    }
    return checked;
  }
  const planFile = (id: string) => Promise.resolve(path.join(home.claude, 'plans', id));

  it('point at the raw file line, with the matched words at their ranges', async () => {
    const answer = await find('zebra in:plans');
    expect(await checkAgainstFile(answer, planFile)).toBeGreaterThan(0);
    const title = answer.results.find((r) => r.id === 'title-plan.md')!;
    expect(title.snippets).toEqual([{ line: 1, text: '# Zebra migration', ranges: [[2, 7]] }]);
  });

  it('cut long lines to a window around the match and mark accented matches', async () => {
    const answer = await find('cafe ');
    expect(await checkAgainstFile(answer, planFile)).toBeGreaterThan(0);
    const snippets = answer.results[0]!.snippets;
    expect(snippets.map((s) => s.line)).toEqual([3, 4]);
    const long = snippets[1]!;
    expect(long.text.length).toBeLessThan(200);
    expect(long.ranges.map(([s, e]) => foldTerm(long.text.slice(s, e)))).toEqual(['cafe']);
  });

  it('of a memory entry count its frontmatter lines', async () => {
    const answer = await find('production ');
    expect(answer.results[0]!.snippets.map((s) => s.line)).toEqual([3]);
    const entry = (await viewer.memory.list()).entries.find((e) => e.id === answer.results[0]!.id)!;
    expect(await checkAgainstFile(answer, () => Promise.resolve(entry.filepath))).toBe(1);
  });

  it('of a session point at the log lines its first prompt, title and last prompt came from', async () => {
    const answer = await find('billing ');
    const snippets = answer.results[0]!.snippets;
    // The last prompt is the `last-prompt` line's (5), not the earlier user line that says the same (4).
    expect(snippets.map((s) => s.line)).toEqual([1, 3, 5]);
    expect(await checkAgainstFile(answer, () => Promise.resolve(log))).toBe(3);
  });
});

async function idOfMemory(filename: string): Promise<string> {
  const entry = (await viewer.memory.list()).entries.find((e) => e.filename === filename);
  if (entry === undefined) throw new Error(`no memory entry ${filename}`);
  return entry.id;
}

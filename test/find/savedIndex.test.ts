// The find index kept between runs: a saved and restored index answers every query as the index it was
// saved from, and goes on taking changes as it would; a file that does not hold together is refused; a
// restart restores it, checks every document's stamp, and answers as a fresh build of the home would.
import fc from 'fast-check';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FindIndex, type FindDoc } from '../../src/domain/find/findIndex.js';
import { parseFindQuery } from '../../src/domain/find/query.js';
import { decodeIndex, encodeIndex, type SavedIndex } from '../../src/domain/find/savedIndex.js';
import { Viewer } from '../../src/viewer.js';
import { TempHome } from '../helpers/home.js';
import { buildFindHome, day } from './home.js';

const WORDS = ['plan', 'plans', 'planning', 'memory', 'memroy', 'zebra', 'zebras', 'café', 'naïve', '統合', 'test', 'tset'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(' '));
const docArb = fc.record({ n: fc.integer({ min: 0, max: 9 }), kind: fc.constantFrom('plan', 'memory', 'session' as const), title: text, body: text, project: fc.option(fc.constantFrom('webapp', 'tools')) });
const queryArb = fc.array(fc.constantFrom(...WORDS, 'pla', 'zeb'), { minLength: 1, maxLength: 2 }).map((w) => w.join(' '));

function toDoc(d: { n: number; kind: 'plan' | 'memory' | 'session'; title: string; body: string; project: string | null }): FindDoc {
  return { kind: d.kind, id: `d${d.n}`, title: d.title, name: `d${d.n}.md`, description: '', body: d.body, project: d.project, modified: '2026-01-01T00:00:00.000Z', type: null };
}

const none = async (): Promise<void> => undefined;
const put = (index: FindIndex, doc: FindDoc): Promise<void> => index.put(doc, undefined, () => false, none);

function answers(index: FindIndex, queries: string[]): string[][] {
  return queries.map((q) => index.find(parseFindQuery(q)).hits.map((h) => `${h.entry.key} ${h.entry.title} ${h.score}`).sort());
}

/** The file's bytes as encodeIndex() writes them, in pieces, joined. */
async function encoded(saved: SavedIndex, between = none): Promise<Buffer> {
  return Buffer.concat(await encodeIndex(saved, between));
}

async function roundTrip(index: FindIndex, stamps: [string, string][] = []): Promise<{ index: FindIndex; stamps: [string, string][] }> {
  const saved = await decodeIndex(await encoded({ dump: await index.dump(none), stamps }), none);
  if (saved === null) throw new Error('the index was not restored');
  return { index: await FindIndex.restore(saved.dump, none), stamps: saved.stamps };
}

describe('a saved find index', () => {
  it('answers every query as the index it was saved from, before and after further changes', async () => {
    await fc.assert(fc.asyncProperty(fc.array(docArb, { minLength: 1, maxLength: 12 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }),
      fc.array(docArb, { maxLength: 4 }), fc.array(queryArb, { minLength: 1, maxLength: 4 }), async (docs, removed, later, queries) => {
        const original = new FindIndex();
        for (const d of docs) await put(original, toDoc(d));
        for (const n of removed) for (const kind of ['plan', 'memory', 'session']) original.remove(`${kind}:d${n}`);
        const { index: restored } = await roundTrip(original);
        expect(answers(restored, queries)).toEqual(answers(original, queries));
        expect(restored.size).toBe(original.size);
        // Postings read from the saved buffer grow into arrays of their own: both take the same changes.
        for (const d of later) {
          await put(original, toDoc(d));
          await put(restored, toDoc(d));
        }
        expect(answers(restored, queries)).toEqual(answers(original, queries));
      }), { numRuns: 150 });
  });

  it('is encoded in pieces with pauses between them when it is large, and reads back the same', async () => {
    const index = new FindIndex();
    // Over 8,192 terms and 16,384 postings: the terms block and the numbers are written a piece at a time.
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x`);
    await put(index, toDoc({ n: 1, kind: 'plan', title: 'Many words', body: words.join(' '), project: null }));
    await put(index, toDoc({ n: 2, kind: 'memory', title: 'Some words', body: words.slice(0, 50).join(' '), project: 'webapp' }));
    let pauses = 0;
    const pieces = await encodeIndex({ dump: await index.dump(none), stamps: [] }, async () => void pauses++);
    expect(pauses).toBeGreaterThanOrEqual(3);
    // Unsplit: the magic word, each of the 4 blocks as length, text and padding, the numbers.
    expect(pieces.length).toBeGreaterThan(1 + 4 * 3 + 1);
    const saved = (await decodeIndex(Buffer.concat(pieces), none))!;
    const restored = await FindIndex.restore(saved.dump, none);
    const queries = ['w0x', words[9_000]!, words[19_999]!, 'many', 'w1', 'some w2'];
    expect(answers(restored, queries)).toEqual(answers(index, queries));
    expect(answers(restored, [words[19_999]!])[0]).toHaveLength(1);
  });

  it('keeps the stamps and the listing facts', async () => {
    const index = new FindIndex();
    await put(index, { ...toDoc({ n: 1, kind: 'memory', title: 'Deploy steps', body: 'zebra', project: 'webapp' }), type: 'project', modified: '2026-03-04T05:06:07.000Z' });
    const { index: restored, stamps } = await roundTrip(index, [['memory:d1', 'stamp\0of d1']]);
    expect(stamps).toEqual([['memory:d1', 'stamp\0of d1']]);
    expect(restored.entry('memory:d1')).toEqual({ key: 'memory:d1', kind: 'memory', id: 'd1', title: 'Deploy steps', project: 'webapp', modified: '2026-03-04T05:06:07.000Z', type: 'project' });
  });

  it('refuses a file that is torn, foreign or out of order, and skips one of other rules', async () => {
    const index = new FindIndex();
    for (let n = 0; n < 3; n++) await put(index, toDoc({ n, kind: 'plan', title: 'zebra plan', body: 'memory test', project: null }));
    const bytes = await encoded({ dump: await index.dump(none), stamps: [] });
    await expect(decodeIndex(bytes.subarray(0, bytes.length - 4), none)).rejects.toThrow(/torn|trailing/);
    await expect(decodeIndex(Buffer.from('{"derivation":5}'), none)).rejects.toThrow(/not a saved find index/);
    // The last posting's slot pair swapped with an earlier one: slots out of order.
    const dump = await index.dump(none);
    const zebra = dump.terms.indexOf('zebra');
    const title = zebra * 5;
    expect(dump.sizes[title]).toBe(3);
    dump.pairs.set([2, 1, 0, 1], dump.starts[title]);
    const saved = await decodeIndex(await encoded({ dump, stamps: [] }), none);
    await expect(FindIndex.restore(saved!.dump, none)).rejects.toThrow(/out of order/);
    // Another version of the rules: not used (null), never an error.
    const other = Buffer.from(bytes);
    const metaLength = other.readUInt32LE(4);
    const meta = other.toString('utf8', 8, 8 + metaLength).replace(/"rules":\d+/, '"rules":0');
    expect(meta.length).toBe(metaLength);
    other.write(meta, 8, 'utf8');
    expect(await decodeIndex(other, none)).toBeNull();
  });
});

describe('the find index across restarts', () => {
  let home: TempHome;
  let cache: string;
  let warnings: string[];
  const open = (cacheDir: string | null = cache): Promise<Viewer> =>
    Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir: cacheDir });
  const results = async (viewer: Viewer, q: string): Promise<string[]> => {
    await viewer.finder.built;
    return (await viewer.finder.find(q, { limit: 50 })).results.map((r) => `${r.kind}:${r.id} ${r.title} ${r.score}`);
  };
  const savedFile = async (): Promise<string> => path.join(cache, (await readdir(cache)).find((f) => f.startsWith('find-') && f.endsWith('.bin'))!);

  beforeEach(async () => {
    home = await TempHome.create();
    cache = path.join(home.root, 'cache');
    warnings = [];
    await buildFindHome(home);
  });

  afterEach(async () => {
    await rm(home.root, { recursive: true, force: true });
  });

  it('is saved after the first build and restored by the next start, which takes in what changed meanwhile', async () => {
    const first = await open();
    expect(await results(first, 'zebra')).not.toEqual([]);
    await first.close();
    expect((await readFile(await savedFile())).length).toBeGreaterThan(0);

    // Between the runs: a plan's text changes, one is deleted, one is new.
    await home.plan('title-plan.md', '# Okapi migration\n\nMove the data.\n', day('2026-07-10'));
    await rm(path.join(home.claude, 'plans', 'body-plan.md'));
    await home.plan('new-plan.md', '# Giraffe notes\n\nzebra crossing\n', day('2026-07-11'));
    // The reference: the same caches (the plan archive among them) without the saved index.
    const reference = path.join(home.root, 'cache-without-index');
    await cp(cache, reference, { recursive: true, filter: (f) => !path.basename(f).startsWith('find-') });
    const second = await open();
    const fresh = await open(reference);
    for (const q of ['zebra', 'okapi', 'giraffe', 'migration', 'billing', 'pipeline', 'blue whale', 'weekly']) {
      expect(await results(second, q), q).toEqual(await results(fresh, q));
    }
    expect((await results(second, 'okapi')).some((r) => r.startsWith('plan:title-plan.md'))).toBe(true);
    expect((await results(second, 'giraffe')).some((r) => r.startsWith('plan:new-plan.md'))).toBe(true);
    await second.close();
    await fresh.close();
    expect(warnings).toEqual([]);
  });

  it('serves what it restored for a document whose stamp is unchanged (the saved index is really used)', async () => {
    const first = await open();
    await results(first, 'zebra');
    await first.close();
    // Only the saved copy says this title: a restart that rebuilt the index would not show it.
    const file = await savedFile();
    const saved = (await decodeIndex(await readFile(file), none))!;
    const entry = saved.dump.values.find((v) => v.key === 'plan:title-plan.md')!;
    entry.title = 'Title only the saved index knows';
    await writeFile(file, await encoded(saved));
    const second = await open();
    expect(await results(second, 'zebra')).toContain(`plan:title-plan.md Title only the saved index knows ${(await second.finder.find('zebra', { limit: 50 })).results.find((r) => r.id === 'title-plan.md')!.score}`);
    await second.close();
  });

  it('builds the index again, with a warning, when the saved one is corrupt', async () => {
    const first = await open();
    const before = await results(first, 'zebra');
    await first.close();
    const file = await savedFile();
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const second = await open();
    expect(await results(second, 'zebra')).toEqual(before);
    expect(warnings.some((w) => w.includes('saved index is not usable'))).toBe(true);
    await second.close();
  });
});

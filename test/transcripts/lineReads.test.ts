// Pages of a log from a byte offset: whole lines only, at least one per page however long, a torn last line
// never given, and lines over the limit stepped over without being held.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pageStartBefore, readLinesFrom } from '../../src/domain/transcripts/lineReads.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pmv-pages-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readLinesFrom', () => {
  it('gives whole lines with their offsets, at least one a page, and where the next page starts', async () => {
    const lines = [JSON.stringify({ a: 1 }), 'not json', JSON.stringify({ b: 'x'.repeat(300_000) }), JSON.stringify({ c: 3 })];
    const file = path.join(dir, 'log.jsonl');
    await writeFile(file, `${lines.join('\n')}\n{"torn":`);
    const all = readLinesFrom(file, 0, 100, 1 << 30)!;
    expect(all.lines.map((l) => l.value)).toEqual([{ a: 1 }, null, { b: 'x'.repeat(300_000) }, { c: 3 }]);
    const starts = [0, lines[0]!.length + 1, lines[0]!.length + lines[1]!.length + 2];
    expect(all.lines.slice(0, 3).map((l) => l.start)).toEqual(starts);
    // The torn line is not given: it may be being written; the cursor waits at it.
    expect(all.next).toBe(lines.join('\n').length + 1);
    // A page smaller than a line still holds that line.
    const small = readLinesFrom(file, starts[2]!, 100, 10)!;
    expect(small.lines.map((l) => l.start)).toEqual([starts[2]]);
    expect(small.next).toBe(starts[2]! + lines[2]!.length + 1);
    expect(readLinesFrom(path.join(dir, 'missing.jsonl'), 0, 1, 1)).toBeNull();
  });
});

describe('pageStartBefore', () => {
  it('finds where the page before a line starts, so that a page read from there reaches that line', async () => {
    // Line lengths from empty-ish to longer than the byte bound, in any order (fast-check picks them).
    await fc.assert(fc.asyncProperty(
      fc.array(fc.integer({ min: 2, max: 3000 }), { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 9000 }), fc.nat(),
      async (lengths, maxLines, maxBytes, pick) => {
        const lines = lengths.map((n, i) => JSON.stringify({ i, pad: 'y'.repeat(Math.max(0, n - 20)) }));
        const file = path.join(dir, `back-${pick}.jsonl`);
        await writeFile(file, `${lines.join('\n')}\n`);
        const starts: number[] = [];
        let at = 0;
        for (const line of lines) {
          starts.push(at);
          at += Buffer.byteLength(line) + 1;
        }
        const k = pick % lines.length;
        const cursor = starts[k]!;
        const prev = pageStartBefore(file, cursor, maxLines, maxBytes);
        if (k === 0) {
          expect(prev).toBeNull();
          return;
        }
        expect(starts).toContain(prev);
        expect(prev!).toBeLessThan(cursor);
        const page = readLinesFrom(file, prev!, maxLines, maxBytes)!;
        // It reaches the cursor: nothing between the two pages is skipped (from the file's start it may read on).
        expect(page.next === null || page.next >= cursor).toBe(true);
        expect(page.lines.map((l) => l.start)).toEqual(expect.arrayContaining(starts.slice(starts.indexOf(prev!), k)));
        // And it holds as many lines as the bounds allow.
        const before = starts.indexOf(prev!);
        expect(k - before).toBeLessThanOrEqual(maxLines);
        if (k - before < maxLines && before > 0) expect(cursor - starts[before - 1]!).toBeGreaterThan(maxBytes);
      }), { numRuns: 200 });
  });
});

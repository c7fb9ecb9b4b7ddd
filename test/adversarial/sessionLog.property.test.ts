// The session-log scanner against hostile bytes: random garbage and invalid UTF-8, torn lines, raw
// U+2028/U+2029, 5 MB lines, random chunk boundaries, and real files that grow in random pieces while
// they are being read. It never throws, always terminates, and its answer depends on the bytes only.
// (test/sessions/chunking.property.test.ts checks the scanner against a reference implementation; this
// file adds the hostile inputs and the end-to-end reads through SessionIndex on real files.)
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineScanner, MAX_VALUE_BYTES } from '../../src/domain/sessions/lineScanner.js';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { isCwd, isSessionId, isSlug } from '../../src/domain/sessions/values.js';
import { TempHome, uuid } from '../helpers/home.js';
import { conversationLine, indexFacts, metadataLine, scanChunks, SID_A, SID_B, SID_C } from '../sessions/helpers.js';

const sessionIds = fc.constantFrom(SID_A, SID_B, SID_C);
const slugs = fc.constantFrom('jolly-juggling-penguin', 'fix-the-login-bug-snug-otter', 'a', 'x-1');
const cwds = fc.constantFrom('/home/u/p', 'C:\\Users\\c\\p', '/h/é/"q"', '/line\u2028sep\u2029', '/t\\u0041b', '/emoji/🐧');
const content = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('\u2028', '\u2029', '\u0085', '"cwd":"/fake"', '"sessionId":"' + SID_C + '"', '"slug":"fake-slug"', '\\', '\n'),
);
const line = fc.record({ sessionId: sessionIds, cwd: cwds, slug: fc.option(slugs, { nil: undefined }), content });

/** Byte sequences no UTF-8 decoder accepts: stray continuation bytes, overlongs, cut multi-byte chars. */
const invalidUtf8 = fc.constantFrom(
  [0x80], [0xbf], [0xc0, 0xae], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xe2, 0x80], [0xf0, 0x9f, 0x90], [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xff], [0xfe], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80],
).map((bytes) => Buffer.from(bytes));

const piece = fc.oneof(
  { weight: 3, arbitrary: line.map((l) => Buffer.from(conversationLine(l))) },
  { weight: 2, arbitrary: line.chain((l) => fc.nat().map((n) => { const b = Buffer.from(conversationLine(l)); return b.subarray(0, n % b.length); })) },
  { weight: 1, arbitrary: sessionIds.map((s) => Buffer.from(metadataLine(s))) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)) },
  { weight: 2, arbitrary: invalidUtf8 },
  { weight: 2, arbitrary: fc.constantFrom('"cwd":"', '"sessionId":"', '"slug":"', '"', '\\', '\n', '\r\n', '\u2028').map((s) => Buffer.from(s)) },
);
const hostileLog = fc.array(piece, { maxLength: 40 }).map((parts) => Buffer.concat(parts));
const chunking = fc.array(fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4096 })), { minLength: 1, maxLength: 16 });

function expectValid(records: { sessionId: string; cwd: string | null; slug: string | null }[]): void {
  for (const r of records) {
    expect(isSessionId(r.sessionId)).toBe(true);
    if (r.cwd !== null) expect(isCwd(r.cwd)).toBe(true);
    if (r.slug !== null) expect(isSlug(r.slug)).toBe(true);
  }
}

describe('LineScanner on hostile bytes', () => {
  it('never throws and gives the same valid records under any chunking (garbage, invalid UTF-8, torn lines)', () => {
    fc.assert(
      fc.property(hostileLog, chunking, (data, sizes) => {
        const whole = scanChunks(data);
        expectValid(whole);
        expect(scanChunks(data, sizes)).toEqual(whole);
        expect(scanChunks(data, [1])).toEqual(whole);
      }),
      { numRuns: 1000 },
    );
  });

  it('a torn line glued to a full one yields exactly the full line', () => {
    fc.assert(
      fc.property(line, line, fc.nat(), chunking, (torn, full, cut, sizes) => {
        const tornBytes = Buffer.from(conversationLine(torn));
        const data = Buffer.concat([tornBytes.subarray(0, cut % tornBytes.length), Buffer.from(conversationLine(full))]);
        expect(scanChunks(data, sizes)).toEqual([{ sessionId: full.sessionId, cwd: full.cwd, slug: full.slug ?? null }]);
      }),
      { numRuns: 1000 },
    );
  });

  it('ignores invalid UTF-8 anywhere in a line\'s content, and rejects it inside a cwd', () => {
    fc.assert(
      fc.property(line, fc.array(invalidUtf8, { minLength: 1, maxLength: 4 }), chunking, (l, junk, sizes) => {
        const text = conversationLine({ ...l, content: 'JUNK' });
        const [head, tail] = text.split('JUNK') as [string, string];
        const data = Buffer.concat([Buffer.from(head), ...junk, Buffer.from(tail)]);
        expect(scanChunks(data, sizes)).toEqual([{ sessionId: l.sessionId, cwd: l.cwd, slug: l.slug ?? null }]);
        // Separated by ASCII, so two cut sequences cannot join into a valid character.
        const spaced = junk.flatMap((j) => [j, Buffer.from('x')]);
        const badCwd = Buffer.concat([Buffer.from('{"cwd":"/a'), ...spaced, Buffer.from(`","sessionId":"${l.sessionId}","slug":"s"}\n`)]);
        expect(scanChunks(badCwd, sizes)).toEqual([{ sessionId: l.sessionId, cwd: null, slug: 's' }]);
      }),
      { numRuns: 500 },
    );
  });

  it('reads 5 MB lines of any content in any chunking, holding at most one value', () => {
    fc.assert(
      fc.property(
        fc.array(content, { minLength: 1, maxLength: 8 }), line, line,
        fc.array(fc.integer({ min: 1, max: 1024 * 1024 }), { minLength: 1, maxLength: 6 }),
        (unit, big, after, sizes) => {
          const pattern = unit.join('') || 'x';
          const huge = pattern.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(pattern)));
          const data = Buffer.from(conversationLine({ ...big, content: huge }) + conversationLine(after));
          expect(data.length).toBeGreaterThan(5 * 1024 * 1024);
          const scanner = new LineScanner();
          const records = [];
          let at = 0;
          for (let i = 0; at < data.length; i++) {
            const size = sizes[i % sizes.length]!;
            records.push(...scanner.feed(data.subarray(at, at + size)));
            at += size;
          }
          records.push(...scanner.end());
          expect(records).toEqual([
            { sessionId: big.sessionId, cwd: big.cwd, slug: big.slug ?? null },
            { sessionId: after.sessionId, cwd: after.cwd, slug: after.slug ?? null },
          ]);
          expect(scanner.stats.maxRetainedBytes).toBeLessThanOrEqual(MAX_VALUE_BYTES + 13);
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe('SessionIndex on real files', () => {
  let home: TempHome;
  let counter = 0;

  beforeAll(async () => {
    home = await TempHome.create('pmv-adv-sessions-');
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  async function freshProjects(): Promise<string> {
    const dir = path.join(home.root, `case-${counter++}`, 'projects');
    await mkdir(path.join(dir, '-home-u-p'), { recursive: true });
    return dir;
  }

  /** Everything the index knows, offsets included: equal snapshots mean equal answers. */
  const snapshot = (index: SessionIndex) => JSON.stringify(indexFacts(index));

  it('reads the same facts from a hostile log whatever its read chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(hostileLog, fc.constantFrom(1, 3, 13, 64, 4096), async (data, chunkBytes) => {
        const projectsDir = await freshProjects();
        await writeFile(path.join(projectsDir, '-home-u-p', `${uuid(1)}.jsonl`), data);
        const small = new SessionIndex({ projectsDir, chunkBytes });
        const large = new SessionIndex({ projectsDir });
        await small.refresh();
        await large.refresh();
        expect(snapshot(small)).toBe(snapshot(large));
      }),
      { numRuns: 60 },
    );
  });

  it('ends in the same state when the log grows in random pieces between reads (mid-line, mid-character)', async () => {
    await fc.assert(
      fc.asyncProperty(hostileLog, fc.array(fc.nat(), { maxLength: 12 }), async (data, cuts) => {
        const projectsDir = await freshProjects();
        const file = path.join(projectsDir, '-home-u-p', `${uuid(2)}.jsonl`);
        await writeFile(file, '');
        const growing = new SessionIndex({ projectsDir, chunkBytes: 7 });
        await growing.refresh();
        const points = [...new Set(cuts.map((c) => (data.length === 0 ? 0 : c % data.length)))].sort((a, b) => a - b);
        let at = 0;
        for (const point of [...points, data.length]) {
          await appendFile(file, data.subarray(at, point));
          at = point;
          await growing.updateFile(file);
        }
        const fresh = new SessionIndex({ projectsDir });
        await fresh.refresh();
        expect(snapshot(growing)).toBe(snapshot(fresh));
      }),
      { numRuns: 60 },
    );
  });
});

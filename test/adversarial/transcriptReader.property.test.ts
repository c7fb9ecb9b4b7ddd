// The one transcript reader against hostile bytes: random garbage and invalid UTF-8, torn lines, raw
// U+2028/U+2029, multi-MB lines, any read size, and real files that grow in random pieces while they are
// being read. It never throws, always terminates, and every fact it keeps depends on the bytes only.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { isCwd, isSessionId, isSlug } from '../../src/domain/sessions/values.js';
import type { LogFacts } from '../../src/domain/transcripts/logFacts.js';
import { ParsedLine } from '../../src/domain/transcripts/parsedLine.js';
import { TempHome, uuid } from '../helpers/home.js';
import { conversationLine, indexFacts, metadataLine, SID_A, SID_B, SID_C } from '../sessions/helpers.js';
import { read } from '../transcripts/readLog.js';

const sessionIds = fc.constantFrom(SID_A, SID_B, SID_C);
const slugs = fc.constantFrom('jolly-juggling-penguin', 'fix-the-login-bug-snug-otter', 'a', 'x-1');
const cwds = fc.constantFrom('/home/u/p', 'C:\\Users\\c\\p', '/h/é/"q"', '/line\u2028sep\u2029', '/t\\u0041b', '/emoji/🐧');
const content = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('\u2028', '\u2029', '\u0085', '"cwd":"/fake"', '"sessionId":"' + SID_C + '"', '"slug":"fake-slug"', '\\', '\n'),
);
const type = fc.constantFrom('user', 'assistant', 'attachment', 'system', 'progress');
const line = fc.record({ sessionId: sessionIds, cwd: cwds, slug: fc.option(slugs, { nil: undefined }), content, type });

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
  { weight: 2, arbitrary: fc.constantFrom('"cwd":"', '"sessionId":"', '"slug":"', '"', '\\', '\n', '\r\n', '\u2028', '{"', '}').map((s) => Buffer.from(s)) },
);
const hostileLog = fc.array(piece, { maxLength: 40 }).map((parts) => Buffer.concat(parts));

function expectValid(facts: LogFacts): void {
  for (const [slug, sessionId] of facts.links.slugs) expect(isSlug(slug) && isSessionId(sessionId)).toBe(true);
  for (const [sessionId, { cwd }] of facts.links.sessions) expect(isSessionId(sessionId) && isCwd(cwd)).toBe(true);
}

let home: TempHome;
let counter = 0;

beforeAll(async () => {
  home = await TempHome.create('pmv-adv-reader-');
});
afterAll(async () => {
  await home?.cleanup();
});

async function freshProjects(): Promise<string> {
  const dir = path.join(home.root, `case-${counter++}`, 'projects');
  await mkdir(path.join(dir, '-home-u-p'), { recursive: true });
  return dir;
}

async function logWith(data: Buffer): Promise<string> {
  const file = path.join(await freshProjects(), '-home-u-p', `${uuid(1)}.jsonl`);
  await writeFile(file, data);
  return file;
}

describe('the transcript reader on hostile bytes', () => {
  it('never throws and keeps the same valid facts whatever its read size and whichever twin reads a line (garbage, invalid UTF-8, torn lines)', async () => {
    await fc.assert(
      fc.asyncProperty(hostileLog, fc.constantFrom(1, 3, 13, 64, 4096), async (data, chunkBytes) => {
        const file = await logWith(data);
        const whole = read(file);
        expectValid(whole.facts);
        expect(read(file, null, { chunkBytes })).toEqual(whole);
        // The tape's facts are JSON.parse's (its twin, parsedLine.ts).
        expect(read(file, null, { parser: { parse: (bytes) => ParsedLine.of(bytes) } })).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('takes a torn line glued to a full one as exactly the full one', async () => {
    await fc.assert(
      fc.asyncProperty(line, line, fc.nat(), async (torn, full, cut) => {
        const tornBytes = Buffer.from(conversationLine(torn));
        const file = await logWith(Buffer.concat([tornBytes.subarray(0, cut % tornBytes.length), Buffer.from(conversationLine(full))]));
        const facts = read(file).facts;
        expect([...facts.links.slugs]).toEqual(full.slug ? [[full.slug, full.sessionId]] : []);
        expect([...facts.links.sessions].map(([id, s]) => [id, s.cwd])).toEqual([[full.sessionId, full.cwd]]);
        expect(facts.counts.unreadable).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('reads multi-MB lines of any content in any read size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(content, { minLength: 1, maxLength: 8 }), line, line, fc.constantFrom(4096, 65_536, 1 << 20), async (unit, big, after, chunkBytes) => {
        const pattern = unit.join('') || 'x';
        const huge = pattern.repeat(Math.ceil((3 * 1024 * 1024) / Buffer.byteLength(pattern)));
        const first = conversationLine({ ...big, content: huge });
        const file = await logWith(Buffer.from(first + conversationLine(after)));
        const facts = read(file, null, { chunkBytes }).facts;
        // A session's cwd is its first, unless a later one is the one its project folder is named after.
        const named = (cwd: string): boolean => cwd.replace(/[^A-Za-z0-9]/g, '-') === '-home-u-p';
        const expected = new Map([[big.sessionId, big.cwd]]);
        const known = expected.get(after.sessionId);
        if (known === undefined || (named(after.cwd) && !named(known))) expected.set(after.sessionId, after.cwd);
        expect(new Map([...facts.links.sessions].map(([id, s]) => [id, s.cwd]))).toEqual(expected);
        expect(facts.counts).toEqual({ unreadable: 0, oversized: 0 });
      }),
      { numRuns: 6 },
    );
  });
});

describe('SessionIndex on real files', () => {
  /** Everything the index knows, offsets included: equal snapshots mean equal answers. */
  const snapshot = (index: SessionIndex) => JSON.stringify(indexFacts(index));

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

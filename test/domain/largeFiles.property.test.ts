// Large files are decoded, measured, searched and serialized a chunk at a time (largeFiles.ts,
// contentAnswer.ts); the whole-text operations are the definition. On real files, cut into chunks of any size, both agree.
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldCase } from '../../src/domain/fold.js';
import { contentHash } from '../../src/domain/history/observedVersions.js';
import { piecesContain, textFacts, textPieces } from '../../src/domain/largeFiles.js';
import { countLines } from '../../src/domain/markdown/text.js';
import { contentJson, untilStalled } from '../../src/http/contentAnswer.js';
import { eventually, TempHome } from '../helpers/home.js';

let home: TempHome;
let file: string;

beforeAll(async () => {
  home = await TempHome.create('pmv-large-');
  file = path.join(home.root, 'text.md');
});

afterAll(async () => {
  await home?.cleanup();
});

const TOKENS = ['a', 'Σ', 'ς', 'σ', 'İ', 'ß', '"', '\\', '\n', '\u2028', '\u0000', '\u001f', '😀', '\ud800', '\udc00', 'é', 'ab', 'xyz'];
const text = fc.array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 60 }).map((p) => p.join(''));
const bytes = fc.oneof(
  text.map((t) => Buffer.from(t)),
  fc.tuple(text, fc.uint8Array({ maxLength: 5 }), text).map(([a, b, c]) => Buffer.concat([Buffer.from(a), Buffer.from(b), Buffer.from(c)])),
);

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function withFile<T>(content: Buffer, use: (handle: Awaited<ReturnType<typeof open>>) => Promise<T>): Promise<T> {
  await writeFile(file, content);
  const handle = await open(file, 'r');
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

describe('a file read in chunks', () => {
  it('decodes to the text one decode gives, for any chunk size', async () => {
    await fc.assert(fc.asyncProperty(bytes, fc.integer({ min: 1, max: 9 }), async (content, chunk) => {
      const pieces = await withFile(content, (h) => collect(textPieces(h, Infinity, chunk)));
      expect(pieces.join('')).toBe(content.toString('utf8'));
    }), { numRuns: 300 });
  });

  it('serializes to the bytes of JSON.stringify({ content })', async () => {
    await fc.assert(fc.asyncProperty(bytes, fc.integer({ min: 1, max: 9 }), async (content, chunk) => {
      const json = await withFile(content, (h) => collect(contentJson(textPieces(h, Infinity, chunk))));
      expect(json.join('')).toBe(JSON.stringify({ content: content.toString('utf8') }));
    }), { numRuns: 300 });
  });

  it('contains a query exactly when its folded whole text does, across chunk boundaries', async () => {
    await fc.assert(fc.asyncProperty(text, fc.nat(), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 9 }), async (written, at, length, chunk) => {
      // What the file holds once written (a lone surrogate is stored as U+FFFD).
      const t = Buffer.from(written).toString('utf8');
      const start = at % (t.length + 1);
      const query = t.slice(start, start + length) || 'zz';
      const found = await withFile(Buffer.from(t), (h) => piecesContain(textPieces(h, Infinity, chunk), foldCase(query), foldCase));
      expect(found).toBe(foldCase(t).includes(foldCase(query)));
    }), { numRuns: 400 });
  });

  it('measures what the whole text gives: its hash, UTF-8 size and lines (a plan version\'s record)', async () => {
    await fc.assert(fc.asyncProperty(bytes, fc.integer({ min: 1, max: 9 }), async (content, chunk) => {
      const whole = content.toString('utf8');
      const facts = await withFile(content, (h) => textFacts(h, Infinity, chunk));
      expect(facts).toEqual({ sha256: contentHash(whole), size: Buffer.byteLength(whole), lineCount: countLines(whole) });
    }), { numRuns: 300 });
  });

  it('stops at the size it was given', async () => {
    const pieces = await withFile(Buffer.from('abcdefghij'), (h) => collect(textPieces(h, 4, 3)));
    expect(pieces.join('')).toBe('abcd');
  });
});

describe('a streamed answer', () => {
  it('hears when its reader stops asking for more, and gives the rest to a reader that comes back', async () => {
    let stalled = 0;
    const pieces = untilStalled((async function* () {
      yield* ['a', 'b', 'c'];
    })(), 20, () => stalled++);
    expect(await pieces.next()).toEqual({ value: 'a', done: false });
    expect(await pieces.next()).toEqual({ value: 'b', done: false });
    // Left unread.
    expect(await eventually(() => stalled > 0, 5000, 5)).toBe(true);
    expect(await pieces.next()).toEqual({ value: 'c', done: false });
    expect((await pieces.next()).done).toBe(true);
  });

  it('hears nothing once ended or abandoned', async () => {
    let stalled = 0;
    const pieces = untilStalled((async function* () {
      yield* ['a', 'b'];
    })(), 20, () => stalled++);
    await pieces.next();
    await pieces.return(undefined);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(stalled).toBe(0);
  });
});

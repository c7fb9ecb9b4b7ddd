// Property tests: the scanner's output is a function of the bytes alone (not of chunk boundaries), it
// agrees with a naive whole-line reference implementation of the same rules (each line's last
// tail-window bytes, parsed left to right), and on well-formed logs it returns exactly what the lines
// say. Tiny windows and probes put the window edge and the scanner's suffix shortcut everywhere.
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LineScanner, MAX_VALUE_BYTES, TAIL_WINDOW_BYTES, type LineRecord, type LineScannerOptions,
} from '../../src/domain/sessions/lineScanner.js';
import { isCwd, isSessionId, isSlug } from '../../src/domain/sessions/values.js';
import { conversationLine, metadataLine, scanChunks, SID_A, SID_B, SID_C, summaryLine } from './helpers.js';

type Key = 'cwd' | 'sessionId' | 'slug';
const KEYS: [Key, Buffer][] = (['cwd', 'sessionId', 'slug'] as const).map((k) => [k, Buffer.from(`"${k}":"`)]);

function decode(key: Key, raw: Buffer): string | null {
  if (raw.length > MAX_VALUE_BYTES) return null;
  if (key === 'sessionId') return isSessionId(raw.toString('latin1')) && raw.length === 36 ? raw.toString('latin1') : null;
  if (key === 'slug') return isSlug(raw.toString('latin1')) ? raw.toString('latin1') : null;
  if (!isUtf8(raw)) return null;
  try {
    const value: unknown = JSON.parse(`"${raw.toString('utf8')}"`);
    return typeof value === 'string' && isCwd(value) ? value : null;
  } catch {
    return null;
  }
}

/** The rules applied to whole lines, byte by byte, with no streaming at all: only each line's last `window` bytes count. */
function referenceScan(data: Buffer, window = TAIL_WINDOW_BYTES): LineRecord[] {
  const out: LineRecord[] = [];
  for (let start = 0; start <= data.length; ) {
    let end = data.indexOf(0x0a, start);
    if (end === -1) end = data.length;
    const line = data.subarray(Math.max(start, end - window), end);
    const occurrences: { key: Key; value: string | null }[] = [];
    let i = 0;
    scan: while (i < line.length) {
      for (const [key, pattern] of KEYS) {
        if (!line.subarray(i, i + pattern.length).equals(pattern)) continue;
        let j = i + pattern.length;
        let escaped = false;
        while (j < line.length && (escaped || line[j] !== 0x22)) {
          escaped = !escaped && line[j] === 0x5c;
          j++;
        }
        const closed = j < line.length;
        occurrences.push({ key, value: closed ? decode(key, line.subarray(i + pattern.length, j)) : null });
        i = closed ? j + 1 : line.length;
        continue scan;
      }
      i++;
    }
    const sidAt = occurrences.map((o) => o.key).lastIndexOf('sessionId');
    const sid = occurrences[sidAt];
    if (sid?.value != null) {
      const prevSidAt = occurrences.slice(0, sidAt).map((o) => o.key).lastIndexOf('sessionId');
      const cwdAt = occurrences.map((o) => o.key).lastIndexOf('cwd');
      const slugAt = occurrences.map((o) => o.key).lastIndexOf('slug');
      const cwd = cwdAt > prevSidAt && cwdAt < sidAt ? (occurrences[cwdAt]?.value ?? null) : null;
      const slug = slugAt > sidAt ? (occurrences[slugAt]?.value ?? null) : null;
      out.push({ sessionId: sid.value, cwd, slug });
    }
    start = end + 1;
  }
  return out;
}

const sessionIds = fc.constantFrom(SID_A, SID_B, SID_C);
const slugs = fc.constantFrom('jolly-juggling-penguin', 'fix-the-login-bug-snug-otter', 'a', 'x-1');
const cwds = fc.constantFrom('/home/u/p', 'C:\\Users\\c\\p', '/h/é/"q"', '/line\u2028sep', '/t\\u0041b');
const realLine = fc.record({
  sessionId: sessionIds,
  cwd: cwds,
  slug: fc.option(slugs, { nil: undefined }),
  content: fc.string({ maxLength: 40 }),
});

/** Bytes biased towards everything the state machine cares about. */
const token = fc.oneof(
  fc.constantFrom('"cwd":"', '"sessionId":"', '"slug":"', '"s', '"se', '"sessionId":', '"cw', '"slug', '":"'),
  fc.constantFrom('"', '\\', '\\"', '\n', '{', '}', ',', ':', '\u2028', '\u00e9', '\u00ff'),
  sessionIds, slugs, cwds, fc.string({ maxLength: 12 }),
  realLine.map((l) => conversationLine(l)),
  realLine.chain((l) => fc.nat().map((n) => { const s = conversationLine(l); return s.slice(0, n % s.length); })),
  sessionIds.map((s) => metadataLine(s)),
  fc.constant(summaryLine()),
  fc.constantFrom(`"cwd":"/${'a'.repeat(MAX_VALUE_BYTES - 1)}"`, `"cwd":"/${'a'.repeat(MAX_VALUE_BYTES)}"`, 'q'.repeat(9000)),
  fc.constantFrom('q'.repeat(TAIL_WINDOW_BYTES - 40), 'q'.repeat(TAIL_WINDOW_BYTES + 1)),
);
const logBytes = fc.array(token, { maxLength: 40 }).map((parts) => Buffer.from(parts.join(''), 'utf8'));
const chunkSizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 20_000 })), {
  minLength: 1,
  maxLength: 12,
});
/** The defaults, or a window and first probe small enough that their edges land on every kind of byte. */
const scannerOptions: fc.Arbitrary<LineScannerOptions> = fc.oneof(
  fc.constant({}),
  fc.record({ tailWindowBytes: fc.integer({ min: 1, max: 400 }), probeBytes: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ probeBytes: fc.integer({ min: 1, max: 64 }) }),
);
const windowOf = (options: LineScannerOptions): number => options.tailWindowBytes ?? TAIL_WINDOW_BYTES;

/**
 * Short lines packed with key, quote and escape fragments: a left-to-right parse of them depends on
 * every byte before, which is what the scanner's suffix shortcut (scanWindow) must get right.
 */
const denseLine = fc
  .array(
    fc.constantFrom(
      '"cwd":"', '"sessionId":"', '"slug":"', '"cwd":', '"sessionId"', '"slug', '"', '\\', '\\"', '\\\\', '":"',
      'cwd":"', 'sessionId":"', 'slug":"', SID_A, SID_B, '/x', 'a-b', ',', ':', '}', ' ', 'é',
    ),
    { maxLength: 24 },
  )
  .map((parts) => Buffer.from(parts.join(''), 'utf8'));

/**
 * scanChunks() as logReader feeds the scanner: each chunk copied into the buffer of two chunks ago (after
 * scribbling over it), which the scanner is told it may hold on to until the next feed.
 */
function scanInTurns(data: Buffer, sizes: readonly number[], options: LineScannerOptions): LineRecord[] {
  const scanner = new LineScanner(options);
  const largest = Math.max(1, ...sizes);
  const buffers = [Buffer.alloc(largest), Buffer.alloc(largest)];
  const records: LineRecord[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const chunk = data.subarray(at, at + Math.max(1, sizes[i % sizes.length]!));
    const buffer = buffers[i % 2]!.fill(0x22);
    chunk.copy(buffer);
    records.push(...scanner.feed(buffer.subarray(0, chunk.length), true));
    at += chunk.length;
  }
  records.push(...scanner.end());
  expect(scanner.stats.maxRetainedBytes).toBeLessThanOrEqual(options.tailWindowBytes ?? TAIL_WINDOW_BYTES);
  return records;
}

describe('LineScanner properties', () => {
  it('reads dense key soups like the reference whatever suffix it tries first', () => {
    fc.assert(
      fc.property(denseLine, (line) => {
        const expected = referenceScan(line);
        for (let probeBytes = 1; probeBytes <= line.length; probeBytes++) {
          expect(scanChunks(line, undefined, { probeBytes }), `probe ${probeBytes}`).toEqual(expected);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the same records however the bytes are chunked', () => {
    fc.assert(
      fc.property(logBytes, chunkSizes, scannerOptions, (data, sizes, options) => {
        expect(scanChunks(data, sizes, options)).toEqual(scanChunks(data, undefined, options));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with a naive whole-line implementation of the same rules', () => {
    fc.assert(
      fc.property(logBytes, scannerOptions, (data, options) => {
        expect(scanChunks(data, undefined, options)).toEqual(referenceScan(data, windowOf(options)));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the reference under any chunking with tiny windows (the window edge inside keys and values)', () => {
    fc.assert(
      fc.property(logBytes, chunkSizes, scannerOptions, (data, sizes, options) => {
        expect(scanChunks(data, sizes, options)).toEqual(referenceScan(data, windowOf(options)));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the same when it may hold on to the previous chunk of two buffers used in turn (as logReader does)', () => {
    fc.assert(
      fc.property(logBytes, chunkSizes, scannerOptions, (data, sizes, options) => {
        expect(scanInTurns(data, sizes, options)).toEqual(referenceScan(data, windowOf(options)));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the same holding on to chunks, a long chunk followed by one of every size, the window edge anywhere', () => {
    const line = conversationLine({ sessionId: SID_A, cwd: '/w/p', slug: 'calm-river', content: 'q'.repeat(60) });
    const whole = Buffer.from(line + metadataLine(SID_B) + line);
    // With and without the last line's `\n`: an unfinished last line is read by end().
    for (const data of [whole, whole.subarray(0, -1)]) {
      for (let window = 112; window <= 152; window++) {
        const expected = referenceScan(data, window);
        expect(expected.filter((r) => r.slug === 'calm-river')).toHaveLength(2);
        for (let long = window; long < window + 40; long += 7) {
          for (let short = 1; short <= window + 1; short += 3) {
            expect(scanInTurns(data, [long, short], { tailWindowBytes: window }), `window ${window}, chunks of ${long} and ${short}`)
              .toEqual(expected);
          }
        }
      }
    }
  });

  it('tracks completed bytes and holds at most a window under any chunking', () => {
    fc.assert(
      fc.property(logBytes, chunkSizes, scannerOptions, (data, sizes, options) => {
        const scanner = new LineScanner(options);
        let at = 0;
        for (let i = 0; at < data.length; i++) {
          const size = sizes[i % sizes.length]!;
          scanner.feed(data.subarray(at, at + size));
          at += size;
        }
        expect(scanner.stats.completedBytes).toBe(data.lastIndexOf(0x0a) + 1);
        expect(scanner.stats.maxRetainedBytes).toBeLessThanOrEqual(windowOf(options));
      }),
      { numRuns: 200 },
    );
  });

  it('reads lines that end alike like the reference, whatever comes before their common end', () => {
    // The scanner reuses what a line's end settled for the next line that ends with the same bytes
    // (repeatsSettledEnd): ends from real lines or key soups, behind prefixes that reach into them.
    const end = fc.oneof(
      realLine.map((l) => conversationLine(l).slice(0, -1)),
      realLine.chain((l) => fc.nat().map((n) => { const s = conversationLine(l).slice(0, -1); return s.slice(n % s.length); })),
      denseLine.map((b) => b.toString('utf8')),
      // From the quote before the last cwd key (where the scanner's suffix starts), or from any quote.
      realLine.map((l) => {
        const s = conversationLine(l).slice(0, -1);
        return s.slice(s.lastIndexOf('","cwd":"'));
      }),
      realLine.chain((l) => {
        const s = conversationLine(l).slice(0, -1);
        const quotes = [...s].flatMap((c, i) => (c === '"' ? [i] : []));
        return fc.constantFrom(...quotes).map((i) => s.slice(i));
      }),
    );
    // Prefixes that end in a key short of its last quote, or a backslash, change what the end's first quote means.
    const prefix = fc.tuple(
      fc.oneof(denseLine.map((b) => b.toString('utf8')), token.map((t) => t.replaceAll('\n', '')), fc.constantFrom('', 'q'.repeat(600))),
      fc.constantFrom('', '"cwd":', '"slug":', '"sessionId":', '\\', '"s', 'x'),
    ).map(([body, last]) => body + last);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(prefix, { maxLength: 3 }), end), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(4), { minLength: 1, maxLength: 8 }), chunkSizes, scannerOptions,
        (ends, picks, sizes, options) => {
          const lines = picks.map((k, i) => {
            const [prefixes, tail] = ends[k % ends.length]!;
            return `${prefixes.slice(0, (i % 3) + 1).join('')}${tail}`;
          });
          const data = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
          expect(scanChunks(data, sizes, options)).toEqual(referenceScan(data, windowOf(options)));
          expect(scanInTurns(data, sizes, options)).toEqual(referenceScan(data, windowOf(options)));
        }),
      { numRuns: 1500 },
    );
  });

  it('returns exactly what well-formed conversation lines say', () => {
    fc.assert(
      fc.property(fc.array(realLine, { maxLength: 20 }), chunkSizes, (lines, sizes) => {
        const data = Buffer.from(lines.map((l) => conversationLine(l)).join(''));
        const expected = lines.map((l) => ({ sessionId: l.sessionId, cwd: l.cwd, slug: l.slug ?? null }));
        expect(scanChunks(data, sizes)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('reads well-formed lines of any length the same way, the window edge anywhere before the keys', () => {
    fc.assert(
      fc.property(realLine, fc.integer({ min: 0, max: 3 * TAIL_WINDOW_BYTES }), chunkSizes, (line, padding, sizes) => {
        const data = Buffer.from(conversationLine({ ...line, content: 'p'.repeat(padding) }) + metadataLine(line.sessionId));
        expect(scanChunks(data, sizes)).toEqual([
          { sessionId: line.sessionId, cwd: line.cwd, slug: line.slug ?? null },
          { sessionId: line.sessionId, cwd: null, slug: null },
        ]);
      }),
      { numRuns: 100 },
    );
  });
});

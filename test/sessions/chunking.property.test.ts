// Property tests: the scanner's output is a function of the bytes alone (not of chunk boundaries), it
// agrees with a naive whole-line reference implementation of the same rules, and on well-formed logs
// it returns exactly what the lines say.
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineScanner, MAX_VALUE_BYTES, type LineRecord } from '../../src/domain/sessions/lineScanner.js';
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

/** The rules applied to whole lines, byte by byte, with no streaming at all. */
function referenceScan(data: Buffer): LineRecord[] {
  const out: LineRecord[] = [];
  for (let start = 0; start <= data.length; ) {
    let end = data.indexOf(0x0a, start);
    if (end === -1) end = data.length;
    const line = data.subarray(start, end);
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
);
const logBytes = fc.array(token, { maxLength: 40 }).map((parts) => Buffer.from(parts.join(''), 'utf8'));
const chunkSizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 20_000 })), {
  minLength: 1,
  maxLength: 12,
});

describe('LineScanner properties', () => {
  it('gives the same records however the bytes are chunked', () => {
    fc.assert(
      fc.property(logBytes, chunkSizes, (data, sizes) => {
        expect(scanChunks(data, sizes)).toEqual(scanChunks(data));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with a naive whole-line implementation of the same rules', () => {
    fc.assert(
      fc.property(logBytes, (data) => {
        expect(scanChunks(data)).toEqual(referenceScan(data));
      }),
      { numRuns: 300 },
    );
  });

  it('tracks completed bytes and stays bounded under any chunking', () => {
    fc.assert(
      fc.property(logBytes, chunkSizes, (data, sizes) => {
        const scanner = new LineScanner();
        let at = 0;
        for (let i = 0; at < data.length; i++) {
          const size = sizes[i % sizes.length]!;
          scanner.feed(data.subarray(at, at + size));
          at += size;
        }
        expect(scanner.stats.completedBytes).toBe(data.lastIndexOf(0x0a) + 1);
        expect(scanner.stats.maxRetainedBytes).toBeLessThanOrEqual(MAX_VALUE_BYTES + 13);
      }),
      { numRuns: 200 },
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
});

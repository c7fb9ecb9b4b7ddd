// withoutLongStrings is a fast path for parsing a long tool-call line: parsing its result must give what
// parsing the whole line gives with every long string emptied (the slow twin below), for any JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutLongStrings } from '../../src/domain/history/jsonSkeleton.js';

/** The definition: parse it all, then empty each string (key or value) written longer than `max` bytes. */
function reference(json: string, max: number): unknown {
  const long = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2 > max;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return long(value) ? '' : value;
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[long(k) ? '' : k] = walk(v);
      return out;
    }
    return value;
  };
  return walk(JSON.parse(json));
}

// Strings rich in what makes a scanner slip: quotes, backslashes, both escaped, and multi-byte characters.
const tricky = fc.array(fc.constantFrom('"', '\\', '\\"', '"\\', 'a', 'é', '😀', '\n', '\u0001', ' ', 'x'.repeat(9)), { maxLength: 30 }).map((p) => p.join(''));
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tricky, fc.string(), fc.integer(), fc.boolean(), fc.constant(null),
    fc.array(tie('node'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(tricky, fc.string()), tie('node'), { maxKeys: 5 }),
  ),
})).node;

describe('withoutLongStrings', () => {
  it('parses to the whole parse with long strings emptied, for any JSON and any bound', () => {
    fc.assert(fc.property(value, fc.integer({ min: 0, max: 40 }), (v, max) => {
      const json = JSON.stringify(v);
      const skeleton = withoutLongStrings(Buffer.from(json), max).toString('utf8');
      expect(JSON.parse(skeleton)).toEqual(reference(json, max));
    }), { numRuns: 2000 });
  });

  it('keeps a tool call\'s name, file and time and drops the text it writes', () => {
    const line = JSON.stringify({
      type: 'assistant', timestamp: '2026-11-01T10:00:00.000Z', sessionId: 's',
      message: { content: [{ type: 'tool_use', name: 'Write', input: { file_path: '/p/plan.md', content: `# Plan\n\n${'"quoted" \\ text '.repeat(10_000)}` } }] },
    });
    const skeleton = withoutLongStrings(Buffer.from(line), 8 * 1024);
    expect(skeleton.length).toBeLessThan(300);
    expect(JSON.parse(skeleton.toString())).toEqual({
      type: 'assistant', timestamp: '2026-11-01T10:00:00.000Z', sessionId: 's',
      message: { content: [{ type: 'tool_use', name: 'Write', input: { file_path: '/p/plan.md', content: '' } }] },
    });
  });

  it('returns torn JSON as it is', () => {
    const torn = Buffer.from('{"a":"unterminated \\" string');
    expect(withoutLongStrings(torn, 2)).toBe(torn);
  });
});

// The tokenizer's tape (jsonTape.ts, tapeLine.ts) against its definition, JSON.parse (parsedLine.ts): on
// any JSON text and any bytes, a line is read by both or by neither, and every question an extractor can
// ask (members, items, strings whole or cut, numbers, booleans, kinds, lengths, whole values) gets the same
// answer from both, at every depth, deeper than the tape records included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonTape, TAPE_DEPTH } from '../../src/domain/transcripts/jsonTape.js';
import type { LineView, NodeView } from '../../src/domain/transcripts/lineView.js';
import { ParsedLine } from '../../src/domain/transcripts/parsedLine.js';

const tape = JsonTape.create()!;

/** Asks `node` everything about `value` (what JSON.parse gave) and its members, recursively. */
function expectSame(node: NodeView | null, value: unknown, path = '$'): void {
  expect(node, path).not.toBeNull();
  const n = node!;
  expect(n.json(), path).toEqual(value);
  if (typeof value === 'string') {
    expect(n.kind).toBe('string');
    expect(n.str(), path).toBe(value);
    for (const max of [0, 1, 2, 7, 40]) expect(n.str(max), `${path} cut ${max}`).toBe(value.slice(0, max));
  } else if (typeof value === 'number') {
    expect([n.kind, n.num()]).toEqual(['number', value]);
  } else if (typeof value === 'boolean') {
    expect([n.kind, n.bool()]).toEqual([value ? 'true' : 'false', value]);
  } else if (value === null) {
    expect(n.kind).toBe('null');
  } else if (Array.isArray(value)) {
    expect([n.kind, n.length]).toEqual(['array', value.length]);
    const items = n.items();
    value.forEach((v, i) => expectSame(items[i] ?? null, v, `${path}[${i}]`));
  } else {
    const keys = Object.keys(value as object);
    expect([n.kind, n.length], path).toEqual(['object', keys.length]);
    for (const key of keys) expectSame(n.get(key), (value as Record<string, unknown>)[key], `${path}.${key}`);
    expect(n.get('no such key \u0000')).toBeNull();
  }
  if (typeof value !== 'string') expect(n.str()).toBeNull();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) expect(n.get('x')).toBeNull();
}

function expectLinesAgree(bytes: Buffer): void {
  const parsed = ParsedLine.of(bytes);
  const taped = tape.parse(bytes);
  expect(taped === null, bytes.toString('utf8').slice(0, 200)).toBe(parsed === null);
  if (parsed === null || taped === null) return;
  const whole = parsed.json() as Record<string, unknown>;
  expect(taped.json()).toEqual(whole);
  expect(new Set(taped.keys())).toEqual(new Set(parsed.keys()));
  for (const key of Object.keys(whole)) {
    expect(taped.has(key)).toBe(true);
    expect(taped.kind(key)).toBe(parsed.kind(key));
    expect(taped.str(key, 5)).toBe(parsed.str(key, 5));
    expect(taped.num(key)).toBe(parsed.num(key));
    expect(taped.bool(key)).toBe(parsed.bool(key));
    expectSame(taped.node(key), whole[key], `$.${key}`);
  }
}

/** Any JSON value, strings of any UTF-16 (lone surrogates too), keys such as __proto__ and constructor. */
const key = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'type', 'sessionId', ''), fc.string({ unit: 'binary', maxLength: 6 }));
const leaf = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('"', '\\', '\n', '\u2028', '\u0000', '\uD83D', 'é', '\uD83D\uDE00'),
  fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })),
}));
const object = fc.dictionary(key, value, { maxKeys: 6 });

/** A JSON text of `v` with JSON whitespace between its tokens. */
function spaced(v: unknown, pick: () => string): string {
  if (Array.isArray(v)) return `[${pick()}${v.map((x) => `${spaced(x, pick)}${pick()}`).join(`,${pick()}`)}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${pick()}${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}${pick()}:${pick()}${spaced(x, pick)}${pick()}`).join(`,${pick()}`)}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

describe('the tape and JSON.parse', () => {
  it('read any JSON object alike, compact or spaced, answering every question alike', () => {
    fc.assert(
      fc.property(object, fc.array(fc.constantFrom('', ' ', '\t', '\r', '  \r\t'), { minLength: 1, maxLength: 8 }), (o, spaces) => {
        expectLinesAgree(Buffer.from(JSON.stringify(o)));
        let i = 0;
        expectLinesAgree(Buffer.from(spaced(o, () => spaces[i++ % spaces.length]!)));
      }),
      { numRuns: 1500 },
    );
  });

  it('agree on keys written twice (the last wins) and keys written with escapes', () => {
    expectLinesAgree(Buffer.from('{"a":1,"b":{"c":2},"a":{"d":[3]},"\\u0061":"escaped a","t\\u0079pe":"user"}'));
    expectLinesAgree(Buffer.from('{"__proto__":{"polluted":true},"constructor":1}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('agree on every prefix of a line (torn), a prefix glued to a line, and random changes to its bytes', () => {
    fc.assert(
      fc.property(object, object, fc.nat(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }), (a, b, cut, changes) => {
        const line = Buffer.from(JSON.stringify(a));
        const torn = line.subarray(0, cut % (line.length + 1));
        expectLinesAgree(torn);
        expectLinesAgree(Buffer.concat([torn, Buffer.from(JSON.stringify(b))]));
        const changed = Buffer.from(line);
        for (const [at, byte] of changes) if (changed.length > 0) changed[at % changed.length] = byte;
        expectLinesAgree(changed);
      }),
      { numRuns: 1500 },
    );
  });

  it('agree on random bytes and on JSON-like token soup', () => {
    const soup = fc.array(fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', 'u', '0', '-', '1e5', 'true', 'fals', 'null', ' ', 'a', '\u0000', '\u001f', 'é', '\uFEFF'), { maxLength: 40 });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), soup, (bytes, parts) => {
        expectLinesAgree(Buffer.from(bytes));
        expectLinesAgree(Buffer.from(`{"k":${parts.join('')}}`));
        expectLinesAgree(Buffer.from(`{${parts.join('')}`));
      }),
      { numRuns: 3000 },
    );
  });

  it('agree on invalid UTF-8 inside strings and outside them', () => {
    const invalid = fc.constantFrom([0x80], [0xc0, 0xae], [0xe2, 0x80], [0xf0, 0x9f, 0x90], [0xff], [0xed, 0xa0, 0x80]);
    fc.assert(
      fc.property(fc.array(invalid, { minLength: 1, maxLength: 3 }), fc.boolean(), (junk, inside) => {
        const bytes = junk.flatMap((j) => j);
        const line = inside ? Buffer.concat([Buffer.from('{"k":"a'), Buffer.from(bytes), Buffer.from('b","n":1}')])
          : Buffer.concat([Buffer.from('{"k":1'), Buffer.from(bytes), Buffer.from('}')]);
        expectLinesAgree(line);
      }),
      { numRuns: 300 },
    );
  });

  it('agree on nesting at and past the tape\'s depth and the 128 levels a line may nest', () => {
    for (const depth of [TAPE_DEPTH - 1, TAPE_DEPTH, TAPE_DEPTH + 1, TAPE_DEPTH + 3, 126, 127, 128, 129, 300]) {
      const open = '{"a":'.repeat(depth) + '[1,{"b":"x"}]' + '}'.repeat(depth);
      expectLinesAgree(Buffer.from(`{"top":${open}}`));
      expectLinesAgree(Buffer.from(`{"top":${'['.repeat(depth)}${']'.repeat(depth)}}`));
    }
  });

  it('agree on multi-MB strings with escapes throughout, whole and cut', () => {
    const unit = 'line with "quotes", a \\ backslash\tand é and 🐧\n';
    const long = unit.repeat(Math.ceil((5 * 1024 * 1024) / unit.length));
    const bytes = Buffer.from(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: long, tool_use_id: 'toolu_1' }] }, sessionId: 's' }));
    expect(bytes.length).toBeGreaterThan(5 * 1024 * 1024);
    const parsed = ParsedLine.of(bytes)!;
    const taped = tape.parse(bytes)!;
    const item = (line: LineView) => line.node('message')!.get('content')!.items()[0]!;
    expect(item(taped).get('tool_use_id')!.str()).toBe('toolu_1');
    for (const max of [1, 100, 2000, 65_536]) expect(item(taped).get('content')!.str(max)).toBe(item(parsed).get('content')!.str(max));
    expect(item(taped).get('content')!.str() === long).toBe(true);
  });
});

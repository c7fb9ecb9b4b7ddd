// The frontmatter fast path must answer exactly as the YAML parser does, or decline. Blocks are generated
// from the shapes Claude Code writes, mixed with every construct near the edge of "flat": typed plain
// scalars, indicators, quotes and escapes, comments, odd indentation, duplicate keys, control characters.
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseFlatYaml, parseFrontmatter } from '../../src/domain/markdown/frontmatter.js';

const KEYS = [
  'name', 'description', 'type', 'metadata', 'node_type', 'originSessionId', 'modified', 'a', 'a.b', 'a-b', '_x',
  'x1', 'e1', 'inf', 'null', 'Null', 'NULL', 'true', 'True', 'FALSE', 'yes', 'on', 'constructor', 'toString',
  'hasOwnProperty', '__proto__', 'valueOf',
];
const VALUES = [
  'memory', 'user', 'feedback', 'User is a senior backend engineer, new to React', 'Ärger über größe', '日本語 テキスト',
  '𐐀 astral', 'naïve café', '1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f', '12345678-aaaa-bbbb-cccc-1234567890ab',
  '2026-11-19T09:12:44.120Z', '2026-11-19', '2026-11-19 09:12:44', '12:30', '1:2',
  // Typed plain scalars of the core schema, and near misses that stay strings.
  '1', '-1', '+1', '007', '0o7', '0o8', '0x1F', '0xG', '1e3', '1E-3', '.5', '1.', '1.5', '-.5', '1_000', '.inf', '-.Inf',
  '+.INF', '.NaN', '.nan', 'nan', '~', '~x', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tRUE', 'false',
  'yes', 'No', 'on', 'off', 'y', 'n', '=', '<<', '...', '---', '- -',
  // Indicators and separators, first and inside.
  'a: b', 'a:b', 'a:', ':a', 'a #b', 'a#b', '#x', '- x', '-x', '?x', '? x', ',x', 'x,y', '[x]', 'x]', '{x}', 'x}', '*a',
  'x*', '&a', '!x', '!!str x', '|', '>', '|-', '%x', '@x', '`x`', "it's", 'say "hi"', 'a\\b', 'x # y', 'x #',
  // Quoted forms.
  '"quoted"', '"with: colon"', '"with # hash"', '""', "''", "'single'", "'it''s'", '"esc \\" x"', '"tab\\tx"', '"\\u00e9"',
  '"unterminated', "'unterminated", '"a" b', '"a"b"', '"  padded  "', "'  padded  '", '"ü"', '"[x]"', '"1"', "'true'",
  // Whitespace and control characters.
  '', ' ', '  x  ', 'a  b', 'x\t', '\tx', 'x\ty', 'a\rb', 'a\u0085b', 'a\u2028b', 'a\ufeffb', 'a\u0000b', 'a\u007fb',
  '\ud800', 'x\udc00y', '\u00a0', 'x\u00a0', '\u00a0x', '\u2003x', 'x\u3000', '\u200bx',
];
// Random values over the characters that matter to a plain scalar, to reach combinations the list misses.
const TRICKY = [...' !"#$%&\'()*+,-./0123456789:;<=>?@AZaz[\\]^_`{|}~\t\r\u00a0éü日'];
const randomValue = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 12 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const SEPARATORS = [' ', ' ', ' ', '  ', '', '\t', ' \t'];
const INDENTS = ['', '', '', '  ', '  ', '    ', ' ', '   ', '\t'];

const line = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(fc.constantFrom(...INDENTS), fc.constantFrom(...KEYS), fc.constantFrom(...SEPARATORS),
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...VALUES) }, { weight: 1, arbitrary: randomValue })).map(([indent, key, sep, value]) => `${indent}${key}:${value === '' ? '' : sep}${value}`) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...INDENTS), fc.constantFrom(...KEYS)).map(([i, k]) => `${i}${k}:`) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '# comment', '  # nested comment', '- item', '  - item', 'key : v',
    'name:value', 'a: &x v', 'b: *x', '? k', '--- x', '...', '%YAML 1.2', 'k: [a, b]', 'k: {a: b}', 'k: |', '  text') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
);
const block = fc.tuple(fc.array(line, { maxLength: 10 }), fc.boolean()).map(([lines, crlf]) => {
  const text = lines.join(crlf ? '\r\n' : '\n');
  return text === '' ? text : `${text}${crlf ? '\r\n' : '\n'}`;
});

/** The parser's reading of a block as the frontmatter code uses it: empty is no fields. */
function viaParser(yamlText: string): unknown {
  return parse(yamlText, { schema: 'core', logLevel: 'error' }) ?? {};
}

/**
 * Values, key order, prototypes and property attributes, as one comparable tree. (toStrictEqual would
 * compare the `constructor` of two objects, which is data here when the frontmatter has that key.)
 */
function shape(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return [typeof value, value];
  return [
    Object.getPrototypeOf(value) === Object.prototype,
    Object.entries(Object.getOwnPropertyDescriptors(value)).map(([key, d]) =>
      [key, d.enumerable, d.writable, d.configurable, shape(d.value)]),
  ];
}

describe('parseFlatYaml against the YAML parser', () => {
  it('accepted blocks parse identically (values, key order, no error); the rest is declined', () => {
    let accepted = 0;
    fc.assert(
      fc.property(block, (yamlText) => {
        const fast = parseFlatYaml(yamlText);
        if (fast === null) return;
        accepted++;
        let slow: unknown;
        expect(() => (slow = viaParser(yamlText))).not.toThrow();
        expect(shape(fast)).toEqual(shape(slow));
      }),
      { numRuns: 10_000 },
    );
    // A fast path that declines everything would pass the property vacuously.
    expect(accepted).toBeGreaterThan(1_000);
  });

  it('accepts the frontmatter Claude Code writes', () => {
    const value = fc.stringMatching(/^[A-Za-z\u00c0-\u024f][A-Za-z0-9\u00c0-\u024f ,.()/_-]{0,60}$/).map((s) => s.trimEnd());
    fc.assert(
      fc.property(value, value, fc.uuid(), fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), (name, description, session, date) => {
        const yamlText = `name: ${name}\ndescription: "${description}"\nmetadata:\n  node_type: memory\n  type: user\n` +
          `  originSessionId: ${session}\n  modified: ${date.toISOString()}\n`;
        const fast = parseFlatYaml(yamlText);
        // UUIDs of digits only, or a name that is a number, are the parser's to read.
        if (/^\d+$/.test(session) || /^[-+.\d]/.test(name)) return;
        expect(fast).not.toBeNull();
        expect(shape(fast)).toEqual(shape(viaParser(yamlText)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps parseFrontmatter results of the examples in test/markdown', () => {
    const fm = parseFrontmatter('---\nname: a\ntype: feedback\noriginSessionId: s1\nmetadata:\n  type: user\n---\nbody');
    expect(fm).toEqual({ data: { name: 'a', type: 'user', originSessionId: 's1' }, body: 'body', error: null });
    expect(parseFrontmatter('---\nname: x\nmetadata: \n---\n')).toEqual({ data: { name: 'x' }, body: '', error: null });
  });
});

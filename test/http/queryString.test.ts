// The query string parser every route uses: strict where Node's querystring is lenient (security rule 7).
import { parse as nodeParse } from 'node:querystring';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MALFORMED_QUERY, parseQueryString } from '../../src/http/queryString.js';

/** Strings encodeURIComponent can encode (no lone surrogates). */
const text = fc.string({ unit: 'grapheme', maxLength: 12 });

describe('parseQueryString', () => {
  it('reads back any keys and values written with encodeURIComponent, repeated keys as arrays, like querystring.parse', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 6 }), (pairs) => {
        const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const parsed = parseQueryString(query);
        expect(parsed).not.toBe(MALFORMED_QUERY);
        expect({ ...parsed }).toEqual({ ...nodeParse(query) });
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with querystring.parse on well-formed queries of any shape: `+`, bare keys, empty pairs', () => {
    const piece = fc.constantFrom('a', 'b', '=', '&', '+', '%41', '%2B', '%26', '%3D', '%C3%BC', '%F0%9F%90%A7', '__proto__', 'constructor', '');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const query = pieces.join('');
        expect({ ...parseQueryString(query) }).toEqual({ ...nodeParse(query) });
      }),
      { numRuns: 1000 },
    );
  });

  it('gives MALFORMED_QUERY for any query holding a bad escape, where querystring.parse guessed', () => {
    const bad = fc.constantFrom('%', '%z', '%zz', '%4', '%g1', '%ff', '%c0%ae', '%ed%a0%80', '%e0%a4%a', '%f0%80%80%af', '%u0041', '%%');
    fc.assert(
      fc.property(text, bad, text, fc.constantFrom('key', 'value'), (before, escape, after, where) => {
        // The `-` keeps a following hex digit from completing a cut escape.
        const part = `${encodeURIComponent(before)}${escape}-${encodeURIComponent(after)}`;
        const query = where === 'key' ? `${part}=1&q=x` : `q=x&v=${part}`;
        expect(parseQueryString(query)).toBe(MALFORMED_QUERY);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps `__proto__` a key and never touches Object.prototype', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y&toString=z');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed.__proto__).toBe('x');
    expect(parsed.toString).toBe('z');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

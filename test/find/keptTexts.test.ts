// KeptTexts keeps archived plans' texts as shared lines: what it gives back must be the texts it was
// given, exactly, and it must stay within its bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeptTexts } from '../../src/domain/find/keptTexts.js';

const texts = fc.array(fc.array(fc.constantFrom('# Plan', 'step one', 'step two', '', '\r', 'é', 'x'.repeat(40)), { maxLength: 12 })
  .map((lines) => lines.join('\n')), { maxLength: 8 });

describe('KeptTexts', () => {
  it('gives back exactly the texts kept, for the key they were built from', () => {
    fc.assert(fc.property(texts, fc.string(), (kept, tail) => {
      const all = [...kept, tail, `${tail}\n`, `\n${tail}`];
      const cache = new KeptTexts(1_000_000);
      cache.keep('a.md', 'k1', all);
      expect(cache.get('a.md', 'k1')).toEqual(all);
      expect(cache.get('a.md', 'k1')).toEqual(all);
    }), { numRuns: 500 });
  });

  it('drops texts built from another key', () => {
    const cache = new KeptTexts(1000);
    cache.keep('a.md', 'k1', ['one\ntwo']);
    expect(cache.get('a.md', 'k2')).toBeUndefined();
    expect(cache.get('a.md', 'k1')).toBeUndefined();
    expect(cache.keptSize).toBe(0);
  });

  it('counts shared lines once, and drops the least recently used past its bound', () => {
    const version = Array.from({ length: 10 }, (_, i) => `line ${i} of a plan`).join('\n');
    const cache = new KeptTexts(1000);
    // Ten versions that differ in one line: the distinct lines (10 + 9, ~350 chars) and 100 indices.
    const versions = Array.from({ length: 10 }, (_, v) => version.replace('line 0 of', `line 0 (v${v}) of`));
    cache.keep('a.md', 'k', versions);
    expect(cache.keptSize).toBeLessThan(500);
    expect(versions.join('').length).toBeGreaterThan(1500);
    cache.keep('b.md', 'k', [version]);
    expect(cache.get('a.md', 'k')).toEqual(versions);
    // a.md was used last: c.md's arrival drops b.md first.
    cache.keep('c.md', 'k', ['x'.repeat(400)]);
    expect(cache.get('b.md', 'k')).toBeUndefined();
    expect(cache.get('a.md', 'k')).toEqual(versions);
    expect(cache.get('c.md', 'k')).toEqual(['x'.repeat(400)]);
    expect(cache.keptSize).toBeLessThanOrEqual(1000);
  });

  it('keeps nothing larger than its bound', () => {
    const cache = new KeptTexts(100);
    cache.keep('a.md', 'k', ['y'.repeat(101)]);
    expect(cache.get('a.md', 'k')).toBeUndefined();
    expect(cache.keptSize).toBe(0);
  });
});

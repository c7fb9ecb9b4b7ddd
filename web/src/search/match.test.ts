import { describe, expect, it } from 'vitest';
import { findMatches, splitByMatches } from './match';
import { foldCase } from './fold';

describe('findMatches', () => {
  it('finds case-insensitive, non-overlapping ranges', () => {
    expect(findMatches('Dark mode, DARK theme, dark', 'dark')).toEqual([[0, 4], [11, 15], [23, 27]]);
    expect(findMatches('aaaa', 'aa')).toEqual([[0, 2], [2, 4]]);
  });

  it('returns nothing for an empty or blank query', () => {
    expect(findMatches('text', '')).toEqual([]);
    expect(findMatches('text', '   ')).toEqual([]);
  });

  it('maps positions back when folding changes the length', () => {
    // 'İ' lowercases to two code units; the match after it must still point at the original text.
    const text = 'İstanbul plan';
    const [range] = findMatches(text, 'plan');
    expect(range).toBeDefined();
    expect(text.slice(range![0], range![1])).toBe('plan');
  });

  it('folds final sigma like the service', () => {
    expect(foldCase('ΟΔΟΣ')).toBe(foldCase('οδος'));
    expect(findMatches('η οδος', 'ΟΔΟΣ')).toEqual([[2, 6]]);
  });
});

describe('splitByMatches', () => {
  it('alternates plain and hit segments covering the whole text', () => {
    const parts = splitByMatches('a <b>Plan</b> plan', 'plan');
    expect(parts.map((p) => p.text).join('')).toBe('a <b>Plan</b> plan');
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['Plan', 'plan']);
  });
});

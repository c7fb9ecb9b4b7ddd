import { describe, expect, it } from 'vitest';
import { findMatches, needlesFor, splitByMatches } from './match';
import { foldCase } from './fold';

describe('findMatches', () => {
  it('finds case-insensitive, non-overlapping ranges', () => {
    expect(findMatches('Dark mode, DARK theme, dark', 'dark')).toEqual([[0, 4], [11, 15], [23, 27]]);
    expect(findMatches('aaaa', 'aa')).toEqual([[0, 2], [2, 4]]);
  });

  it('marks each word when the document holds them apart, the phrase when it holds the phrase, nothing when a word is missing', () => {
    const text = 'Wrap identifiers, then lowercase them; wrap again.';
    const words = needlesFor(text, 'wrap lowercase');
    expect(words).toEqual(['wrap', 'lowercase']);
    expect(findMatches(text, words).map(([a, b]) => text.slice(a, b))).toEqual(['Wrap', 'lowercase', 'wrap']);
    expect(needlesFor(text, 'lowercase  WRAP')).toEqual(['lowercase', 'wrap']);
    expect(needlesFor(text, 'then lowercase')).toEqual(['then lowercase']);
    expect(findMatches(text, needlesFor(text, 'copy the code'))).toEqual([]);
    // Overlapping words: the earlier, then the longer, match is kept.
    expect(findMatches('planning', ['plan', 'planning'])).toEqual([[0, 8]]);
    expect(findMatches('abc', ['ab', 'bc'], 1)).toEqual([[0, 2]]);
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

import { describe, expect, it } from 'vitest';
import { matchesOnLines } from './landing';

describe('matchesOnLines', () => {
  const lines = ['Quokka one', 'none here', 'a quokka and a QUOKKA', 'last quokka'];

  it('counts the query as the reader marks it (case folded), on lines from..to, to excluded', () => {
    expect(matchesOnLines(lines, 1, 4, 'quokka')).toBe(3);
    expect(matchesOnLines(lines, 2, 4, 'quokka')).toBe(2);
    expect(matchesOnLines(lines, 3, 3, 'quokka')).toBe(0);
  });

  it('stays inside the text whatever the bounds', () => {
    expect(matchesOnLines(lines, 0, 99, 'quokka')).toBe(4);
    expect(matchesOnLines(lines, 1, 4, '')).toBe(0);
  });
});

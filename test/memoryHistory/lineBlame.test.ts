// Blame over versions by line diff: kept lines keep their author through moves of other lines, inserts
// and deletes; a 200-line MEMORY.md over many versions is blamed line for line as computed by hand.
import { describe, expect, it } from 'vitest';
import { blameLines, keptFrom, splitLines } from '../../src/domain/memory/history/lineBlame.js';

describe('keptFrom', () => {
  it('maps kept lines around an insert and a delete', () => {
    expect(keptFrom(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([0, -1, 2, 3, -1]);
    expect(keptFrom([], ['a'])).toEqual([-1]);
    expect(keptFrom(['a', 'b'], [])).toEqual([]);
  });
});

describe('blameLines', () => {
  it('gives each line of a 200-line index the version that last wrote it', () => {
    const v0 = Array.from({ length: 200 }, (_, i) => `- [Topic ${i}](t${i}.md)`);
    // v1 rewrites every 10th line; v2 deletes the first 5 lines and appends one; v3 changes line 100 of v2 back and forth.
    const v1 = v0.map((line, i) => (i % 10 === 0 ? `${line} — reviewed` : line));
    const v2 = [...v1.slice(5), '- [New](new.md)'];
    const v3 = v2.map((line, i) => (i === 100 ? `${line}!` : line));
    const authors = blameLines([v0, v1, v2, v3].map((v) => `${v.join('\n')}\n`));
    const expected = v3.map((_, i) => {
      if (i === 100) return 3;
      if (i === v3.length - 1) return 2;
      const original = i + 5;
      return original % 10 === 0 ? 1 : 0;
    });
    expect(authors).toEqual(expected);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
  });
});

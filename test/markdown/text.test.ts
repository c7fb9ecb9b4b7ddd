import { describe, expect, it } from 'vitest';
import { countLines, firstHeading, planTitle } from '../../src/domain/markdown/text.js';
import { countWordsAndNewlines } from '../../src/domain/markdown/wordCount.js';
import { foldCase } from '../../src/domain/fold.js';

describe('countLines', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['a\n', 1],
    ['a\nb\n', 2],
    ['a\nb', 2],
    ['\n', 1],
    ['\n\n', 2],
    ['a\r\nb\r\n', 2],
  ])('%j has %i lines', (text, lines) => expect(countLines(text)).toBe(lines));
});

describe('countWords', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['one', 1],
    ['one two\tthree\nfour', 4],
    ['  leading and trailing  ', 3],
    ['non\u00a0breaking', 2],
    ['Größe ΣΟΦΙΑ 日本語', 3],
  ])('%j has %i words', (text, words) => expect(countWordsAndNewlines(Buffer.from(text, 'utf8')).words).toBe(words));
});

describe('firstHeading and planTitle', () => {
  it('takes the first ATX heading and strips a leading "Plan:"', () => {
    expect(planTitle('# Plan: Add dark mode\n\nbody', 'x.md')).toBe('Add dark mode');
    expect(planTitle('# plan:   Lower case too  \n', 'x.md')).toBe('Lower case too');
    expect(planTitle('## Second level first\n# Later', 'x.md')).toBe('Second level first');
  });

  it('ignores headings inside fenced code, backticks and tildes', () => {
    const text = '```bash\n# not a title\n```\n~~~\n# nor this\n~~~\n# Real title\n';
    expect(firstHeading(text)).toBe('Real title');
  });

  it('needs a closing fence of the same kind and at least the same length', () => {
    expect(firstHeading('````\n```\n# inside\n````\n# outside')).toBe('outside');
    expect(firstHeading('```\n~~~\n# inside\n```\n# outside')).toBe('outside');
  });

  it('treats an unclosed fence as code to the end', () => {
    expect(firstHeading('```\n# inside forever\n')).toBeNull();
  });

  it('ignores a leading BOM, closing hashes and CRLF', () => {
    expect(firstHeading('\ufeff# Title ##\r\n')).toBe('Title');
    expect(firstHeading('# C#\n')).toBe('C#');
  });

  it('does not take #hashtags or empty headings', () => {
    expect(firstHeading('#hashtag\n#\n# Real')).toBe('Real');
  });

  it('falls back to the file name without .md', () => {
    expect(planTitle('no heading here', 'jolly-juggling-penguin.md')).toBe('jolly-juggling-penguin');
    expect(planTitle('# Plan:\n', 'x.md')).toBe('x');
    expect(planTitle('', 'empty.md')).toBe('empty');
  });

  it('accepts up to three spaces of indentation only', () => {
    expect(firstHeading('    # code block\n   # Indented heading')).toBe('Indented heading');
  });
});

describe('foldCase', () => {
  it('folds across Unicode, including final sigma', () => {
    expect(foldCase('ÄÖÜ')).toBe('äöü');
    expect(foldCase('ΟΔΟΣ')).toBe(foldCase('οδοσ'));
    expect(foldCase('οδος').includes(foldCase('Σ'))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { diffBlocks, markdownBlocks } from './blockDiff';
import { foldRows, isUnchanged, splitRows } from './diffRows';
import { DIFF_LIMITS, diffTexts, splitLines, wordMarks, type DiffLine } from './lineDiff';

const lineOf = (l: DiffLine) => [l.kind, l.oldNo, l.newNo, l.text];
const marked = (l: DiffLine) => l.words?.filter((w) => w.mark !== 'same').map((w) => w.text.trim());

describe('diffTexts: lines first', () => {
  it('keeps unchanged lines, and numbers each line in the version it is in', () => {
    const d = diffTexts('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    expect(d.lines.map(lineOf)).toEqual([
      ['same', 1, 1, 'a'],
      ['removed', 2, null, 'b'],
      ['added', null, 2, 'B'],
      ['same', 3, 3, 'c'],
      ['same', 4, 4, 'd'],
      ['added', null, 5, 'e'],
    ]);
    expect([d.added, d.removed, d.coarse]).toEqual([2, 1, false]);
  });

  it('finds nothing between equal texts, and everything against an empty one', () => {
    expect(diffTexts('x\ny\n', 'x\ny\n').lines.every((l) => l.kind === 'same')).toBe(true);
    expect(diffTexts('', 'x\ny\n').lines.map((l) => l.kind)).toEqual(['added', 'added']);
    expect(diffTexts('x\n', '').lines.map((l) => l.kind)).toEqual(['removed']);
  });

  it('does not count a final line break as a line', () => {
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
  });
});

describe('diffTexts: words inside changed lines', () => {
  it('marks only the words that changed, on both sides of the pair', () => {
    const d = diffTexts('# Plan\n\n1. Add a toggle to the header\n', '# Plan\n\n1. Add a theme toggle to the footer\n');
    const [removed, added] = d.lines.filter((l) => l.kind !== 'same');
    expect(marked(removed!)).toEqual(['header']);
    expect(marked(added!)).toEqual(['theme', 'footer']);
    // The pieces put back together are the line.
    expect(added!.words!.map((w) => w.text).join('')).toBe(added!.text);
    expect(removed!.words!.map((w) => w.text).join('')).toBe(removed!.text);
  });

  it('shows a line that shares almost nothing with its counterpart whole, without word marks', () => {
    const d = diffTexts('Completely different words here\n', 'Nothing alike in this one at all\n');
    expect(d.lines.map((l) => l.words)).toEqual([null, null]);
    expect(d.wordsSkipped).toBe(0);
  });

  it('leaves lines without a counterpart whole', () => {
    const d = diffTexts('a line\n', 'a line changed\nb\n');
    expect(d.lines.map((l) => [l.kind, l.words === null])).toEqual([
      ['removed', false],
      ['added', false],
      ['added', true],
    ]);
  });
});

describe('diffTexts: bounds', () => {
  it('does not compare lines longer than the bound word by word, and says so', () => {
    const long = 'word '.repeat(1000);
    const d = diffTexts(`${long}a\n`, `${long}b\n`, { ...DIFF_LIMITS, maxWordLine: 100 });
    expect(d.lines.map((l) => l.words)).toEqual([null, null]);
    expect(d.wordsSkipped).toBe(2);
  });

  it('stops comparing words once the budget of characters is spent', () => {
    const oldText = Array.from({ length: 10 }, (_, i) => `line ${i} old`).join('\n');
    const newText = Array.from({ length: 10 }, (_, i) => `line ${i} new`).join('\n');
    const d = diffTexts(oldText, newText, { ...DIFF_LIMITS, wordBudget: 4 * 2 * 'line 0 old'.length });
    const withWords = d.lines.filter((l) => l.words !== null).length;
    expect(withWords).toBe(8);
    expect(d.wordsSkipped).toBe(12);
  });

  it('gives up aligning lines past the bound of edits: the changed middle removed, then added, the ends kept', () => {
    const oldLines = Array.from({ length: 200 }, (_, i) => `old ${i}`);
    const newLines = Array.from({ length: 200 }, (_, i) => `new ${i}`);
    const d = diffTexts(['top', ...oldLines, 'bottom'].join('\n'), ['top', ...newLines, 'bottom'].join('\n'), { ...DIFF_LIMITS, maxLineEdits: 10 });
    expect(d.coarse).toBe(true);
    expect(d.lines.map((l) => l.kind)).toEqual(['same', ...oldLines.map(() => 'removed'), ...newLines.map(() => 'added'), 'same']);
    expect(d.lines.at(-1)).toMatchObject({ oldNo: 202, newNo: 202, text: 'bottom' });
  });

  it('compares a megabyte plan with a few changed lines, marking the words inside them', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `- step ${i}: do the thing number ${i} carefully`);
    const oldText = lines.join('\n');
    const changed = [...lines];
    changed[5000] = '- step 5000: do the other thing number 5000 carefully';
    changed[15000] = '- step 15000: skip this';
    expect(oldText.length).toBeGreaterThan(800_000);
    const d = diffTexts(oldText, changed.join('\n'));
    expect([d.added, d.removed, d.coarse]).toEqual([2, 2, false]);
    expect(marked(d.lines.find((l) => l.kind === 'added')!)).toEqual(['other']);
  });
});

describe('wordMarks', () => {
  it('spends the budget it is given', () => {
    const budget = { left: 30 };
    expect(wordMarks('one two', 'one three', DIFF_LIMITS, budget)).not.toBe('skipped');
    expect(budget.left).toBe(30 - 16);
    expect(wordMarks('one two', 'one three', DIFF_LIMITS, budget)).toBe('skipped');
  });
});

describe('rows', () => {
  it('puts a change\'s removed lines beside its added ones when side by side', () => {
    const d = diffTexts('a\nb\nc\nz\n', 'a\nB\nz\n');
    expect(splitRows(d.lines).map((r) => [r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ['a', 'a'],
      ['b', 'B'],
      ['c', null],
      ['z', 'z'],
    ]);
  });

  it('folds long unchanged runs but keeps the context around each change, and unfolds on request', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[15] = 'line fifteen';
    const d = diffTexts(lines.join('\n'), changed.join('\n'));
    const folded = foldRows(d.lines, new Set(), isUnchanged);
    expect(folded.map((r) => (r.type === 'fold' ? `fold ${r.start}-${r.end}` : r.index))).toEqual([
      'fold 0-12', 12, 13, 14, 15, 16, 17, 18, 19, 'fold 20-31',
    ]);
    const open = foldRows(d.lines, new Set([0]), isUnchanged);
    expect(open.filter((r) => r.type === 'fold')).toEqual([{ type: 'fold', start: 20, end: 31 }]);
    expect(open.length).toBe(12 + 8 + 1);
  });
});

describe('markdownBlocks and diffBlocks', () => {
  const OLD = '# Plan\n\nIntro text here.\n\n- one\n- two\n\n```ts\nconst a = 1;\n```\n\nOutro.\n';

  it('splits a plan into its top-level blocks', () => {
    expect(markdownBlocks(OLD)).toEqual(['# Plan', 'Intro text here.', '- one\n- two', '```ts\nconst a = 1;\n```', 'Outro.']);
  });

  it('pairs a changed block with the one it replaced, and keeps blocks with no counterpart whole', () => {
    const next = OLD.replace('Intro text here.', 'Intro text written again.').replace('Outro.\n', 'Outro.\n\nA new closing paragraph.\n');
    const { items, coarse } = diffBlocks(OLD, next);
    expect(coarse).toBe(false);
    expect(items.map((i) => i.kind)).toEqual(['same', 'changed', 'same', 'same', 'same', 'added']);
    expect(items[1]).toEqual({ kind: 'changed', old: 'Intro text here.', text: 'Intro text written again.' });
  });

  it('gives up pairing past the bound of edits', () => {
    const a = Array.from({ length: 50 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const b = Array.from({ length: 50 }, (_, i) => `Other ${i}.`).join('\n\n');
    const { items, coarse } = diffBlocks(a, b, 5);
    expect(coarse).toBe(true);
    expect(items.filter((i) => i.kind === 'changed')).toEqual([]);
    expect(items.filter((i) => i.kind === 'removed').length).toBe(50);
  });
});

// The load budget rule of Claude Code 2.1.211 (docs/claude-code-formats.md): frontmatter and HTML comments
// are left out before the 200-line / 25,000-character check; characters are UTF-16 units, never bytes.
import { describe, expect, it } from 'vitest';
import { budgetLevel, loadBudget } from '../../../src/domain/memory/loadBudget.js';

const entry = (i: number) => `- [Topic ${i}](topic-${i}.md) — hook ${i}`;
const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => entry(i + from));

describe('loadBudget', () => {
  it('leaves the frontmatter out before counting lines', () => {
    const front = ['---', 'name: index', 'description: "the index"', 'metadata:', '  type: reference', '---'];
    const text = [...front, ...lines(200)].join('\n') + '\n';
    // 206 lines on disk, 200 counted: nothing is cut.
    const budget = loadBudget(text);
    expect(budget.totalLines).toBe(200);
    expect(budget.truncated).toBe(false);
    expect(budget.keptEnd).toBe(text.length);
    expect(budget.keptStart).toBe(text.indexOf('- [Topic 1]'));
    expect(budget.skipped).toEqual([{ start: 0, end: text.indexOf('- [Topic 1]'), kind: 'frontmatter' }]);
  });

  it('leaves HTML comments out, and a cut lands in the file where the 200th counted line ends', () => {
    const comment = ['<!--', ...Array.from({ length: 30 }, (_, i) => `note ${i}`), '-->'].join('\n');
    const text = [entry(1), comment, ...lines(205, 2)].join('\n') + '\n';
    const budget = loadBudget(text);
    // The comment leaves one empty line where it stood: 1 + 1 + 205 = 207 counted lines.
    expect(budget.totalLines).toBe(207);
    expect(budget.truncated).toBe(true);
    expect(budget.reason).toBe('lines');
    expect(budget.keptLines).toBe(200);
    // Counted lines 1..200 are file lines 1..231 (the comment is 32 lines on disk, one counted).
    const fileLines = text.split('\n');
    expect(text.slice(0, budget.keptEnd)).toBe(fileLines.slice(0, 231).join('\n'));
    expect(budget.firstUnreadLine).toBe(231);
    expect(fileLines[231]).toBe(entry(200));
  });

  it('an unclosed comment is text', () => {
    const budget = loadBudget('<!-- never closed\n' + lines(3).join('\n'));
    expect(budget.skipped).toEqual([]);
    expect(budget.totalLines).toBe(4);
  });

  it('counts characters, not bytes: 40 KB of multibyte text in 12,000 characters is not cut, and not "over"', () => {
    const line = 'ü'.repeat(3) + '日本語のメモ'.repeat(9);
    const text = Array.from({ length: 200 }, () => line).join('\n');
    expect(Buffer.byteLength(text)).toBeGreaterThan(25_000);
    expect(text.length).toBeLessThan(20_000);
    const budget = loadBudget(text);
    expect(budget.truncated).toBe(false);
    expect(budget.totalChars).toBe(text.length);
    expect(budgetLevel(budget)).toBe('near');
    expect(budgetLevel(loadBudget(lines(10).join('\n')))).toBe('ok');
  });

  it('cuts at the last newline at or before 25,000 counted characters, frontmatter not counted', () => {
    const front = `---\ndescription: "${'d'.repeat(5000)}"\n---\n`;
    const long = 'x'.repeat(299);
    const body = Array.from({ length: 120 }, () => long).join('\n');
    const budget = loadBudget(front + body);
    expect(budget.reason).toBe('chars');
    // Without the frontmatter the cut is where it is for the body alone (24,899).
    expect(budget.keptEnd).toBe(front.length + 24_899);
    expect(budget.keptChars).toBe(24_899);
    expect(budgetLevel(budget)).toBe('over');
  });

  it('drops a whole over-long line after a newline, and cuts inside a first line with none', () => {
    const after = loadBudget(`# Memory\n${'y'.repeat(30_000)}\n`);
    expect(after).toMatchObject({ truncated: true, midLine: false, firstUnreadLine: 1, keptEnd: '# Memory'.length });
    const text = `${'y'.repeat(30_000)}\n`;
    const inside = loadBudget(text);
    expect(inside).toMatchObject({ truncated: true, midLine: true, firstUnreadLine: 0, keptEnd: 25_000, keptChars: 25_000 });
  });
});

import { describe, expect, it } from 'vitest';
import { computeCut, levelOf } from './cutPoint';

const line = (i: number) => `- [Topic ${i}](topic-${i}.md) — hook`;

describe('computeCut', () => {
  it('keeps a small index whole', () => {
    const text = `# Memory\n${line(1)}\n`;
    const cut = computeCut(text);
    expect(cut.truncated).toBe(false);
    expect(cut.keptEnd).toBe(text.length);
    expect(cut.firstUnreadLine).toBeNull();
  });

  it('keeps exactly 200 lines and cuts at the end of line 200', () => {
    const lines = Array.from({ length: 250 }, (_, i) => line(i + 1));
    const text = lines.join('\n') + '\n';
    const cut = computeCut(text);
    expect(cut.reason).toBe('lines');
    expect(cut.keptLines).toBe(200);
    expect(text.slice(0, cut.keptEnd)).toBe(lines.slice(0, 200).join('\n'));
    expect(cut.firstUnreadLine).toBe(200);
    expect(cut.midLine).toBe(false);
  });

  it('200 lines exactly are not cut; 201 are', () => {
    expect(computeCut(Array.from({ length: 200 }, (_, i) => line(i)).join('\n')).truncated).toBe(false);
    expect(computeCut(Array.from({ length: 201 }, (_, i) => line(i)).join('\n')).truncated).toBe(true);
  });

  it('cuts at the last newline at or before 25,000 characters', () => {
    const long = 'x'.repeat(299);
    const lines = Array.from({ length: 120 }, () => long); // 120 * 300 = 36,000 chars
    const text = lines.join('\n');
    const cut = computeCut(text);
    expect(cut.reason).toBe('chars');
    // Newlines sit at 299, 599, ...; the last one at or before 25,000 is at 24,899.
    expect(cut.keptEnd).toBe(24_899);
    expect(text[cut.keptEnd]).toBe('\n');
    expect(cut.keptLines).toBe(83);
    expect(cut.firstUnreadLine).toBe(83);
  });

  it('a newline exactly at 25,000 is still a valid cut', () => {
    const text = 'a'.repeat(25_000) + '\n' + 'b'.repeat(10);
    expect(computeCut(text).keptEnd).toBe(25_000);
  });

  it('falls back to 25,000 characters inside a single huge line', () => {
    const text = 'y'.repeat(30_000);
    const cut = computeCut(text);
    expect(cut.keptEnd).toBe(25_000);
    expect(cut.midLine).toBe(true);
    expect(cut.firstUnreadLine).toBe(0);
  });

  it('applies the line cut first, then the character cut', () => {
    const lines = Array.from({ length: 260 }, () => 'z'.repeat(199)); // 200 kept lines = 40,000 chars
    const cut = computeCut(lines.join('\n'));
    expect(cut.reason).toBe('lines+chars');
    expect(cut.keptEnd).toBe(24_999); // newline after line 125 (125 * 200 - 1)
  });

  it('counts from the trimmed text but reports offsets in the original', () => {
    const body = Array.from({ length: 201 }, (_, i) => line(i)).join('\n');
    const text = '\n\n\n' + body;
    const cut = computeCut(text);
    expect(cut.keptStart).toBe(3);
    expect(cut.keptLines).toBe(200);
    expect(text.slice(cut.keptStart, cut.keptEnd).split('\n')).toHaveLength(200);
    expect(cut.firstUnreadLine).toBe(203);
  });
});

describe('levelOf', () => {
  it('is ok below 80%, near from 80% to the limit, over past it', () => {
    expect(levelOf(159, 200)).toBe('ok');
    expect(levelOf(160, 200)).toBe('near');
    expect(levelOf(200, 200)).toBe('near');
    expect(levelOf(201, 200)).toBe('over');
    expect(levelOf(20_000, 25_000)).toBe('near');
  });
});

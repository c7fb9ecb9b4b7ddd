import { describe, expect, it } from 'vitest';
import { LineScanner, MAX_VALUE_BYTES } from '../../src/domain/sessions/lineScanner.js';
import { conversationLine, metadataLine, scanChunks, scanText, SID_A, SID_B, summaryLine } from './helpers.js';

const CWD = '/home/alice/src/webapp';

describe('LineScanner: well-formed lines', () => {
  it('reads cwd, sessionId and slug from a conversation line', () => {
    const records = scanText(conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'jolly-juggling-penguin' }));
    expect(records).toEqual([{ sessionId: SID_A, cwd: CWD, slug: 'jolly-juggling-penguin' }]);
  });

  it('gives no slug for lines written before plan mode, and the slug once it appears', () => {
    const text =
      conversationLine({ sessionId: SID_A, cwd: CWD }) +
      metadataLine(SID_A) +
      conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'fix-the-login-bug-snug-otter' });
    expect(scanText(text)).toEqual([
      { sessionId: SID_A, cwd: CWD, slug: null },
      { sessionId: SID_A, cwd: null, slug: null },
      { sessionId: SID_A, cwd: CWD, slug: 'fix-the-login-bug-snug-otter' },
    ]);
  });

  it('skips lines without a sessionId and junk without throwing', () => {
    const text = `${summaryLine()}not json at all\n{"cwd":"/x","slug":"a-b"}\n\n\u0000\u00ff"\\"\n`;
    expect(scanText(text)).toEqual([]);
  });

  it('decodes JSON escapes in cwd and keeps raw U+2028 inside a line', () => {
    const windows = 'C:\\Users\\c\\p "quoted" é';
    const content = 'line\u2028separator and "slug":"evil-slug" text';
    const records = scanText(conversationLine({ sessionId: SID_A, cwd: windows, slug: 'ok-slug', content }));
    expect(records).toEqual([{ sessionId: SID_A, cwd: windows, slug: 'ok-slug' }]);
    const escaped = '{"cwd":"/h\\u00e9/\\u2028x","sessionId":"' + SID_A + '"}\n';
    expect(scanText(escaped)).toEqual([{ sessionId: SID_A, cwd: '/hé/\u2028x', slug: null }]);
  });

  it('ignores keys that appear inside string content (they are escaped there)', () => {
    const content = `{"cwd":"/evil","sessionId":"${SID_B}","slug":"evil-slug"}`;
    const records = scanText(conversationLine({ sessionId: SID_A, cwd: CWD, content }));
    expect(records).toEqual([{ sessionId: SID_A, cwd: CWD, slug: null }]);
  });

  it('takes the last occurrence when nested objects carry the same keys', () => {
    const extra = { toolUseResult: { cwd: '/elsewhere', sessionId: SID_B, slug: 'nested-slug' } };
    const records = scanText(conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'real-slug', extra }));
    expect(records).toEqual([{ sessionId: SID_A, cwd: CWD, slug: 'real-slug' }]);
  });

  it('validates values: UUID sessionIds, slug grammar and length, absolute cwds', () => {
    const line = (cwd: string, sid: string, slug: string): string =>
      `{"cwd":${JSON.stringify(cwd)},"sessionId":"${sid}","slug":"${slug}"}\n`;
    const slug100 = `a${'-b'.repeat(49)}c`;
    expect(slug100).toHaveLength(100);
    expect(scanText(line(CWD, 'not-a-uuid', 'ok'))).toEqual([]);
    expect(scanText(line('relative/dir', SID_A, 'Bad-Slug'))).toEqual([{ sessionId: SID_A, cwd: null, slug: null }]);
    expect(scanText(line(CWD, SID_A, `${slug100}d`))).toEqual([{ sessionId: SID_A, cwd: CWD, slug: null }]);
    expect(scanText(line(CWD, SID_A, slug100))).toEqual([{ sessionId: SID_A, cwd: CWD, slug: slug100 }]);
    expect(scanText(line(CWD, SID_A, 'double--dash'))[0]?.slug).toBeNull();
  });

  it('ignores a value longer than MAX_VALUE_BYTES but accepts one exactly at the limit', () => {
    const atLimit = `/${'a'.repeat(MAX_VALUE_BYTES - 1)}`;
    const over = `${atLimit}b`;
    const line = (cwd: string): string => `{"cwd":"${cwd}","sessionId":"${SID_A}"}\n`;
    expect(scanText(line(atLimit))).toEqual([{ sessionId: SID_A, cwd: atLimit, slug: null }]);
    expect(scanText(line(over))).toEqual([{ sessionId: SID_A, cwd: null, slug: null }]);
  });
});

describe('LineScanner: torn lines', () => {
  const full = conversationLine({ sessionId: SID_B, cwd: '/work/b', slug: 'good-slug' });
  const tornSource = conversationLine({ sessionId: SID_A, cwd: '/work/a', slug: 'torn-slug' });

  it('a partial line glued to a full line yields the full line only', () => {
    for (const cut of [20, tornSource.indexOf('"cwd"') + 12, tornSource.indexOf('"slug"') + 10, tornSource.length - 3]) {
      const records = scanText(tornSource.slice(0, cut) + full);
      expect(records, `cut at ${cut}`).toEqual([{ sessionId: SID_B, cwd: '/work/b', slug: 'good-slug' }]);
    }
  });

  it('does not take a torn slug that sits before the last sessionId', () => {
    const fragment = tornSource.slice(0, tornSource.length - 2); // everything up to the slug's closing quote
    expect(scanText(fragment + metadataLine(SID_B))).toEqual([{ sessionId: SID_B, cwd: null, slug: null }]);
  });

  it('takes cwd only between the previous sessionId and the last one', () => {
    const fragment = tornSource.slice(0, tornSource.indexOf('"version"'));
    // The fragment's own cwd < sessionId pair is intact and nothing after it names a session.
    expect(scanText(fragment + summaryLine())).toEqual([{ sessionId: SID_A, cwd: '/work/a', slug: null }]);
    // A metadata line after it has a sessionId but no cwd: the fragment's cwd precedes an earlier sessionId.
    expect(scanText(fragment + metadataLine(SID_B))).toEqual([{ sessionId: SID_B, cwd: null, slug: null }]);
  });

  it('recovers on the next line after an unterminated value', () => {
    const text = `{"cwd":"/never/closed${'x'.repeat(100)}\n${full}`;
    expect(scanText(text)).toEqual([{ sessionId: SID_B, cwd: '/work/b', slug: 'good-slug' }]);
  });
});

describe('LineScanner: streaming', () => {
  it('reports completed bytes up to the last newline and finishes the tail only on end()', () => {
    const line = conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'tail-slug' });
    const data = Buffer.from(line + line.slice(0, 50));
    const scanner = new LineScanner();
    expect(scanner.feed(data)).toHaveLength(1);
    expect(scanner.stats.completedBytes).toBe(Buffer.byteLength(line));
    expect(scanner.stats.bytesFed).toBe(data.length);
    expect(scanner.end()).toEqual([]); // the tail has no sessionId yet
    expect(scanner.stats.completedBytes).toBe(data.length);
  });

  it('finds keys split across one-byte chunks', () => {
    const data = Buffer.from(conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'split-slug' }));
    expect(scanChunks(data, [1])).toEqual([{ sessionId: SID_A, cwd: CWD, slug: 'split-slug' }]);
  });

  it('holds no more than a key and one value of a 5 MB line fed in 256 KiB chunks', () => {
    const big = 'y'.repeat(5 * 1024 * 1024);
    const bogusValue = `"cwd":"/${'z'.repeat(5 * 1024 * 1024)}`; // never closed before the real keys follow
    const line = (extra: Record<string, unknown>): string =>
      conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'big-slug', content: big, extra });
    for (const text of [line({}), `{${bogusValue}${line({}).slice(1)}`]) {
      const scanner = new LineScanner();
      const data = Buffer.from(text);
      const records = [];
      for (let at = 0; at < data.length; at += 256 * 1024) records.push(...scanner.feed(data.subarray(at, at + 256 * 1024)));
      expect(records).toEqual([{ sessionId: SID_A, cwd: CWD, slug: 'big-slug' }]);
      expect(scanner.stats.maxRetainedBytes).toBeLessThanOrEqual(MAX_VALUE_BYTES + 13);
    }
  });

  it('can be reset and reused', () => {
    const scanner = new LineScanner();
    scanner.feed(Buffer.from('{"cwd":"/half'));
    scanner.reset();
    const records = scanner.feed(Buffer.from(conversationLine({ sessionId: SID_A, cwd: CWD })));
    expect(records).toEqual([{ sessionId: SID_A, cwd: CWD, slug: null }]);
    expect(scanner.stats.bytesFed).toBe(Buffer.byteLength(conversationLine({ sessionId: SID_A, cwd: CWD })));
  });
});

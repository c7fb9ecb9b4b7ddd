import { describe, expect, it } from 'vitest';
import { LineScanner, MAX_VALUE_BYTES, TAIL_WINDOW_BYTES } from '../../src/domain/sessions/lineScanner.js';
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

describe('LineScanner: lines that end alike', () => {
  it('reads a line again when the same end follows a key that swallows its first quote', () => {
    // The first line settles from its end; the second ends with the same bytes, but there the quote
    // before "cwd" closes a cwd key of its own, so the cwd key after it is a value's end, not a key.
    const end = `","cwd":"/home/u/p","sessionId":"${SID_A}","version":"2.1.329","gitBranch":"main","slug":"jolly-otter"}`;
    // The byte before that quote is the same in the second and third lines: the key starts further back.
    // So is everything but the key's first byte in the last two: the longest key starts 12 bytes back.
    const lines = [
      `{"type":"user","entrypoint":"cli${end}`, `{"a":"cwd":${end}`, `{"x":${end}`, `{"a":"cwd":${end}`,
      `{"ysessionId":${end}`, `{"a":"sessionId":${end}`,
    ];
    expect(scanChunks(Buffer.from(`${lines.join('\n')}\n`), undefined, { probeBytes: 8 })).toEqual([
      { sessionId: SID_A, cwd: '/home/u/p', slug: 'jolly-otter' },
      { sessionId: SID_A, cwd: null, slug: 'jolly-otter' },
      { sessionId: SID_A, cwd: '/home/u/p', slug: 'jolly-otter' },
      { sessionId: SID_A, cwd: null, slug: 'jolly-otter' },
      { sessionId: SID_A, cwd: '/home/u/p', slug: 'jolly-otter' },
      { sessionId: SID_A, cwd: null, slug: 'jolly-otter' },
    ]);
  });
});

describe('LineScanner: a line shorter than the end the last one settled', () => {
  it('is parsed on its own, whole or joined from chunks', () => {
    const end = `","cwd":"/home/u/${'p'.repeat(80)}","sessionId":"${SID_A}","version":"2.1.329","gitBranch":"main","slug":"jolly-otter"}`;
    const settled = `{"type":"user","entrypoint":"cli${end}`;
    const short = `{"x":"sessionId":"${SID_B}"}`;
    expect(short.length).toBeLessThan(end.length);
    const data = Buffer.from(`${settled}\n${short}\n`);
    const expected = [
      { sessionId: SID_A, cwd: `/home/u/${'p'.repeat(80)}`, slug: 'jolly-otter' },
      { sessionId: SID_B, cwd: null, slug: null },
    ];
    // Whole, then with the short line arriving in two chunks (so it is scanned from the kept tail).
    for (const sizes of [[data.length], [settled.length + 10, data.length]]) {
      expect(scanChunks(data, sizes, { probeBytes: 8 })).toEqual(expected);
    }
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

describe('LineScanner: long lines and the tail window', () => {
  const MB = 1024 * 1024;

  it('finds the keys at the end of a 5 MB line, but not a key 1 MB before its end', () => {
    const end = conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'end-of-line' });
    const atEnd = `{"data":"${'x'.repeat(5 * MB)}",${end.slice(1)}`;
    expect(scanChunks(Buffer.from(atEnd), [256 * 1024])).toEqual([{ sessionId: SID_A, cwd: CWD, slug: 'end-of-line' }]);
    // The same keys followed by 1 MB more of the line: they are outside its last TAIL_WINDOW_BYTES.
    const early = `{"cwd":"${CWD}","sessionId":"${SID_A}","slug":"early-slug","data":"${'x'.repeat(4 * MB)}","more":"${'y'.repeat(MB)}"}\n`;
    expect(Buffer.byteLength(early)).toBeGreaterThan(5 * MB);
    expect(scanChunks(Buffer.from(early), [256 * 1024])).toEqual([]);
    expect(scanChunks(Buffer.from(early + end), [7, 256 * 1024])).toEqual([{ sessionId: SID_A, cwd: CWD, slug: 'end-of-line' }]);
  });

  it('reads a line of exactly TAIL_WINDOW_BYTES whole, and drops a key starting one byte before the window', () => {
    const keys = `"cwd":"${CWD}","sessionId":"${SID_A}"}`;
    const exact = `{"p":"${'p'.repeat(TAIL_WINDOW_BYTES - keys.length - 8)}",${keys}`;
    expect(exact).toHaveLength(TAIL_WINDOW_BYTES);
    expect(scanText(`${exact}\n`)).toEqual([{ sessionId: SID_A, cwd: CWD, slug: null }]);
    const keysFirst = (pad: number): string => `${keys.slice(0, -1)},"p":"${'p'.repeat(pad)}"}`;
    expect(keysFirst(TAIL_WINDOW_BYTES - keys.length - 7)).toHaveLength(TAIL_WINDOW_BYTES);
    expect(scanText(`${keysFirst(TAIL_WINDOW_BYTES - keys.length - 7)}\n`)).toEqual([{ sessionId: SID_A, cwd: CWD, slug: null }]);
    const over = keysFirst(TAIL_WINDOW_BYTES - keys.length - 6);
    expect(over).toHaveLength(TAIL_WINDOW_BYTES + 1);
    // The `"cwd":"` key begins at the line's first byte, just outside the window; the sessionId is inside.
    expect(scanText(`${over}\n`)).toEqual([{ sessionId: SID_A, cwd: null, slug: null }]);
  });

  it('keeps the answer of a whole-line scan when it only needs the end of the line', () => {
    // A value that closes on the first quote of the next key hides that key; a shortcut that started
    // parsing after the escaped quote would see a cwd that a left-to-right parse never reaches.
    const line = `{"cwd":"\\"${'"'}cwd":"/x""sessionId":"${SID_A}"}\n`;
    const expected = [{ sessionId: SID_A, cwd: null, slug: null }];
    for (let probeBytes = 1; probeBytes <= line.length; probeBytes++) {
      expect(scanChunks(Buffer.from(line), undefined, { probeBytes }), `probe ${probeBytes}`).toEqual(expected);
    }
    // A conversation line with a long cwd is settled only by a suffix reaching back to its cwd key.
    const longCwd = `/${'d'.repeat(3000)}`;
    const long = conversationLine({ sessionId: SID_A, cwd: longCwd, slug: 'long-cwd', content: 'z'.repeat(20_000) });
    expect(scanText(metadataLine(SID_B) + long)).toEqual([
      { sessionId: SID_B, cwd: null, slug: null },
      { sessionId: SID_A, cwd: longCwd, slug: 'long-cwd' },
    ]);
  });

  it('holds only the part of an unfinished line that can still matter', () => {
    const scanner = new LineScanner();
    scanner.feed(Buffer.from(`{"data":"${'x'.repeat(MB)}`));
    expect(scanner.stats.maxRetainedBytes).toBe(0);
    scanner.feed(Buffer.from(`","cwd":"${CWD}","sessionId":"`));
    expect(scanner.stats.maxRetainedBytes).toBe(Buffer.byteLength(`"cwd":"${CWD}","sessionId":"`));
    expect(scanner.feed(Buffer.from(`${SID_A}"}\n`))).toEqual([{ sessionId: SID_A, cwd: CWD, slug: null }]);
  });

  it('rejects a window or probe that is not a positive integer', () => {
    expect(() => new LineScanner({ tailWindowBytes: 0 })).toThrow(RangeError);
    expect(() => new LineScanner({ probeBytes: 1.5 })).toThrow(RangeError);
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

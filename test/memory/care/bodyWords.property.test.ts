// bodyWords() is the duplicate-fact fingerprint's text, computed a line at a time with an ASCII shortcut; the
// definition is one split over the whole text. For any text they must agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyWords } from '../../../src/domain/memory/care/fileFacts.js';

const definition = (text: string): string => text.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '').join(' ');

const text = fc.array(fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('word', 'Two Words', 'x_y', '42', 'über', 'ΟΔΟΣ', '日本', 'é\u0301', '—', '→', '\u00a0', '\ufeff', '\u2028', '😀', '\ud800') },
  { weight: 2, arbitrary: fc.constantFrom('\n', '\r\n', ' ', '\t', '-', '.', '\n\n', '  \n') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
), { maxLength: 60 }).map((parts) => parts.join(''));

describe('bodyWords', () => {
  it('gives the words of the whole text joined by one space, however its lines fall', () => {
    fc.assert(fc.property(text, (t) => {
      expect(bodyWords(t)).toBe(definition(t));
    }), { numRuns: 5000 });
  });

  it('treats underscores and ASCII punctuation as separators on ASCII lines, as the Unicode classes do', () => {
    const t = 'a_b c-d\ne.f,g\r\n\t 12__34 !\n';
    expect(bodyWords(t)).toBe(definition(t));
    expect(bodyWords(t)).toBe('a b c d e f g 12 34');
  });
});

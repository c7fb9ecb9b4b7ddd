// Words as the ranked search sees them: the index, the query and the snippets split and fold text with these
// two functions, so a word found in the index is always found again in the raw file when snippets are cut.
import { foldCase, isAscii } from '../fold.js';

/** A run of letters, digits or underscores (any script): `plan-memory.md` is three words. */
const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * The service's case folding (fold.ts), then accents dropped (`Café` and `cafe` are one term): the same
 * search box finds a word however it was typed.
 */
export function foldTerm(word: string): string {
  const folded = foldCase(word);
  // ASCII needs no decomposition: the common case skips normalize().
  return isAscii(folded) ? folded : withoutMarks(folded.normalize('NFD'));
}

const MARK = /\p{M}/u;
/**
 * By code unit below U+10000: 0 not met yet, 1 a combining mark (\p{M}), 2 not one. Filled as the
 * characters are met, one regex test each: the whole table built at once was one long step of whatever
 * folded the first accent (docs/decisions.md, D46).
 */
const bmpMarks = new Uint8Array(0x10000);

/**
 * `text.replace(/\p{M}+/gu, '')`, the definition, which test/find/terms.property.test.ts holds this to.
 * Snippets fold each line of a file's head that is not ASCII, and on text with a few accents per line that
 * regex took most of the folding time (docs/decisions.md, D43): here a code unit below U+0300 costs one
 * compare.
 */
export function withoutMarks(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x300) continue;
    if (code >= 0xd800 && code <= 0xdbff) {
      const point = text.codePointAt(i)!;
      if (point > 0xffff) {
        if (MARK.test(String.fromCodePoint(point))) {
          out += text.slice(from, i);
          from = i + 2;
        }
        i++;
        continue;
      }
    }
    const known = bmpMarks[code]!;
    if (known === 1 || (known === 0 && learnMark(code))) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Whether the code unit is a combining mark, noted in bmpMarks. */
function learnMark(code: number): boolean {
  const mark = MARK.test(String.fromCharCode(code));
  bmpMarks[code] = mark ? 1 : 2;
  return mark;
}

/**
 * Scripts written without spaces between words: a run of their letters is many words, which only a
 * dictionary tells apart (`ローカル統合計画を作成する` is ローカル|統合|計画|を|作成|する).
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

let segmenter: Intl.Segmenter | null = null;

/**
 * The words of `text`, unfolded, with their offsets in it. Runs holding a script without spaces are cut by
 * Intl.Segmenter (the platform's ICU dictionaries); the index, the query and the snippets all cut here, so a
 * word of a query is a word of the text it was found in.
 */
export function* words(text: string): Generator<{ word: string; start: number; end: number }> {
  for (const match of text.matchAll(WORD)) {
    const run = match[0];
    if (!UNSPACED.test(run)) {
      yield { word: run, start: match.index, end: match.index + run.length };
      continue;
    }
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
    for (const piece of segmenter.segment(run)) {
      // Inside a run of letters and digits every piece is a word but a lone underscore between scripts.
      if (!piece.isWordLike) continue;
      const start = match.index + piece.index;
      yield { word: piece.segment, start, end: start + piece.segment.length };
    }
  }
}

/**
 * terms() of a long text a piece at a time, with `between()` awaited between pieces: the pieces end at
 * newlines, which no word crosses, so the result is terms(text)'s.
 */
export async function termsInPieces(text: string, pieceChars: number, between: () => Promise<void>): Promise<string[]> {
  const out: string[] = [];
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start + pieceChars);
    const end = newline === -1 ? text.length : newline + 1;
    for (const term of terms(text.slice(start, end))) out.push(term);
    start = end;
    if (start < text.length) await between();
  }
  return out;
}

/** The folded terms of `text`, in order (what the index stores). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const { word } of words(text)) {
    const term = foldTerm(word);
    if (term !== '') out.push(term);
  }
  return out;
}

// cutSnippets counts words only on the lines that can win (see snippets.ts); the definition is every line
// cut into words. Both must pick the same lines with the same ranges, for any text and any matched terms;
// and a text's start that settles its snippets (settledSnippets) must give the whole text's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutSnippets, MAX_SNIPPETS, SCAN_CHARS, settledSnippets, type MatchedGroups } from '../../src/domain/find/snippets.js';
import { decodeInPieces } from '../../src/domain/files.js';
import { foldTerm, words } from '../../src/domain/find/terms.js';

/**
 * The definition: every line's words folded, the query words they hold counted (a word is held when one of
 * its group's terms is there), best lines first, earlier first among equals.
 */
function reference(text: string, groups: MatchedGroups, firstLine = 1): { line: number; ranges: [number, number][] }[] {
  const candidates: { line: number; ranges: [number, number][]; distinct: number }[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const ranges: [number, number][] = [];
    const seen = new Set<number>();
    for (const word of words(line)) {
      const term = foldTerm(word.word);
      const held = groups.flatMap((group, i) => (group.includes(term) ? [i] : []));
      if (held.length === 0) continue;
      ranges.push([word.start, word.end]);
      for (const i of held) seen.add(i);
    }
    if (ranges.length > 0) candidates.push({ line: i + firstLine, ranges, distinct: seen.size });
  });
  candidates.sort((a, b) => b.distinct - a.distinct || a.line - b.line);
  return candidates.slice(0, MAX_SNIPPETS).sort((a, b) => a.line - b.line).map(({ line, ranges }) => ({ line, ranges }));
}

// Words that fold into each other (case, accents, final sigma, dotted I, decomposed marks), and others.
const VOCABULARY = ['cafe', 'Café', 'CAFÉ', 'cafe\u0301', 'ΟΔΟΣ', 'οδος', 'İstanbul', 'istanbul', 'test', 'testing', 'Tests', 'x_y', 'naïve', 'naive', 'ß', 'SS', '日本', '42'];
const SEPARATORS = [' ', '  ', '\n', '\r\n', '-', '.', ', ', '\t', '\n\n', '—', '😀'];
// Many short lines: enough of them compete for the best three, and ties between bounds and counts occur.
const text = fc.array(fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...VOCABULARY) },
  { weight: 2, arbitrary: fc.constantFrom('\n', '\n', '\r\n') },
  { weight: 2, arbitrary: fc.constantFrom(...SEPARATORS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
), { maxLength: 120 }).map((parts) => parts.join(''));
// All ASCII: such a text (or piece of one) is folded whole, not line by line.
const asciiText = fc.array(fc.constantFrom('cafe', 'CAFE', 'test', 'Testing', 'TESTS', 'x_y', 'SS', '42', ' ', '\n', '\r\n', '-', '\t'), { maxLength: 120 }).map((parts) => parts.join(''));
const TERMS = [...new Set([...VOCABULARY.map(foldTerm), 'tes', 'caf'])];
// One to three query words, each with the terms it matched (a term may match two words, as a prefix can).
const matched = fc.array(fc.uniqueArray(fc.constantFrom(...TERMS), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });

describe('cutSnippets', () => {
  it('picks the lines and ranges the word-by-word definition picks', () => {
    fc.assert(fc.property(fc.oneof(text, asciiText), matched, fc.integer({ min: 1, max: 3 }), (t, m, first) => {
      const got = cutSnippets(t, m, first);
      const want = reference(t, m, first);
      expect(got.map((s) => s.line)).toEqual(want.map((s) => s.line));
      // Short lines are whole in a snippet: their ranges are the definition's.
      for (const [i, s] of got.entries()) if (s.text.length === t.split('\n')[s.line - first]!.replace(/\r$/, '').length) expect(s.ranges).toEqual(want[i]!.ranges);
    }), { numRuns: 3000 });
  });

  it('lets an earlier line in when later ones were over-counted (a term inside a longer word)', () => {
    // Lines 3-5 hold "caf" only inside "cafeteria": their bound is 2, their count 1, like lines 1 and 2.
    const t = 'test\ntest\ncafeteria test\ncafeteria test\ncafeteria test';
    const m = [['test'], ['caf']];
    expect(cutSnippets(t, m).map((s) => s.line)).toEqual(reference(t, m).map((s) => s.line));
    expect(cutSnippets(t, m).map((s) => s.line)).toEqual([1, 2, 3]);
  });

  it('counts query words, not matched terms: a word matched twice counts once', () => {
    // "test" and "testing" are one query word's matches; line 3 holds both query words.
    const m = [['test', 'testing'], ['cafe']];
    expect(cutSnippets('test testing\ntesting\ncafe test\ntest', m).map((s) => s.line)).toEqual([1, 2, 3]);
    expect(cutSnippets('a\ntest testing\ncafe test\ntest\ncafe', m, 1)[0]!.line).toBe(2);
  });

  it('settles from a text\'s start only what the whole text gives', () => {
    fc.assert(fc.property(text, matched, fc.nat(), (t, m, cut) => {
      const settled = settledSnippets(t.slice(0, cut % (t.length + 1)), m);
      if (settled !== null) expect(settled).toEqual(cutSnippets(t, m));
    }), { numRuns: 3000 });
    // Three lines with every query word settle it; fewer do not.
    expect(settledSnippets('test cafe\ncafe test\ntest cafe\n', [['test'], ['cafe']])?.map((s) => s.line)).toEqual([1, 2, 3]);
    expect(settledSnippets('test cafe\ncafe test\ntest\n', [['test'], ['cafe']])).toBeNull();
    // The line the start cuts is not looked at.
    expect(settledSnippets('test cafe\ncafe test\ntest cafe', [['test'], ['cafe']])).toBeNull();
  });
});

/** `t` cut just after some of its newlines (the pieces files.ts reads a head in); `cuts` picks which. */
function piecesOf(t: string, cuts: number[]): string[] {
  const newlines = [...t.matchAll(/\n/g)].map((m) => m.index + 1);
  const at = [...new Set(cuts.map((c) => newlines[c % Math.max(1, newlines.length)]).filter((n): n is number => n !== undefined))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const end of at) {
    if (end > start) pieces.push(t.slice(start, end));
    start = end;
  }
  if (start < t.length || pieces.length === 0) pieces.push(t.slice(start));
  return pieces;
}

describe('snippets of a text in pieces', () => {
  it('are the joined text\'s, settled or not, wherever the pieces are cut', () => {
    fc.assert(fc.property(fc.oneof(text, asciiText), matched, fc.array(fc.nat(), { maxLength: 8 }), fc.nat(), (t, m, cuts, headCut) => {
      const pieces = piecesOf(t, cuts);
      expect(pieces.join('')).toBe(t);
      expect(cutSnippets(pieces, m)).toEqual(cutSnippets(t, m));
      const head = t.slice(0, headCut % (t.length + 1));
      expect(settledSnippets(piecesOf(head, cuts), m)).toEqual(settledSnippets(head, m));
      // Pieces that break the rule (one not ending with a newline) are joined first, never misread.
      const broken = [t.slice(0, headCut % (t.length + 1)), t.slice(headCut % (t.length + 1))];
      expect(cutSnippets(broken, m)).toEqual(cutSnippets(t, m));
    }), { numRuns: 3000 });
  });

  it('stop where the text\'s first SCAN_CHARS stop, in whichever piece that is', () => {
    const line = 'filler words here\n';
    const lines = Math.ceil(SCAN_CHARS / line.length) + 50;
    // Matches before the limit, one straddling it, and one past it.
    const at = Math.floor(SCAN_CHARS / line.length);
    const all = Array.from({ length: lines }, (_, i) => (i === 3 || i === at || i === at + 10 ? 'test cafe here\n' : line));
    const t = all.join('');
    for (const size of [1000, 16 * 1024, SCAN_CHARS - 1, SCAN_CHARS + 7]) {
      const pieces = decodeInPieces(Buffer.from(t), size);
      expect(pieces.join('')).toBe(t);
      expect(cutSnippets(pieces, [['test'], ['cafe']])).toEqual(cutSnippets(t, [['test'], ['cafe']]));
    }
  });
});

describe('decodeInPieces', () => {
  const chunk = fc.oneof(fc.constantFrom('\n', '\n', 'é', '日本', '😀', 'ab', '\r\n'), fc.string({ maxLength: 10 }), fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b).toString('latin1')));
  it('gives the text decoded at once, each piece but the last ending with a newline', () => {
    fc.assert(fc.property(fc.array(chunk, { maxLength: 60 }), fc.boolean(), fc.integer({ min: 1, max: 40 }), (parts, raw, size) => {
      // Raw bytes too (torn UTF-8 sequences, lone continuation bytes): decoded the same either way.
      const bytes = raw ? Buffer.from(parts.join(''), 'latin1') : Buffer.from(parts.join(''));
      const pieces = decodeInPieces(bytes, size);
      expect(pieces.join('')).toBe(bytes.toString('utf8'));
      for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('\n')).toBe(true);
      expect(pieces.every((piece) => piece.length > 0)).toBe(true);
    }), { numRuns: 3000 });
  });
});

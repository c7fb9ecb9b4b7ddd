// The literal plan search (GET /api/search) keeps each plan's folded text as UTF-8 bytes and looks for the
// needle's bytes in them. Pinned here to its definition on strings: a plan matches when its folded text
// contains the folded query, whatever the text holds (astral characters, final sigma, text that was not
// valid UTF-8 on disk) and whatever the query holds (lone surrogates included).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase } from '../../src/domain/fold.js';
import { foldedText, foldRecord, type PlanFileRecord } from '../../src/domain/plans/planFile.js';
import { searchPlans } from '../../src/domain/plans/planSearch.js';
import { buildTrigramBloom } from '../../src/domain/search/trigramBloom.js';

// Characters where folding or encoding could part the two definitions.
const tricky = fc.constantFrom('Σ', 'ς', 'σ', 'İ', 'ß', 'é', 'e\u0301', '😀', '\uFFFD', '\uD800', '\uDC00', 'a', 'A', ' ', '\n');
const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), tricky);
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

function record(content: string, i: number, prepared: boolean): PlanFileRecord {
  const bytes = Buffer.from(content, 'utf8');
  const r: PlanFileRecord = {
    filename: `p${i}.md`, filepath: `/nowhere/p${i}.md`, title: '', size: bytes.length, modifiedMs: 0, ino: 0,
    modified: '', created: '', lineCount: 0, wordCount: 0, bytes, folded: null, bloom: null,
  };
  if (prepared) r.bloom = buildTrigramBloom(foldRecord(r));
  return r;
}

/** The definition: the file's text as read (invalid UTF-8 decoded as U+FFFD), folded, contains the folded query. */
function expected(contents: readonly string[], q: string): string[] {
  if (q.length === 0) return [];
  const needle = foldCase(q);
  return contents.flatMap((c, i) => (foldCase(Buffer.from(c, 'utf8').toString('utf8')).includes(needle) ? [`p${i}.md`] : []));
}

describe('searchPlans', () => {
  it('finds exactly the plans whose folded text contains the folded query, filters built or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        fc.oneof(piece, text, fc.nat(5).chain((i) => fc.nat(12).map((n) => ({ of: i, n })))),
        async (contents, prepared, query) => {
          // A query is often a piece of one of the texts, so that most runs have hits to compare.
          const q = typeof query === 'string' ? query : (contents[query.of % contents.length] ?? '').slice(query.n, query.n + 4);
          const records = contents.map((c, i) => record(c, i, prepared[i]!));
          expect(await searchPlans(records, q)).toEqual(expected(contents, q));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps the folded text as the UTF-8 of the folded string', () => {
    fc.assert(
      fc.property(text, (content) => {
        const r = record(content, 0, false);
        expect(foldedText(r).toString('utf8')).toBe(foldCase(Buffer.from(content, 'utf8').toString('utf8')));
      }),
      { numRuns: 500 },
    );
  });
});

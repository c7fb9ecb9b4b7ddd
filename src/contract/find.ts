// GET /api/find (an extension beyond interface 1.4.0): the ranked search over plans, memory entries and
// sessions. Same conventions as endpoints.ts: one TypeBox schema drives validation, the OpenAPI document
// and the types the domain and the UI import.
import {
  Array as TArray, Integer, Literal, Number as TNumber, Object as TObject, String as TString, Union, Unsafe, type Static,
} from 'typebox';
import { errors } from './endpoints.js';

const Type = { Array: TArray, Integer, Literal, Number: TNumber, Object: TObject, String: TString, Union, Unsafe } as const;

// OpenAPI 3.0 has no tuples: a pair is an array of exactly two integers.
const Range = Type.Unsafe<[number, number]>({ type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 });

export const FindSnippetSchema = Type.Object({
  line: Type.Integer({ minimum: 1, description: '1-based line in the raw file (for a session, in its log)' }),
  text: Type.String({ description: 'A short window of that line, exactly as in the file' }),
  ranges: Type.Array(Range, { description: '[start, end) character offsets of the matched words in text' }),
}, { additionalProperties: false });

export const FindResultSchema = Type.Object({
  kind: Type.Union([Type.Literal('plan'), Type.Literal('memory'), Type.Literal('session')]),
  id: Type.String({ description: 'A plan: its file name (listed, or archived when no longer on disk); a memory entry: its id; a session: its id' }),
  title: Type.String(),
  project: Type.Unsafe<string | null>({ type: 'string', nullable: true, description: 'Project name, when known' }),
  modified: Type.String({ description: 'Last modification (a session: its last line\'s time)' }),
  score: Type.Number({ description: 'Relevance (BM25 with field boosts); higher is better' }),
  snippets: Type.Array(FindSnippetSchema, { description: 'Up to 3' }),
}, { additionalProperties: false });

export const findEndpoints = {
  find: {
    summary: 'Ranked search over plans, memory entries and sessions (extension)',
    description: [
      'An extension beyond interface 1.4.0. Searches plans (title, file name, project, content), archived plans (title, file name),',
      'memory entries (name, description, content) and sessions (title, first and last prompt). Ranked by BM25 with field',
      'boosts (title and name above description above content), newer first among equals. All words must match; the last',
      'word also matches as a prefix unless the query ends with a space; words of 5 or more letters also match with one typo',
      '(a wrong, missing or extra letter, or two letters swapped); "quoted phrases" match as written. Case and accents are',
      'folded. Filters: project:NAME, type:user|feedback|project|reference, in:plans|memory|sessions,',
      'after:YYYY-MM-DD (modified on or after), before:YYYY-MM-DD (modified before); a value may be quoted. The index is built',
      'in the background after start: until it is complete, answers hold what it has so far.',
    ].join(' '),
    querystring: Type.Object({
      q: Type.String({ default: '', maxLength: 1000, description: 'The query. Empty: no results.' }),
      limit: Type.String({ default: '20', pattern: '^(100|[1-9][0-9]?)$', description: 'Results per page, 1 to 100' }),
      offset: Type.String({ default: '0', pattern: '^(0|[1-9][0-9]{0,3})$', description: 'Results to skip, 0 to 9999' }),
    }),
    response: {
      200: Type.Object({
        total: Type.Integer({ description: 'How many results match in all' }),
        results: Type.Array(FindResultSchema),
      }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden,
    },
  },
} as const;

export type FindSnippet = Static<typeof FindSnippetSchema>;
export type FindResultBody = Static<typeof FindResultSchema>;
export type FindBody = Static<(typeof findEndpoints)['find']['response'][200]>;

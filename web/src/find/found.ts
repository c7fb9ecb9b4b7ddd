// What GET /api/find answers, as the UI uses it: the palette, and the plans and memory search boxes.
import { words } from '../../../src/domain/find/terms';
import type { FindBody } from '../api/types';
import { findMatches } from '../search/match';

export type FindHit = FindBody['results'][number];
export type FindSnippetView = FindHit['snippets'][number];

/**
 * The text a document opened from the palette is searched for: the words of the palette's query (its filters
 * such as `in:memory` left out), so the list and the reader mark every word the result was found by; the
 * snippet's matched text when the query has no words, or none the snippet holds as typed.
 */
export function landingQuery(query: string, snippet: FindSnippetView | undefined): string {
  const plain = query.split(/\s+/).filter((token) => !/^-?[a-z]+:/i.test(token)).join(' ');
  const list = [...words(plain)].map((w) => w.word);
  const typed = list.join(' ');
  // A word found by a typo or a prefix is not in the text as typed: the snippet's own words mark it then.
  if (typed === '' || (snippet !== undefined && findMatches(snippet.text, list).length === 0)) return landingText(snippet);
  return typed;
}

/**
 * What the reader should look for to land on the snippet's line: the matched words as written there when
 * they stand together (a literal piece of the line), else the first matched word.
 */
export function landingText(snippet: FindSnippetView | undefined): string {
  const first = snippet?.ranges[0];
  if (snippet === undefined || first === undefined) return '';
  const last = snippet.ranges[snippet.ranges.length - 1]!;
  const span = snippet.text.slice(first[0], last[1]);
  return /^[\p{L}\p{N}_ ]+$/u.test(span) ? span : snippet.text.slice(first[0], first[1]);
}

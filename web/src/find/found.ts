// What GET /api/find answers, as the UI uses it: the palette, and the plans and memory search boxes.
import type { FindBody } from '../api/types';

export type FindHit = FindBody['results'][number];
export type FindSnippetView = FindHit['snippets'][number];

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

// Markup rewriting that keeps a strict CSP (`style-src 'self'`, no 'unsafe-inline') quiet.

/**
 * style="…" inside the tags of serialized markup becomes data-pmv-style="…" (re-applied later through
 * CSSOM). Chrome applies the page's CSP to documents made by DOMParser too, so parsing markup that has
 * style attributes would be a violation. Text is left alone: in serialized markup `<` and `>` in text
 * are escaped, so every `<…>` span is a tag.
 */
export function neutralizeStyleAttributes(markup: string): string {
  return markup.replace(/<[a-zA-Z][^<>]*>/g, (tag) => tag.replace(/(\s)style=(["'])/g, '$1data-pmv-style=$2'));
}

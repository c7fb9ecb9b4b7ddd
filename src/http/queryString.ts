// The query string parser of every route (fastify's `routerOptions.querystringParser`). Security rule 7:
// decode once, and a bad escape is a 400, not a guess. Node's `querystring.parse`, fastify's default,
// keeps `%zz` as it is and turns invalid UTF-8 (`%ff`) into U+FFFD, so `?id=%zz` was looked up (404) and
// `?q=%ff` searched for a character nobody wrote (200).

/** What the parser returns for a query it cannot decode; the onRequest hook answers it with a 400. */
export const MALFORMED_QUERY: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>);

/**
 * `a=1&b=x+y&a=2` -> { a: ['1', '2'], b: 'x y' }, like `querystring.parse` (a repeated key gives an array,
 * `+` is a space, a key without `=` has the value ''), into an object without a prototype so `__proto__`
 * is just a key. Escapes are decoded as `decodeURIComponent` does, which the router also applies to path
 * parameters: a `%` not followed by two hex digits, or escapes that are not UTF-8 (overlong forms,
 * surrogates, `%ff`), make the whole query MALFORMED_QUERY. It never throws: the router calls it outside
 * any handler, where an exception would escape the request.
 */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  if (text === '') return query;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    if (key === null || value === null) return MALFORMED_QUERY;
    const previous = query[key];
    if (previous === undefined) query[key] = value;
    else if (typeof previous === 'string') query[key] = [previous, value];
    else previous.push(value);
  }
  return query;
}

function decode(text: string): string | null {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

// What model usage costs, in US dollars per million tokens, from Anthropic's published API prices as of
// 2026-11 (docs/decisions.md, D61). Matched by the model id's family; a model not in the table is counted in
// tokens but not priced (its cost is null, and the totals say how many tokens went unpriced).

export interface Price {
  input: number;
  output: number;
  /** Writing the prompt cache (5-minute entries, what Claude Code uses). */
  cacheWrite: number;
  cacheRead: number;
}

export const PRICES_AS_OF = '2026-11';

/** First match wins: the newer families before the older ones they share a prefix with. */
const TABLE: readonly [RegExp, Price][] = [
  [/^claude-opus-4-(?:[5-9]|\d{2,})/, { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  [/^claude-opus-4/, { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  [/^claude-3-opus/, { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  [/^claude-sonnet-4|^claude-3-[57]-sonnet/, { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  [/^claude-haiku-4/, { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  [/^claude-3-5-haiku/, { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
  [/^claude-3-haiku/, { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }],
];

export function priceOf(model: string): Price | null {
  for (const [pattern, price] of TABLE) if (pattern.test(model)) return price;
  return null;
}

export interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The dollars of these tokens of `model`, or null when the model has no price here. */
export function costOf(model: string, t: Tokens): number | null {
  const p = priceOf(model);
  if (p === null) return null;
  return (t.input * p.input + t.output * p.output + t.cacheWrite * p.cacheWrite + t.cacheRead * p.cacheRead) / 1_000_000;
}

// What an extractor sees of one transcript line: a JSON object read on demand. Two implementations give
// the same answers: TapeLine (tapeLine.ts) over the WebAssembly tokenizer's tape, fast, and ParsedLine
// (parsedLine.ts) over JSON.parse, the definition the property tests hold the tape to.
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'true' | 'false' | 'null';

export interface Span {
  start: number;
  end: number;
}

export interface NodeView {
  readonly kind: JsonKind;
  /** Where the value sits in its line (bytes, quotes and brackets included). */
  readonly span: Span;
  /** The string, cut to `maxChars` characters when given; null when this is no string. */
  str(maxChars?: number): string | null;
  num(): number | null;
  bool(): boolean | null;
  /** A member of an object (the last one of that name, as JSON.parse keeps it); null otherwise. */
  get(key: string): NodeView | null;
  /** The elements of an array ([] otherwise). */
  items(): NodeView[];
  /** Elements of an array or members of an object. */
  readonly length: number;
  /** The value as JSON.parse gives it. */
  json(): unknown;
}

export interface LineView {
  readonly byteLength: number;
  has(key: string): boolean;
  str(key: string, maxChars?: number): string | null;
  num(key: string): number | null;
  bool(key: string): boolean | null;
  kind(key: string): JsonKind | null;
  node(key: string): NodeView | null;
  /** The top-level keys in order (duplicates included). */
  keys(): string[];
  /** A member's value, or the whole line, as JSON.parse gives it. */
  json(key?: string): unknown;
}

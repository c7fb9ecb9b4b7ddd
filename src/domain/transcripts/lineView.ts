// What an extractor sees of one transcript line: a JSON object read on demand. Two implementations give
// the same answers: TapeLine (tapeLine.ts) over the WebAssembly tokenizer's tape, fast, and ParsedLine
// (parsedLine.ts) over JSON.parse, the definition the property tests hold the tape to.
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'true' | 'false' | 'null';

/**
 * A member name looked up on every line (`type`, `sessionId`, ...), with what the tape compares keys by
 * worked out once: extractors keep one per name (see fieldKey()) instead of passing the text each time.
 */
export class FieldKey {
  readonly bytes: Buffer;
  /** FNV-1a of its UTF-8 bytes, as the tokenizer hashes a key's raw bytes (jsonTape.wat). */
  readonly hash: number;
  /**
   * Whether a key names it exactly when its raw bytes are these: not when the name holds U+FFFD (bytes that
   * are no UTF-8 decode to it) or a lone surrogate (which no UTF-8 decodes to, and Buffer.from() writes as
   * U+FFFD): such a name is compared as decoded text.
   */
  readonly byBytes: boolean;

  constructor(readonly text: string) {
    this.bytes = Buffer.from(text, 'utf8');
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < this.bytes.length; i++) h = Math.imul(h ^ this.bytes[i]!, 16777619);
    this.hash = h;
    this.byBytes = !/\p{Cs}/u.test(text) && !text.includes('\uFFFD');
  }
}

export const fieldKey = (text: string): FieldKey => new FieldKey(text);

/** A member name: a FieldKey, or its text (looked up in a cache). */
export type Key = string | FieldKey;

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
  get(key: Key): NodeView | null;
  /** The elements of an array ([] otherwise). */
  items(): NodeView[];
  /** Elements of an array or members of an object. */
  readonly length: number;
  /** The value as JSON.parse gives it. */
  json(): unknown;
}

export interface LineView {
  readonly byteLength: number;
  has(key: Key): boolean;
  str(key: Key, maxChars?: number): string | null;
  num(key: Key): number | null;
  bool(key: Key): boolean | null;
  kind(key: Key): JsonKind | null;
  node(key: Key): NodeView | null;
  /** The top-level keys in order (duplicates included). */
  keys(): string[];
  /** A member's value, or the whole line, as JSON.parse gives it. */
  json(key?: string): unknown;
}

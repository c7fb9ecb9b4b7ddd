// A line as the tokenizer's tape describes it (jsonTape.wat): each answer reads the tokens it needs and
// decodes only the values asked for, the way JSON.parse of the whole line would give them (parsedLine.ts
// is that definition; test/transcripts/tape.property.test.ts holds the two to the same answers).
import type { JsonKind, LineView, NodeView, Span } from './lineView.js';
import { ParsedNode } from './parsedLine.js';

/** Where a line's tokens are: four int32 each (see jsonTape.wat), good while `generation` is the tape's. */
export interface TokenSource {
  readonly words: Int32Array;
  readonly generation: number;
}

const KINDS: readonly (JsonKind | null)[] = [null, 'object', 'array', 'string', 'number', 'true', 'false', 'null', null];
const OBJECT = 1;
const ARRAY = 2;
const STRING = 3;
const NUMBER = 4;
const TRUE = 5;
const FALSE = 6;
const ESCAPED = 1 << 4;
const BACKSLASH = 0x5c;

/** FNV-1a over a key's UTF-8 bytes, as the tokenizer hashes the raw bytes of a key without escapes. */
function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 16777619);
  return h;
}

interface Name {
  bytes: Buffer;
  hash: number;
  /**
   * Whether a key names it exactly when its raw bytes are these: not when the name holds U+FFFD (raw bytes
   * that are no UTF-8 decode to it) or a lone surrogate (which no UTF-8 decodes to, and Buffer.from() writes
   * as U+FFFD): such a name is compared as decoded text.
   */
  byBytes: boolean;
}

const LONE_SURROGATE = /\p{Cs}/u;

/** The keys extractors ask for, each hashed once. */
const names = new Map<string, Name>();

function nameOf(key: string): Name {
  let name = names.get(key);
  if (name === undefined) {
    const bytes = Buffer.from(key, 'utf8');
    name = { bytes, hash: fnv1a(bytes), byBytes: !LONE_SURROGATE.test(key) && !key.includes('\uFFFD') };
    if (names.size < 1024) names.set(key, name);
  }
  return name;
}

export class TapeLine implements LineView {
  private readonly root: TapeNode;
  private readonly generation: number;

  constructor(
    /** The line's bytes (offsets on the tape are into them). */
    readonly bytes: Buffer,
    private readonly source: TokenSource,
    /** The index in source.words of the first token's first field. */
    private readonly base: number,
    /** Tokens exist for values up to this deep. */
    readonly depth: number,
  ) {
    this.generation = source.generation;
    this.root = new TapeNode(this, 0);
  }

  /** Throws when the tape has moved on to another line (a view is read at once, not kept). */
  check(): void {
    if (this.source.generation !== this.generation) throw new Error('a transcript line view read after its tape moved on');
  }

  get byteLength(): number {
    return this.bytes.length;
  }

  has(key: string): boolean {
    return this.root.member(key) !== -1;
  }

  str(key: string, maxChars?: number): string | null {
    return this.node(key)?.str(maxChars) ?? null;
  }

  num(key: string): number | null {
    return this.node(key)?.num() ?? null;
  }

  bool(key: string): boolean | null {
    return this.node(key)?.bool() ?? null;
  }

  kind(key: string): JsonKind | null {
    return this.node(key)?.kind ?? null;
  }

  node(key: string): NodeView | null {
    return this.root.get(key);
  }

  keys(): string[] {
    return this.root.memberKeys();
  }

  json(key?: string): unknown {
    return key === undefined ? this.root.json() : this.node(key)?.json();
  }

  // The token fields.
  head(i: number): number {
    return this.source.words[this.base + i * 4]!;
  }

  start(i: number): number {
    return this.source.words[this.base + i * 4 + 1]!;
  }

  end(i: number): number {
    return this.source.words[this.base + i * 4 + 2]!;
  }

  /** The token after value `i` (its last one's next); for a key, its hash. */
  after(i: number): number {
    return this.source.words[this.base + i * 4 + 3]!;
  }

  /** Whether key token `k` names `key`, as JSON.parse would decode it. */
  keyIs(k: number, key: string, name: Name): boolean {
    if ((this.head(k) & ESCAPED) !== 0 || !name.byBytes) return this.keyName(k) === key;
    if (this.after(k) !== name.hash) return false;
    const s = this.start(k) + 1;
    const e = this.end(k) - 1;
    return e - s === name.bytes.length && this.bytes.compare(name.bytes, 0, name.bytes.length, s, e) === 0;
  }

  /** Key token `k`'s name. */
  keyName(k: number): string {
    return JSON.parse(this.bytes.toString('utf8', this.start(k), this.end(k))) as string;
  }
}

class TapeNode implements NodeView {
  constructor(private readonly line: TapeLine, private readonly i: number) {
    line.check();
  }

  private get type(): number {
    return this.line.head(this.i) & 15;
  }

  get kind(): JsonKind {
    return KINDS[this.type]!;
  }

  get span(): Span {
    return { start: this.line.start(this.i), end: this.line.end(this.i) };
  }

  /** Whether this container's members are on the tape (else they are parsed when asked for). */
  private get childrenOnTape(): boolean {
    return this.line.head(this.i) >>> 8 < this.line.depth;
  }

  str(maxChars?: number): string | null {
    if (this.type !== STRING) return null;
    const { bytes } = this.line;
    const s = this.line.start(this.i) + 1;
    const e = this.line.end(this.i) - 1;
    // At least as many bytes as characters: a text of no more bytes than asked for is whole.
    const whole = maxChars === undefined || e - s <= maxChars;
    if ((this.line.head(this.i) & ESCAPED) === 0) {
      if (whole) return bytes.toString('utf8', s, e);
      // A character is at most 3 bytes per UTF-16 unit; 3 more bytes keep a character the cut splits past the end.
      const text = bytes.toString('utf8', s, Math.min(e, s + maxChars * 3 + 3));
      return text.length > maxChars ? text.slice(0, maxChars) : text;
    }
    if (whole) return JSON.parse(bytes.toString('utf8', s - 1, e + 1)) as string;
    return unescapedPrefix(bytes, s, e, maxChars);
  }

  num(): number | null {
    return this.type === NUMBER ? Number(this.line.bytes.toString('latin1', this.line.start(this.i), this.line.end(this.i))) : null;
  }

  bool(): boolean | null {
    return this.type === TRUE ? true : this.type === FALSE ? false : null;
  }

  get(key: string): NodeView | null {
    if (this.type !== OBJECT) return null;
    if (!this.childrenOnTape) return new ParsedNode(this.json()).get(key);
    const value = this.member(key);
    return value === -1 ? null : new TapeNode(this.line, value);
  }

  /** The token of member `key`'s value (the last of that name, as JSON.parse keeps it), or -1. */
  member(key: string): number {
    const line = this.line;
    const name = nameOf(key);
    const end = line.after(this.i);
    let found = -1;
    for (let k = this.i + 1; k < end; k = line.after(k + 1)) {
      if (line.keyIs(k, key, name)) found = k + 1;
    }
    return found;
  }

  memberKeys(): string[] {
    const line = this.line;
    if (!this.childrenOnTape) return Object.keys(this.json() as object);
    const keys: string[] = [];
    for (let k = this.i + 1; k < line.after(this.i); k = line.after(k + 1)) keys.push(line.keyName(k));
    return keys;
  }

  items(): NodeView[] {
    if (this.type !== ARRAY) return [];
    if (!this.childrenOnTape) return new ParsedNode(this.json()).items();
    const line = this.line;
    const items: NodeView[] = [];
    for (let k = this.i + 1; k < line.after(this.i); k = line.after(k)) items.push(new TapeNode(line, k));
    return items;
  }

  get length(): number {
    if (this.type === ARRAY) return this.childrenOnTape ? this.items().length : (this.json() as unknown[]).length;
    if (this.type === OBJECT) return this.childrenOnTape ? this.memberKeys().length : Object.keys(this.json() as object).length;
    return 0;
  }

  json(): unknown {
    return JSON.parse(this.line.bytes.toString('utf8', this.line.start(this.i), this.line.end(this.i)));
  }
}

/** The first `maxChars` UTF-16 units of a JSON string's text at bytes [s, e) that holds escapes, as JSON.parse decodes them. */
function unescapedPrefix(bytes: Buffer, s: number, e: number, maxChars: number): string {
  let out = '';
  for (let at = s; at < e && out.length < maxChars;) {
    const slash = bytes.indexOf(BACKSLASH, at);
    const runEnd = slash === -1 || slash >= e ? e : slash;
    if (runEnd > at) {
      // As for a string without escapes: 3 bytes per unit still wanted, and 3 for a character the cut splits.
      out += bytes.toString('utf8', at, Math.min(runEnd, at + (maxChars - out.length) * 3 + 3));
      at = runEnd;
      continue;
    }
    const length = bytes[at + 1] === 0x75 ? 6 : 2;
    out += JSON.parse(`"${bytes.toString('latin1', at, at + length)}"`) as string;
    at += length;
  }
  return out.length > maxChars ? out.slice(0, maxChars) : out;
}

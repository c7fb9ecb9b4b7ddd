// A line as the tokenizer's tape describes it (jsonTape.wat): each answer reads the tokens it needs and
// decodes only the values asked for, the way JSON.parse of the whole line would give them (parsedLine.ts
// is that definition; test/transcripts/tape.property.test.ts holds the two to the same answers).
import { FieldKey, type JsonKind, type Key, type LineView, type NodeView, type Span } from './lineView.js';
import { ParsedNode } from './parsedLine.js';

/** Where a line's tokens are: four int32 each (see jsonTape.wat), good while `generation` is the tape's. */
export interface TokenSource {
  readonly words: Int32Array;
  readonly generation: number;
}

/**
 * The top-level members of the line being read, by key hash: an open-addressing table reused from line to
 * line (a slot is live when its stamp is the line's), so that the dozen lookups extractors make per line
 * cost a probe each, and no line allocates one.
 */
const TOP_SLOTS = 256;
const topStamp = new Float64Array(TOP_SLOTS);
const topHash = new Int32Array(TOP_SLOTS);
const topKey = new Int32Array(TOP_SLOTS);
let lineStamps = 0;
/** The stamp of the line whose members the table holds now. */
let tableStamp = 0;

const KINDS: readonly (JsonKind | null)[] = [null, 'object', 'array', 'string', 'number', 'true', 'false', 'null', null];
const OBJECT = 1;
const ARRAY = 2;
const STRING = 3;
const NUMBER = 4;
const TRUE = 5;
const FALSE = 6;
const ESCAPED = 1 << 4;
const BACKSLASH = 0x5c;

/** The names looked up by their text, each made a FieldKey once. */
const names = new Map<string, FieldKey>();

function nameOf(key: Key): FieldKey {
  if (typeof key !== 'string') return key;
  let name = names.get(key);
  if (name === undefined) {
    name = new FieldKey(key);
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

  has(key: Key): boolean {
    return this.top(key) !== -1;
  }

  str(key: Key, maxChars?: number): string | null {
    const i = this.top(key);
    return i === -1 ? null : this.strAt(i, maxChars);
  }

  num(key: Key): number | null {
    return this.node(key)?.num() ?? null;
  }

  bool(key: Key): boolean | null {
    const i = this.top(key);
    const type = i === -1 ? 0 : this.head(i) & 15;
    return type === TRUE ? true : type === FALSE ? false : null;
  }

  kind(key: Key): JsonKind | null {
    const i = this.top(key);
    return i === -1 ? null : KINDS[this.head(i) & 15]!;
  }

  node(key: Key): NodeView | null {
    const i = this.top(key);
    return i === -1 ? null : new TapeNode(this, i);
  }

  /** This line's stamp in the top-level table, once it is filled (0: not yet). */
  private stamp = 0;
  /** A top-level key that is escaped or not hashed by its text: looked up the slow way. */
  private oddKeys = false;

  /** The token of top-level member `key`'s value (the last of that name, as JSON.parse keeps it), or -1. */
  private top(key: Key): number {
    this.check();
    // Filled for this line, unless another line's lookups took the table since.
    if (this.stamp === 0 || tableStamp !== this.stamp) this.fillTop();
    const name = nameOf(key);
    if (this.oddKeys || !name.byBytes) return this.root.member(name);
    // Linear probing from the hash's slot; the table holds the last key of each name (filled in order).
    for (let slot = name.hash & (TOP_SLOTS - 1), probes = 0; probes < TOP_SLOTS; slot = (slot + 1) & (TOP_SLOTS - 1), probes++) {
      if (topStamp[slot] !== this.stamp) return -1;
      if (topHash[slot] === name.hash && this.keyIs(topKey[slot]!, name)) return topKey[slot]! + 1;
    }
    return -1;
  }

  private fillTop(): void {
    const stamp = ++lineStamps;
    this.stamp = stamp;
    tableStamp = stamp;
    const end = this.after(0);
    let count = 0;
    for (let k = 1; k < end; k = this.after(k + 1)) {
      if ((this.head(k) & ESCAPED) !== 0 || ++count > TOP_SLOTS / 2) {
        this.oddKeys = true;
        return;
      }
      const hash = this.after(k);
      let slot = hash & (TOP_SLOTS - 1);
      // A key seen before (same hash and bytes) is replaced: the last one wins.
      while (topStamp[slot] === stamp && !(topHash[slot] === hash && this.sameKey(topKey[slot]!, k))) slot = (slot + 1) & (TOP_SLOTS - 1);
      topStamp[slot] = stamp;
      topHash[slot] = hash;
      topKey[slot] = k;
    }
  }

  /** Whether key tokens `a` and `b` have the same raw bytes. */
  private sameKey(a: number, b: number): boolean {
    const as = this.start(a);
    const length = this.end(a) - as;
    const bs = this.start(b);
    if (this.end(b) - bs !== length) return false;
    for (let j = 0; j < length; j++) if (this.bytes[as + j] !== this.bytes[bs + j]) return false;
    return true;
  }

  /** String token `i`'s text (see NodeView.str()). */
  strAt(i: number, maxChars?: number): string | null {
    if ((this.head(i) & 15) !== STRING) return null;
    const { bytes } = this;
    const s = this.start(i) + 1;
    const e = this.end(i) - 1;
    // At least as many bytes as characters: a text of no more bytes than asked for is whole.
    const whole = maxChars === undefined || e - s <= maxChars;
    if ((this.head(i) & ESCAPED) === 0) {
      if (whole) return e - s <= SHORT_BYTES ? shortText(bytes, s, e) : bytes.toString('utf8', s, e);
      // A character is at most 3 bytes per UTF-16 unit; 3 more bytes keep a character the cut splits past the end.
      const text = bytes.toString('utf8', s, Math.min(e, s + maxChars * 3 + 3));
      return text.length > maxChars ? text.slice(0, maxChars) : text;
    }
    if (whole) return JSON.parse(bytes.toString('utf8', s - 1, e + 1)) as string;
    return unescapedPrefix(bytes, s, e, maxChars);
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

  /** Whether key token `k` names `name`, as JSON.parse would decode it. */
  keyIs(k: number, name: FieldKey): boolean {
    if ((this.head(k) & ESCAPED) !== 0 || !name.byBytes) return this.keyName(k) === name.text;
    if (this.after(k) !== name.hash) return false;
    const s = this.start(k) + 1;
    const length = name.bytes.length;
    if (this.end(k) - 1 - s !== length) return false;
    // Keys are short: a loop costs less than a call into Buffer.compare().
    for (let j = 0; j < length; j++) if (this.bytes[s + j] !== name.bytes[j]) return false;
    return true;
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
    return this.line.strAt(this.i, maxChars);
  }

  num(): number | null {
    return this.type === NUMBER ? Number(this.line.bytes.toString('latin1', this.line.start(this.i), this.line.end(this.i))) : null;
  }

  bool(): boolean | null {
    return this.type === TRUE ? true : this.type === FALSE ? false : null;
  }

  get(key: Key): NodeView | null {
    if (this.type !== OBJECT) return null;
    if (!this.childrenOnTape) return new ParsedNode(this.json()).get(key);
    const value = this.member(key);
    return value === -1 ? null : new TapeNode(this.line, value);
  }

  /** The token of member `key`'s value (the last of that name, as JSON.parse keeps it), or -1. */
  member(key: Key): number {
    const line = this.line;
    const name = nameOf(key);
    const end = line.after(this.i);
    let found = -1;
    for (let k = this.i + 1; k < end; k = line.after(k + 1)) {
      if (line.keyIs(k, name)) found = k + 1;
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

/** Strings up to this many bytes are decoded through a cache (shortText()): a transcript repeats them. */
const SHORT_BYTES = 64;
const CACHE_SLOTS = 256;
/** Per cache slot: its bytes (at slot * SHORT_BYTES), their length (-1: empty) and their text. */
const cachedBytes = new Uint8Array(CACHE_SLOTS * SHORT_BYTES);
const cachedLength = new Int16Array(CACHE_SLOTS).fill(-1);
const cachedText: string[] = new Array<string>(CACHE_SLOTS).fill('');

/**
 * bytes [s, e) (at most SHORT_BYTES, no escapes) decoded: a session id, a cwd, a version or a type comes
 * again on every line, and the same bytes give the same text without a call into the decoder.
 */
function shortText(bytes: Buffer, s: number, e: number): string {
  const length = e - s;
  const slot = length === 0 ? 0 : (length * 31 + bytes[s]! * 7 + bytes[e - 1]! * 13 + bytes[s + (length >>> 1)]!) & (CACHE_SLOTS - 1);
  const at = slot * SHORT_BYTES;
  if (cachedLength[slot] === length) {
    let j = 0;
    while (j < length && cachedBytes[at + j] === bytes[s + j]) j++;
    if (j === length) return cachedText[slot]!;
  }
  const text = bytes.toString('utf8', s, e);
  for (let j = 0; j < length; j++) cachedBytes[at + j] = bytes[s + j]!;
  cachedLength[slot] = length;
  cachedText[slot] = text;
  return text;
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

// A line as JSON.parse gives it: the definition the tokenizer's tape (tapeLine.ts) is held to, and what
// reads a line where WebAssembly cannot run or the tape cannot hold it. Keys are looked up as own
// properties only (a `__proto__` key is a member like any other).
import type { JsonKind, Key, LineView, NodeView, Span } from './lineView.js';

const MAX_DEPTH = 128;

function kindOf(v: unknown): JsonKind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return v ? 'true' : 'false';
    default: return 'object';
  }
}

function own(o: object, key: Key): unknown {
  const name = typeof key === 'string' ? key : key.text;
  return Object.prototype.hasOwnProperty.call(o, name) ? (o as Record<string, unknown>)[name] : undefined;
}

export class ParsedNode implements NodeView {
  constructor(private readonly v: unknown) {}
  get kind(): JsonKind { return kindOf(this.v); }
  get span(): Span { return { start: 0, end: 0 }; }
  str(maxChars?: number): string | null {
    if (typeof this.v !== 'string') return null;
    return maxChars !== undefined && this.v.length > maxChars ? this.v.slice(0, maxChars) : this.v;
  }
  num(): number | null { return typeof this.v === 'number' ? this.v : null; }
  bool(): boolean | null { return typeof this.v === 'boolean' ? this.v : null; }
  get(key: Key): NodeView | null {
    if (kindOf(this.v) !== 'object') return null;
    const value = own(this.v as object, key);
    return value === undefined ? null : new ParsedNode(value);
  }
  items(): NodeView[] { return Array.isArray(this.v) ? this.v.map((x) => new ParsedNode(x)) : []; }
  get length(): number { return Array.isArray(this.v) ? this.v.length : kindOf(this.v) === 'object' ? Object.keys(this.v as object).length : 0; }
  json(): unknown { return this.v; }
}

function depthOver(text: string, max: number): boolean {
  let depth = 0; let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) { if (c === 92) i++; else if (c === 34) inString = false; continue; }
    if (c === 34) inString = true; else if (c === 123 || c === 91) { if (++depth > max) return true; } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

export class ParsedLine implements LineView {
  private constructor(private readonly o: Record<string, unknown>, readonly byteLength: number) {}
  /** The line, or null when it is no JSON object or nests deeper than 128. */
  static of(bytes: Uint8Array): ParsedLine | null {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
    if (depthOver(text, MAX_DEPTH)) return null;
    let v: unknown;
    try { v = JSON.parse(text); } catch { return null; }
    return kindOf(v) === 'object' ? new ParsedLine(v as Record<string, unknown>, bytes.length) : null;
  }
  has(key: Key): boolean { return own(this.o, key) !== undefined; }
  str(key: Key, maxChars?: number): string | null { return this.node(key)?.str(maxChars) ?? null; }
  num(key: Key): number | null { return this.node(key)?.num() ?? null; }
  bool(key: Key): boolean | null { return this.node(key)?.bool() ?? null; }
  kind(key: Key): JsonKind | null { return this.node(key)?.kind ?? null; }
  node(key: Key): NodeView | null { const v = own(this.o, key); return v === undefined ? null : new ParsedNode(v); }
  keys(): string[] { return Object.keys(this.o); }
  json(key?: string): unknown { return key === undefined ? this.o : own(this.o, key); }
}

// Lenient frontmatter for memory files, shared by the service and the UI (keep it free of Node APIs).
// Claude Code writes YAML that is not always valid YAML (unquoted `: ` inside values), so a strict parse
// failure falls back to a line parser instead of losing the fields. The YAML parser costs ~0.2 ms per
// block, most of a memory load, so the shapes Claude Code writes (flat `key: value` lines, one nested
// `metadata:` level) are read by a fast path that answers exactly as the parser would, or not at all.
//
// The YAML parser recurses once per nesting level and its cost grows faster than the text: a deep block
// overflows the stack in a way V8 can turn into a process abort no `try` catches, and a large one
// stalls the event loop. So only blocks that are small and shallow (checked by a linear scan that
// over-counts, never under-counts) reach it; the rest go to the line parser.
import { Schema, parse } from 'yaml';
import { nestsDeeperThan } from './yamlNesting.js';

export interface Frontmatter {
  /** Top-level keys with the nested `metadata:` keys folded over them (nested wins). */
  data: Record<string, unknown>;
  /** The text after the closing `---` line; the whole text when there is no frontmatter. */
  body: string;
  /** Why the YAML parse failed or was not tried (data then comes from the line parser), or null. */
  error: string | null;
  /**
   * The YAML parser itself rejected the block (or it is not a mapping): Claude Code cannot read it
   * either. Absent when the block parsed, or skipped the parser only for its size or depth.
   */
  invalid?: { message: string; /** 1-based line of the file, when the parser says. */ line: number | null };
  /**
   * Keys whose value, as written, goes on past what YAML reads: an unquoted ` #` starts a comment, so
   * `description: Epic #604 — converge` reads as `Epic`. Maps each such key (as in `data`, nested
   * `metadata:` keys folded) to the full text written; `data` keeps what YAML (and Claude Code) reads.
   * Absent when there is none.
   */
  written?: Record<string, string>;
}

// A frontmatter block larger than this is not something Claude Code writes; parsing it is only cost.
const MAX_FRONTMATTER_CHARS = 256 * 1024;
/**
 * Larger blocks skip the YAML parser: its cost grows faster than the text (duplicate-key checks,
 * aliases), so a block of many short keys or items well past this size stalls the event loop.
 */
export const MAX_YAML_CHARS = 8 * 1024;
/**
 * Deeper blocks (as nestsDeeperThan counts, about twice the real depth) skip the YAML parser. Far below
 * where its recursion runs out of stack; frontmatter Claude Code writes counts four.
 */
export const MAX_YAML_DEPTH = 32;

/** Where a leading `---` block lies: its YAML text `[yamlStart, yamlEnd)` and where the body starts. */
export interface FrontmatterBlock {
  yamlStart: number;
  yamlEnd: number;
  bodyStart: number;
}

/** The leading `---` block of a text, without parsing it; null when there is none. Never throws. */
export function frontmatterBlock(text: string): FrontmatterBlock | null {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstEnd = lineEnd(text, start);
  if (stripCr(text.slice(start, firstEnd)).trimEnd() !== '---') return null;

  let at = firstEnd + 1;
  while (at <= text.length && at - start <= MAX_FRONTMATTER_CHARS) {
    const end = lineEnd(text, at);
    if (stripCr(text.slice(at, end)) === '---') {
      return { yamlStart: Math.min(firstEnd + 1, at), yamlEnd: at, bodyStart: end >= text.length ? text.length : end + 1 };
    }
    if (end >= text.length) break;
    at = end + 1;
  }
  // No closing line: Claude Code treats the file as having no frontmatter, and so do we.
  return null;
}

/** Splits off and parses a leading `---` block. Never throws. */
export function parseFrontmatter(text: string): Frontmatter {
  const block = frontmatterBlock(text);
  if (block === null) return { data: {}, body: text, error: null };
  const parsed = parseBlock(text.slice(block.yamlStart, block.yamlEnd));
  if (parsed.invalid && parsed.invalid.line !== null) {
    // The parser counts lines of the block; the file has the opening `---` (and whatever precedes it) first.
    parsed.invalid.line += countNewlines(text, block.yamlStart);
  }
  return { ...parsed, body: text.slice(block.bodyStart) };
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

function parseBlock(yamlText: string): Omit<Frontmatter, 'body'> {
  const flat = parseFlatYaml(yamlText);
  if (flat !== null) return { data: foldMetadata(flat), error: null };
  if (yamlText.length > MAX_YAML_CHARS) {
    return { data: parseLines(yamlText), error: `frontmatter larger than ${MAX_YAML_CHARS} characters: read line by line` };
  }
  if (nestsDeeperThan(yamlText, MAX_YAML_DEPTH)) {
    return { data: parseLines(yamlText), error: `frontmatter nested deeper than ${MAX_YAML_DEPTH} levels: read line by line` };
  }
  let parsed: unknown;
  try {
    // Core schema keeps unquoted timestamps as strings; the default alias limit stops alias bombs.
    // logLevel 'error' keeps YAML warnings off the console while still throwing on errors.
    parsed = parse(yamlText, { schema: 'core', logLevel: 'error' });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { data: parseLines(yamlText), error: message, invalid: { message, line: errorLine(e) } };
  }
  if (parsed === null || parsed === undefined) return { data: {}, error: null };
  if (!isRecord(parsed)) {
    const message = 'frontmatter is not a mapping';
    return { data: parseLines(yamlText), error: message, invalid: { message, line: null } };
  }
  const data = foldMetadata(parsed);
  const written = yamlText.includes('#') ? writtenBeyondComments(yamlText, parsed, data) : null;
  return written === null ? { data, error: null } : { data, error: null, written };
}

// Plain (unquoted) values start with none of these; a quoted or flow value's ` #` is not the issue.
const NOT_PLAIN_FIRST = /^[\s"'[{|>&*!%@`]/;

/** A plain value that a comment cuts (`text #more`) or that is all comment (`#more`). */
function commentCuts(value: string): boolean {
  return value.startsWith('#') || (!NOT_PLAIN_FIRST.test(value) && /[ \t]#/.test(value));
}

/**
 * The keys of `data` whose written line holds an unquoted ` #` that YAML read as the start of a
 * comment, mapped to the text as written. Only single-line `key: value` lines at the top level or
 * directly under `metadata:` are looked at: those are the shapes Claude Code writes.
 */
function writtenBeyondComments(
  yamlText: string, parsed: Record<string, unknown>, data: Record<string, unknown>,
): Record<string, string> | null {
  const top = new Map<string, string>();
  const nested = new Map<string, string>();
  let inMetadata = false;
  for (const raw of yamlText.split('\n')) {
    const line = stripCr(raw).slice(0, 4096).trimEnd();
    const topMatch = TOP_KEY.exec(line);
    if (topMatch) {
      inMetadata = topMatch[1] === 'metadata' && (topMatch[2] === undefined || topMatch[2].trim() === '');
      if (topMatch[2] !== undefined && commentCuts(topMatch[2])) top.set(topMatch[1]!, topMatch[2].trim());
      continue;
    }
    const nestedMatch = inMetadata ? NESTED_KEY.exec(line) : null;
    if (nestedMatch?.[2] !== undefined && commentCuts(nestedMatch[2])) nested.set(nestedMatch[1]!, nestedMatch[2].trim());
  }
  if (top.size === 0 && nested.size === 0) return null;
  const metadata = isRecord(parsed.metadata) ? parsed.metadata : null;
  let written: Record<string, string> | null = null;
  for (const key of Object.keys(data)) {
    // The value `data` holds came from the nested key when there is one (nested wins).
    const text = metadata !== null && Object.hasOwn(metadata, key) ? nested.get(key) : top.get(key);
    const read = data[key];
    if (text === undefined || !(typeof read === 'string' || read === null) || read === text) continue;
    written ??= {};
    setOwn(written, key, text);
  }
  return written;
}

/** The 1-based line of the block where the YAML parser failed, when it says (`linePos` of its errors). */
function errorLine(error: unknown): number | null {
  const pos = (error as { linePos?: { line?: unknown }[] } | null)?.linePos?.[0]?.line;
  return typeof pos === 'number' && Number.isInteger(pos) && pos > 0 ? pos : null;
}

function foldMetadata(top: Record<string, unknown>): Record<string, unknown> {
  const metadata = top.metadata;
  // `metadata:` with nothing under it parses as null; a scalar there carries nothing to fold.
  if (!isRecord(metadata) && !(metadata === null || metadata === undefined || metadata === '')) return top;
  // What `const { metadata, ...rest } = top; return { ...rest, ...metadata }` gives, without the
  // generic rest/spread machinery that cost more than the fast path's whole parse.
  const folded: Record<string, unknown> = {};
  for (const key of Object.keys(top)) if (key !== 'metadata') copyOwn(folded, key, top[key]);
  if (isRecord(metadata)) for (const key of Object.keys(metadata)) copyOwn(folded, key, metadata[key]);
  return folded;
}

function copyOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Assignment is a plain data property for every key but `__proto__`, the one setter on Object.prototype.
  if (key === '__proto__') setOwn(target, key, value);
  else target[key] = value;
}

// Plain scalars that the core schema reads as null, booleans or numbers, by the parser's own tag tests,
// so the fast path can never disagree with it about which plain text stays a string. Made on first use:
// a start that reads no frontmatter does not load the parser (scripts/deferred-modules.js).
let typedPlain: ((text: string) => boolean) | null = null;
const isTypedPlain = (text: string): boolean => (typedPlain ??= typedPlainTest())(text);
// C0/C1 controls (tab included) other than line ends, DEL, BOM, Unicode line breaks, a CR that does
// not end a line, and (below) lone surrogates: all left to the parser.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]|\r(?!\n)/;
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /\p{Cs}/u;
const FLAT_LINE = /^( *)([A-Za-z_][\w.-]{0,127}):(?: +(.*))?$/;
const PLAIN_FIRST = new Set([...'-?:,[]{}#&*!|>\'"%@`']);

function typedPlainTest(): (text: string) => boolean {
  const tests = new Schema({ schema: 'core' }).tags.flatMap((tag) => ('test' in tag && tag.test ? [tag.test] : []));
  // One alternation runs faster than a loop over the tags; flags would not survive being joined.
  if (tests.some((test) => test.flags !== '')) return (text) => tests.some((test) => test.test(text));
  const joined = new RegExp(tests.map((test) => `(?:${test.source})`).join('|'));
  return (text) => joined.test(text);
}

/**
 * `key: value` lines, with one level of same-indented `key: value` lines under a key without a value,
 * as the YAML core schema reads them; null for anything else (comments, lists, block scalars, flow
 * collections, anchors, tags, escapes, multi-line scalars, duplicate keys, numbers...), which then
 * goes to the YAML parser. The property test in test/memory compares the two on generated blocks.
 */
export function parseFlatYaml(yamlText: string): Record<string, unknown> | null {
  if (UNSAFE.test(yamlText) || (SURROGATE.test(yamlText) && LONE_SURROGATE.test(yamlText))) return null;
  const top: Record<string, unknown> = {};
  let nested: Record<string, unknown> | null = null;
  let nestedIndent = 0;
  // The top-level key just read when it had no value: the one an indented line would belong to.
  let parent: string | null = null;
  for (const raw of yamlText.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') continue;
    const m = FLAT_LINE.exec(line);
    if (m === null) return null;
    const indent = m[1]!.length;
    const key = m[2]!;
    const value = scalar(m[3]);
    if (value === undefined || key === '__proto__' || isTypedPlain(key)) return null;
    let target = top;
    if (indent === 0) {
      nested = null;
      parent = value === null ? key : null;
    } else if (nested === null) {
      if (parent === null) return null;
      nested = {};
      nestedIndent = indent;
      top[parent] = nested;
      parent = null;
      target = nested;
    } else {
      // Deeper lines (a mapping under a nested key, a continued scalar) and shallower ones: the parser's.
      if (indent !== nestedIndent) return null;
      target = nested;
    }
    if (Object.hasOwn(target, key)) return null;
    target[key] = value;
  }
  return top;
}

/** The value after `key:`; null for none, undefined when only the parser can say what it is. */
function scalar(text: string | undefined): string | null | undefined {
  if (text === undefined) return null;
  // Only spaces are trimmed: YAML keeps other Unicode white space (a no-break space is a value).
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x20) end--;
  if (end === 0) return null;
  const v = end === text.length ? text : text.slice(0, end);
  const quote = v[0]!;
  if (quote === '"' || quote === "'") {
    const inner = v.slice(1, -1);
    // One closing quote at the very end, and no escapes or doubled quotes in between.
    if (v.length < 2 || v[v.length - 1] !== quote || inner.includes(quote) || (quote === '"' && inner.includes('\\'))) {
      return undefined;
    }
    return inner;
  }
  if (PLAIN_FIRST.has(quote) || /:(?: |$)| #/.test(v) || isTypedPlain(v)) return undefined;
  return v;
}

const TOP_KEY = /^([A-Za-z_][\w.-]{0,127})[ \t]*:(?:[ \t]+(.*))?$/;
const NESTED_KEY = /^[ \t]+([A-Za-z_][\w.-]{0,127})[ \t]*:(?:[ \t]+(.*))?$/;

/**
 * The fallback for frontmatter that is not valid YAML: `key: value` at the top level, and indented
 * `key: value` lines under `metadata:`. Anything else (lists, block scalars) is skipped.
 */
function parseLines(yamlText: string): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  const nested: Record<string, unknown> = {};
  let inMetadata = false;
  for (const raw of yamlText.split('\n')) {
    const line = stripCr(raw).slice(0, 4096).trimEnd();
    if (line === '' || line.trimStart().startsWith('#')) continue;
    const topMatch = TOP_KEY.exec(line);
    if (topMatch) {
      const key = topMatch[1]!;
      const value = topMatch[2];
      inMetadata = key === 'metadata' && (value === undefined || value.trim() === '');
      if (!inMetadata) setOwn(top, key, unquote(value));
      continue;
    }
    const nestedMatch = inMetadata ? NESTED_KEY.exec(line) : null;
    if (nestedMatch) setOwn(nested, nestedMatch[1]!, unquote(nestedMatch[2]));
  }
  return { ...top, ...nested };
}

// Keys come from the file: `__proto__` must land as data, not as the object's prototype.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function unquote(value: string | undefined): string | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (v === '') return null;
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0]) return v.slice(1, -1);
  return v;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

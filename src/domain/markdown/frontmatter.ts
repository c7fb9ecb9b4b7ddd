// Lenient frontmatter for memory files. Claude Code writes YAML that is not always valid YAML (unquoted
// `: ` inside values), so a strict parse failure falls back to a line parser instead of losing the fields.
import { parse } from 'yaml';

export interface Frontmatter {
  /** Top-level keys with the nested `metadata:` keys folded over them (nested wins). */
  data: Record<string, unknown>;
  /** The text after the closing `---` line; the whole text when there is no frontmatter. */
  body: string;
  /** Why the YAML parse failed (data then comes from the line parser), or null. */
  error: string | null;
}

// A frontmatter block larger than this is not something Claude Code writes; parsing it is only cost.
const MAX_FRONTMATTER_CHARS = 256 * 1024;

/** Splits off and parses a leading `---` block. Never throws. */
export function parseFrontmatter(text: string): Frontmatter {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstEnd = lineEnd(text, start);
  if (stripCr(text.slice(start, firstEnd)).trimEnd() !== '---') return { data: {}, body: text, error: null };

  let at = firstEnd + 1;
  while (at <= text.length && at - start <= MAX_FRONTMATTER_CHARS) {
    const end = lineEnd(text, at);
    if (stripCr(text.slice(at, end)) === '---') {
      const yamlText = text.slice(firstEnd + 1, at);
      const body = end >= text.length ? '' : text.slice(end + 1);
      return { ...parseBlock(yamlText), body };
    }
    if (end >= text.length) break;
    at = end + 1;
  }
  // No closing line: Claude Code treats the file as having no frontmatter, and so do we.
  return { data: {}, body: text, error: null };
}

function parseBlock(yamlText: string): { data: Record<string, unknown>; error: string | null } {
  let parsed: unknown;
  try {
    // Core schema keeps unquoted timestamps as strings; the default alias limit stops alias bombs.
    // logLevel 'error' keeps YAML warnings off the console while still throwing on errors.
    parsed = parse(yamlText, { schema: 'core', logLevel: 'error' });
  } catch (e) {
    return { data: parseLines(yamlText), error: e instanceof Error ? e.message : String(e) };
  }
  if (parsed === null || parsed === undefined) return { data: {}, error: null };
  if (!isRecord(parsed)) return { data: parseLines(yamlText), error: 'frontmatter is not a mapping' };
  return { data: foldMetadata(parsed), error: null };
}

function foldMetadata(top: Record<string, unknown>): Record<string, unknown> {
  const { metadata, ...rest } = top;
  // `metadata:` with nothing under it parses as null; a scalar there carries nothing to fold.
  if (!isRecord(metadata)) return metadata === null || metadata === undefined || metadata === '' ? rest : top;
  return { ...rest, ...metadata };
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

// The `key: value` lines of a frontmatter block as they are written, with where each value sits: what
// a finding points at (its line) and what a fix rewrites (only that value). Top-level keys and keys
// directly under `metadata:`, the shapes Claude Code writes; anything else is left alone.
import { frontmatterBlock } from '../../markdown/frontmatter.js';

export interface KeyLine {
  key: string;
  /** Under `metadata:`. */
  nested: boolean;
  /** 1-based line of the file. */
  line: number;
  /** The value as written (trimmed), and its offsets in the text. */
  value: string;
  valueStart: number;
  valueEnd: number;
}

const MAX_LINE_CHARS = 4096;
const KEY = /^([ \t]*)([A-Za-z_][\w.-]{0,127})[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/;

export function keyLines(text: string): KeyLine[] {
  const block = frontmatterBlock(text);
  if (block === null) return [];
  const found: KeyLine[] = [];
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < block.yamlStart; i = text.indexOf('\n', i + 1)) line++;
  let inMetadata = false;
  let at = block.yamlStart;
  while (at < block.yamlEnd) {
    let end = text.indexOf('\n', at);
    if (end === -1 || end > block.yamlEnd) end = block.yamlEnd;
    const raw = text.slice(at, end);
    const lineText = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = lineText.length <= MAX_LINE_CHARS ? KEY.exec(lineText) : null;
    if (m) {
      const indented = m[1]!.length > 0;
      if (!indented) inMetadata = m[2] === 'metadata' && (m[3] === undefined || m[3] === '');
      if ((!indented || inMetadata) && m[3] !== undefined && m[3] !== '') {
        let start = lineText.indexOf(':', m[1]!.length + m[2]!.length) + 1;
        while (lineText[start] === ' ' || lineText[start] === '\t') start++;
        const valueStart = at + start;
        found.push({ key: m[2]!, nested: indented, line, value: m[3], valueStart, valueEnd: valueStart + m[3].length });
      }
    } else if (!lineText.startsWith(' ') && !lineText.startsWith('\t') && lineText.trim() !== '') {
      inMetadata = false;
    }
    line++;
    at = end + 1;
  }
  return found;
}

/** The line a key's value is read from: the nested one when both exist (Claude Code folds, nested wins). */
export function lineOfKey(lines: readonly KeyLine[], key: string): KeyLine | null {
  return lines.find((l) => l.key === key && l.nested) ?? lines.find((l) => l.key === key && !l.nested) ?? null;
}

/**
 * A plain (unquoted) value that strict YAML rejects or cuts and that quoting keeps whole: one with a
 * `: ` inside, or a ` #`. The quoted form is a YAML double-quoted scalar.
 */
export function needsQuotes(value: string): boolean {
  if (/^["'[{|>&*!%@`]/.test(value)) return false;
  return /:[ \t]/.test(value) || /[ \t]#/.test(value) || value.startsWith('#');
}

export function quoted(value: string): string {
  let out = '"';
  for (const ch of value) {
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return `${out}"`;
}

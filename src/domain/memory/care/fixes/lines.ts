// Line-level reading and writing of memory files for the fixes: lines with their own line ends (so a
// fix changes only the lines it means to, byte for byte), MEMORY.md's entry lines and their style.
import { findLinks, type FoundLink } from '../../../markdown/links.js';

export interface Line {
  text: string;
  /** '\n', '\r\n', or '' for a last line without one. */
  eol: string;
}

export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    if (nl === -1) {
      lines.push({ text: text.slice(at), eol: '' });
      break;
    }
    const crlf = nl > at && text[nl - 1] === '\r';
    lines.push({ text: text.slice(at, crlf ? nl - 1 : nl), eol: crlf ? '\r\n' : '\n' });
    at = nl + 1;
  }
  return lines;
}

export function joinLines(lines: readonly Line[]): string {
  return lines.map((l) => l.text + l.eol).join('');
}

/** The line end the file mostly uses ('\n' for a file without any). */
export function fileEol(lines: readonly Line[]): string {
  const crlf = lines.filter((l) => l.eol === '\r\n').length;
  return crlf > lines.filter((l) => l.eol === '\n').length ? '\r\n' : '\n';
}

/** Gives the last line a line end before lines are added after it. */
export function endLastLine(lines: Line[], eol: string): void {
  const last = lines.at(-1);
  if (last && last.eol === '') last.eol = eol;
}

const BULLET = /^([ \t]*)([-*+])([ \t]+)/;
const SEPARATOR = /^[ \t]*(?:—|–|-|:)[ \t]*/;

/** A list item whose text starts with a link: `- [Title](file.md) — hook`. */
export interface EntryLine {
  indent: string;
  bullet: string;
  gap: string;
  link: FoundLink;
  /** What follows the link up to the hook (` — `), '' when nothing does. */
  separator: string;
}

export function entryLine(text: string): EntryLine | null {
  const bullet = BULLET.exec(text);
  if (!bullet) return null;
  const link = findLinks(text).find((l) => l.start === bullet[0].length);
  if (!link) return null;
  const separator = SEPARATOR.exec(text.slice(link.end))?.[0] ?? '';
  return { indent: bullet[1]!, bullet: bullet[2]!, gap: bullet[3]!, link, separator };
}

export interface IndexStyle {
  indent: string;
  bullet: string;
  gap: string;
  separator: string;
}

/** The most common shape of the index's own entry lines; `- [Title](file.md) — hook` when it has none. */
export function indexStyle(lines: readonly Line[]): IndexStyle {
  const counts = new Map<string, { style: IndexStyle; n: number }>();
  for (const line of lines) {
    const e = entryLine(line.text);
    if (!e || e.indent !== '' || e.separator === '') continue;
    const style = { indent: e.indent, bullet: e.bullet, gap: e.gap, separator: e.separator };
    const key = JSON.stringify(style);
    const seen = counts.get(key);
    if (seen) seen.n++;
    else counts.set(key, { style, n: 1 });
  }
  let best: { style: IndexStyle; n: number } | null = null;
  for (const c of counts.values()) if (best === null || c.n > best.n) best = c;
  return best?.style ?? { indent: '', bullet: '-', gap: ' ', separator: ' — ' };
}

/** Text that stays text inside `[...]`. */
export function linkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
}

/** A destination that reads back as `file` (linkPath decodes it): spaces, parentheses and `%` escaped. */
export function linkDestination(file: string): string {
  return file.replace(/[%() <>#?]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** A hook on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The `[text]` of a markdown link found at `link` in `line` (its brackets balanced, escapes kept). */
export function markdownLinkText(line: string, link: FoundLink): string {
  let depth = 0;
  for (let i = link.start; i < link.end; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return line.slice(link.start + 1, i);
  }
  return line.slice(link.start + 1, link.end);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Indexes of the lines inside fenced code (fences included), where nothing is a link or an entry. */
export function fencedLines(lines: readonly Line[]): Set<number> {
  const fenced = new Set<number>();
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const m = FENCE.exec(line.text);
    if (fence !== null) {
      fenced.add(i);
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.text.slice(m[0].length).trim() === '') fence = null;
    } else if (m) {
      fence = m[1]!;
      fenced.add(i);
    }
  });
  return fenced;
}

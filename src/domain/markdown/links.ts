// Links between markdown files: inline markdown links and [[wikilinks]], outside fenced code and code
// spans. Shared by the service (the memory link graph) and the UI (what the reader and the index health
// panel mark), so both find exactly the same links: keep it free of Node APIs.
// Everything works one line at a time with linear scans, so an adversarial 1 MB file stays fast.
import { linkPath } from './linkPath.js';

export interface ExtractedLinks {
  /** Relative link targets, percent-decoded, without `#anchor` or `?query`, in first-seen order. */
  markdown: string[];
  /** Wikilink targets without `|alias` or `#heading`, in first-seen order. */
  wikilinks: string[];
}

export interface FoundLink {
  kind: 'markdown' | 'wiki';
  /** A markdown link's destination as written (backslash escapes removed); a wikilink's target name. */
  target: string;
  /** Offsets of the whole link in the text scanned. */
  start: number;
  end: number;
}

/** Longest wikilink inside its brackets; the UI's renderer applies the same bound. */
export const MAX_WIKILINK_CHARS = 1000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// Bounded and free of brackets inside, so a failed match stops at the next bracket: linear per line.
const WIKILINK = new RegExp(`(!?)\\[\\[([^[\\]\\n]{1,${MAX_WIKILINK_CHARS}})\\]\\]`, 'g');

type Visit = (kind: FoundLink['kind'], target: string, start: number, end: number) => void;

/**
 * The markdown links and wikilinks of a text, deduplicated, for the link graph: the first `maxLinks` of
 * them (the scan stops there, so a file of 100,000 links costs what its first links cost).
 */
export function extractLinks(markdown: string, maxLinks = Infinity): ExtractedLinks {
  const md = new Set<string>();
  const wiki = new Set<string>();
  scanLinks(markdown, () => md.size + wiki.size >= maxLinks, (kind, target) => {
    if (md.size + wiki.size >= maxLinks) return;
    if (kind === 'wiki') {
      wiki.add(target);
    } else {
      const path = linkPath(target);
      if (path !== null) md.add(path);
    }
  });
  return { markdown: [...md], wikilinks: [...wiki] };
}

/**
 * Every link of a text in order, with its offsets: what a reader marks. With `atLeast`, the scan stops at
 * the first line end where that many are found: the first `atLeast` are then those of the whole text
 * (later lines only hold later links), and a 100,000-link MEMORY.md is not scanned to its end for 2,000.
 */
export function findLinks(markdown: string, atLeast = Infinity): FoundLink[] {
  const found: FoundLink[] = [];
  scanLinks(markdown, () => found.length >= atLeast, (kind, target, start, end) => void found.push({ kind, target, start, end }));
  // Per line, wikilinks are found before markdown links.
  return found.sort((a, b) => a.start - b.start);
}

function scanLinks(markdown: string, done: () => boolean, visit: Visit): void {
  let fence: string | null = null;
  let start = 0;
  while (start <= markdown.length && !done()) {
    let end = markdown.indexOf('\n', start);
    if (end === -1) end = markdown.length;
    const line = markdown.slice(start, end).replace(/\r$/, '');
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      // Same closing rule as firstHeading: same character, at least as long, nothing after it.
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length &&
          line.slice(fenceMatch[0].length).trim() === '') {
        fence = null;
      }
    } else if (fenceMatch) {
      fence = fenceMatch[1]!;
    } else if (line.includes('[')) {
      scanLine(blankCodeSpans(line), start, visit);
    }
    if (end === markdown.length) break;
    start = end + 1;
  }
}

function scanLine(line: string, lineStart: number, visit: Visit): void {
  const rest = line.replace(WIKILINK, (whole: string, bang: string, inner: string, at: number) => {
    // A backslash escapes the next character: `\[[x]]` is text, `\![[x]]` a `!` and then a wikilink.
    if (bang === '' && escaped(line, at)) return whole;
    // `![[x]]` embeds a file (usually an image) rather than linking to a memory.
    if (bang === '' || escaped(line, at)) {
      const target = wikiTarget(inner);
      if (target) visit('wiki', target, lineStart + at + bang.length, lineStart + at + whole.length);
    }
    return ' '.repeat(whole.length);
  });
  for (const link of inlineLinks(rest)) visit('markdown', link.dest, lineStart + link.start, lineStart + link.end);
}

/** Whether the character at `at` follows an odd run of backslashes. */
function escaped(line: string, at: number): boolean {
  let k = at;
  while (k > 0 && line.charCodeAt(k - 1) === 0x5c) k--;
  return (at - k) % 2 === 1;
}

/** The target of `[[inner]]`: before `|alias` and `#heading`, trimmed; null when nothing is left. */
export function wikiTarget(inner: string): string | null {
  let target = inner;
  const bar = target.indexOf('|');
  if (bar !== -1) target = target.slice(0, bar);
  const hash = target.indexOf('#');
  if (hash !== -1) target = target.slice(0, hash);
  target = target.trim();
  return target === '' ? null : target;
}

/** `[text](dest)` links on one line with their offsets; images (`![alt](src)`) are left out. */
function inlineLinks(line: string): { dest: string; start: number; end: number }[] {
  if (!line.includes('](')) return [];
  const scan = new DestinationScanner(line);
  const targets: { dest: string; start: number; end: number }[] = [];
  const open: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      open.push(i);
    } else if (c === ']' && open.length > 0) {
      const opener = open.pop()!;
      if (line[i + 1] !== '(') continue;
      const parsed = scan.destination(i + 2);
      if (!parsed) continue;
      if (line[opener - 1] !== '!') targets.push({ dest: parsed.dest, start: opener, end: parsed.end });
      // A link cannot contain another link: brackets opened before it are text, not pending links.
      open.length = 0;
      i = parsed.end - 1;
    }
  }
  return targets;
}

/**
 * Parses link destinations on one line in amortised linear time overall. Naive rescanning from every
 * `](` is quadratic on lines like `[](x[](x[](x...`; instead balanced parenthesis groups are matched
 * once up front and jumped over, and searches for closing characters are memoised per character.
 */
class DestinationScanner {
  private readonly match: Int32Array;
  private readonly found = new Map<string, { from: number; at: number }>();

  constructor(private readonly line: string) {
    // match[i] = index of the `)` closing the `(` at i, or -1 when unmatched or when the group holds
    // whitespace (a destination cannot, so such a group can never be part of one).
    this.match = new Int32Array(line.length).fill(-1);
    const stack: number[] = [];
    let lastSpace = -1;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (c === '\\') i++;
      else if (c === '(') stack.push(i);
      else if (c === ')') {
        const o = stack.pop();
        if (o !== undefined && lastSpace < o) this.match[o] = i;
      } else if (isSpaceOrControl(c)) lastSpace = i;
    }
  }

  /** Parses `dest "title")` starting after `(`; returns the destination and the index after `)`. */
  destination(from: number): { dest: string; end: number } | null {
    const line = this.line;
    let i = from;
    while (line[i] === ' ' || line[i] === '\t') i++;
    let dest: string;
    if (line[i] === '<') {
      const close = this.next('>', i + 1);
      if (close >= line.length || this.next('<', i + 1) < close) return null;
      dest = line.slice(i + 1, close);
      i = close + 1;
    } else {
      const begin = i;
      while (i < line.length) {
        const c = line[i]!;
        if (c === '\\') i += 2;
        else if (c === ')' || isSpaceOrControl(c)) break;
        else if (c === '(') {
          const m = this.match[i]!;
          if (m < 0) return null;
          i = m + 1;
        } else i++;
      }
      if (i > line.length) i = line.length;
      dest = line.slice(begin, i).replace(/\\([!-/:-@[-`{-~])/g, '$1');
    }
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === ')') return { dest, end: i + 1 };
    const quote = line[i];
    if (quote !== '"' && quote !== "'" && quote !== '(') return null;
    const closeTitle = this.next(quote === '(' ? ')' : quote, i + 1);
    if (closeTitle >= line.length) return null;
    i = closeTitle + 1;
    while (line[i] === ' ' || line[i] === '\t') i++;
    return line[i] === ')' ? { dest, end: i + 1 } : null;
  }

  /** Index of the next `ch` at or after `q`, or the line length. */
  private next(ch: string, q: number): number {
    const known = this.found.get(ch);
    // Known: no `ch` in [from, at). A query inside that range is answered without scanning, and one
    // just before it only scans up to `from`, so repeated queries never rescan the same stretch.
    if (known && q >= known.from && q <= known.at) return known.at;
    let at = -1;
    if (known && q < known.from) {
      for (let k = q; k < known.from; k++) {
        if (this.line[k] === ch) {
          at = k;
          break;
        }
      }
      if (at === -1) at = known.at;
    } else {
      at = this.line.indexOf(ch, q);
      if (at === -1) at = this.line.length;
    }
    this.found.set(ch, { from: q, at });
    return at;
  }
}

function isSpaceOrControl(c: string): boolean {
  return c === ' ' || c.charCodeAt(0) < 0x20 || c === '\x7f';
}

/**
 * Replaces inline code spans with spaces so their brackets are not links. A span opens with a run of
 * N backticks and closes at the next run of exactly N; an unmatched run is literal text. Runs are
 * indexed by length first, so finding each closer is amortised linear.
 */
function blankCodeSpans(line: string): string {
  if (!line.includes('`')) return line;
  const runs: { start: number; len: number }[] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== '`') continue;
    let j = i;
    while (line[j] === '`') j++;
    // A backslash before the run escapes its first backtick (outside a span, where escapes apply).
    const escaped = i > 0 && line[i - 1] === '\\';
    if (!escaped || j - i > 1) runs.push({ start: escaped ? i + 1 : i, len: escaped ? j - i - 1 : j - i });
    i = j - 1;
  }
  const byLen = new Map<number, { at: number[]; next: number }>();
  runs.forEach((run, index) => {
    const slot = byLen.get(run.len) ?? { at: [], next: 0 };
    slot.at.push(index);
    byLen.set(run.len, slot);
  });
  const out = line.split('');
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r]!;
    const slot = byLen.get(run.len)!;
    while (slot.next < slot.at.length && slot.at[slot.next]! <= r) slot.next++;
    if (slot.next >= slot.at.length) continue;
    const closer = slot.at[slot.next]!;
    const closeRun = runs[closer]!;
    for (let k = run.start; k < closeRun.start + closeRun.len; k++) out[k] = ' ';
    r = closer;
  }
  return out.join('');
}

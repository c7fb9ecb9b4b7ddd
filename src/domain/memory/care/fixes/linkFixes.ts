// remove-link and retarget-link: every link of a file that points at the dangling target goes. An index
// entry line made of the link (`- [Old](old.md) — hook`) is removed whole; a link inside prose becomes
// its text. Retargeting points the link at the topic the target most likely meant (suggest.ts), keeping
// its text, alias and anchor.
import path from 'node:path';
import { frontmatterBlock } from '../../../markdown/frontmatter.js';
import { linkPath } from '../../../markdown/linkPath.js';
import { type FoundLink, findLinks } from '../../../markdown/links.js';
import type { MemoryEntry } from '../../../types.js';
import { suggestTarget } from '../suggest.js';
import type { FixInput, FixPlan } from './types.js';
import { entryLine, joinLines, linkDestination, markdownLinkText, splitLines } from './lines.js';

export function removeLink(input: FixInput): FixPlan {
  return rewriteLinks(input, null);
}

export function retargetLink(input: FixInput): FixPlan {
  if (input.target === null) return { invalid: 'retarget-link needs the dangling target' };
  const to = suggestTarget(input.target, input.ctx.entries);
  if (to === null) return { conflict: `no topic looks like ${input.target} any more` };
  return rewriteLinks(input, to);
}

function rewriteLinks(input: FixInput, to: MemoryEntry | null): FixPlan {
  const { ctx, file, target } = input;
  if (target === null) return { invalid: 'the dangling target is missing' };
  const text = input.read(file);
  if (text === null || !ctx.byFile.has(file)) return { conflict: `${file} does not exist any more` };
  const bodyStart = frontmatterBlock(text)?.bodyStart ?? 0;
  const lines = splitLines(text);
  // Line starts, to map the body's link offsets to lines.
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.text.length + line.eol.length;
  }
  const matching = findLinks(text.slice(bodyStart)).filter((link) => brokenTarget(input, link) === target);
  if (matching.length === 0) return { conflict: `${file} has no link to ${target} any more` };
  const removed = new Set<number>();
  // Per line, the replacements from the right, so earlier offsets stay valid.
  const edits = new Map<number, { start: number; end: number; text: string }[]>();
  for (const link of matching) {
    const at = bodyStart + link.start;
    let lineNo = upperBound(starts, at) - 1;
    if (lineNo < 0) lineNo = 0;
    const line = lines[lineNo]!;
    const start = at - starts[lineNo]!;
    const end = bodyStart + link.end - starts[lineNo]!;
    // Links never span lines (links.ts scans one line at a time).
    const local: FoundLink = { ...link, start, end };
    const entry = entryLine(line.text);
    if (to === null && entry !== null && entry.link.start === start) {
      removed.add(lineNo);
      continue;
    }
    const replacement = to === null ? plainText(line.text, local) : retargeted(line.text, local, file, to);
    const list = edits.get(lineNo) ?? [];
    list.push({ start, end, text: replacement });
    edits.set(lineNo, list);
  }
  for (const [lineNo, list] of edits) {
    const line = lines[lineNo]!;
    for (const edit of list.sort((a, b) => b.start - a.start)) line.text = line.text.slice(0, edit.start) + edit.text + line.text.slice(edit.end);
  }
  const kept = lines.filter((_, i) => !removed.has(i));
  return { changes: [{ file, before: text, after: joinLines(kept) }] };
}

/** The dangling target a link names (as the health check lists it), or null when it resolves or is no memory link. */
function brokenTarget(input: FixInput, link: FoundLink): string | null {
  const { resolver } = input.ctx;
  if (link.kind === 'wiki') {
    const r = resolver.wiki(link.target);
    return r.kind === 'broken' ? r.target : null;
  }
  const p = linkPath(link.target);
  if (p === null) return null;
  const r = resolver.path(p, input.file);
  return r.kind === 'broken' ? r.target : null;
}

function plainText(line: string, link: FoundLink): string {
  if (link.kind === 'markdown') return markdownLinkText(line, link);
  const inner = line.slice(link.start + 2, link.end - 2);
  const bar = inner.indexOf('|');
  return (bar === -1 ? inner.split('#')[0]! : inner.slice(bar + 1)).trim();
}

function retargeted(line: string, link: FoundLink, from: string, to: MemoryEntry): string {
  const whole = line.slice(link.start, link.end);
  if (link.kind === 'wiki') {
    const inner = whole.slice(2, -2);
    const cut = inner.search(/[|#]/);
    const stem = to.filename.replace(/\.md$/, '');
    return `[[${stem}${cut === -1 ? '' : inner.slice(cut)}]]`;
  }
  const text = markdownLinkText(line, link);
  // `[text](` then the destination, an optional title, `)`.
  const inner = whole.slice(text.length + 3, -1);
  const lead = inner.length - inner.trimStart().length;
  const destEnd = inner[lead] === '<' ? inner.indexOf('>', lead) + 1 : lead + inner.slice(lead).search(/\s|$/);
  const rawDest = inner.slice(lead, destEnd).replace(/^<|>$/g, '');
  const hash = rawDest.indexOf('#');
  const anchor = hash === -1 ? '' : rawDest.slice(hash);
  const dir = path.posix.dirname(from);
  const rel = path.posix.relative(dir === '.' ? '' : dir, to.filename);
  return `[${text}](${linkDestination(rel)}${anchor}${inner.slice(destEnd)})`;
}

/** Index of the first start greater than `at`. */
function upperBound(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

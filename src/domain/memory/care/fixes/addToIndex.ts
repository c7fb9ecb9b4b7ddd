// add-to-index: links an orphan topic from MEMORY.md in the index's own style
// (`- [name](file.md) — description`): under the heading of its type when the index groups its entries
// by type (`## User`, `## Feedback`), else after the last entry; always before the cut, so Claude Code
// sees the new line. Without a MEMORY.md, one is written holding that line, as Claude Code would.
import { foldCase } from '../../../fold.js';
import { parseFrontmatter } from '../../../markdown/frontmatter.js';
import { firstHeading } from '../../../markdown/text.js';
import { loadBudget } from '../../loadBudget.js';
import { INDEX_FILE } from '../../scan.js';
import type { FixInput, FixPlan } from './types.js';
import {
  type Line, endLastLine, entryLine, fencedLines, fileEol, indexStyle, joinLines, linkDestination, linkText, oneLine, splitLines,
} from './lines.js';

const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/;

export function addToIndex(input: FixInput): FixPlan {
  const { ctx, file } = input;
  if (file === INDEX_FILE) return { invalid: 'MEMORY.md is the index itself' };
  const entry = ctx.byFile.get(file)?.entry;
  const topic = input.read(file);
  if (!entry || topic === null) return { conflict: `${file} does not exist any more` };
  if (!ctx.source.orphans.includes(file)) return { conflict: `MEMORY.md already links ${file}` };

  const frontmatter = parseFrontmatter(topic);
  const name = stringField(frontmatter.data.name) ?? firstHeading(frontmatter.body) ?? file.replace(/\.md$/, '');
  // The index is not YAML: a description cut by ` #` is written whole here.
  const description = frontmatter.written?.description ?? stringField(frontmatter.data.description);
  const index = input.read(INDEX_FILE);
  const lines = index === null ? [] : splitLines(index);
  const style = indexStyle(lines);
  const eol = fileEol(lines);
  const text = `${style.indent}${style.bullet}${style.gap}[${linkText(oneLine(name))}](${linkDestination(file)})` +
    (description ? `${style.separator}${oneLine(description)}` : '');
  const at = insertionLine(lines, index ?? '', entry.type);
  if (at === lines.length) endLastLine(lines, eol);
  lines.splice(at, 0, { text, eol });
  return { changes: [{ file: INDEX_FILE, before: index, after: joinLines(lines) }] };
}

function stringField(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * Where the new line goes: after the last entry of the section headed by the topic's type, else after
 * the last entry of the index, else at the end; moved up before the cut when that falls past it.
 */
function insertionLine(lines: readonly Line[], index: string, type: string | null): number {
  const fenced = fencedLines(lines);
  const budget = loadBudget(index);
  // 0-based: lines from here on are not loaded.
  const limit = budget.firstUnreadLine ?? lines.length;
  let lastEntry = -1;
  let lastLoadedEntry = -1;
  let sectionHeading = -1;
  let sectionLastEntry = -1;
  let inTypeSection = false;
  for (let i = 0; i < lines.length; i++) {
    if (fenced.has(i)) continue;
    const heading = HEADING.exec(lines[i]!.text);
    if (heading) {
      inTypeSection = type !== null && sectionHeading === -1 && headingNames(heading[1]!, type);
      if (inTypeSection) sectionHeading = i;
      continue;
    }
    if (entryLine(lines[i]!.text) === null) continue;
    lastEntry = i;
    if (i < limit) lastLoadedEntry = i;
    if (inTypeSection) sectionLastEntry = i;
  }
  const wanted = sectionHeading >= 0 ? (sectionLastEntry >= 0 ? sectionLastEntry : sectionHeading) + 1
    : lastEntry >= 0 ? lastEntry + 1 : lines.length;
  if (budget.firstUnreadLine === null || wanted <= limit) return wanted;
  return lastLoadedEntry >= 0 ? lastLoadedEntry + 1 : Math.max(0, limit - 1);
}

/** `## User`, `## Users`, `## User memories` head the entries of type `user`. */
function headingNames(heading: string, type: string): boolean {
  const words = foldCase(heading).split(/[^\p{L}]+/u).filter((w) => w !== '');
  const t = foldCase(type);
  return words.length > 0 && (words[0] === t || words[0] === `${t}s`);
}

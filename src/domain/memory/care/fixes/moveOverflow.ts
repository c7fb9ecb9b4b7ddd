// move-past-cut: the lines of MEMORY.md that Claude Code does not load move into a new topic file, and one
// line linking that file takes their place, before the cut: everything the index held is reachable again
// (the topic is read on demand), and the index fits the load budget. The move starts as late as it can
// while the shortened index, with its new line, passes the same rule (loadBudget.ts), then back to the start
// of the section it would split (`## Review checklist` and its bullets move together), so no line is left
// in the new topic without its heading.
import { loadBudget } from '../../loadBudget.js';
import { INDEX_FILE } from '../../scan.js';
import type { FixInput, FixPlan } from './types.js';
import { type Line, endLastLine, fencedLines, fileEol, indexStyle, joinLines, linkDestination, splitLines } from './lines.js';

/** A section heading below the title (`## …` to `###### …`): the unit a move keeps whole. */
const SECTION = /^ {0,3}#{2,6}[ \t]+\S/;

export const OVERFLOW_NAME = 'index-overflow';
const OVERFLOW_TITLE = 'More memories';
const OVERFLOW_HOOK = 'index entries moved out of MEMORY.md, past what Claude Code loads';

export function moveOverflow(input: FixInput): FixPlan {
  if (input.file !== INDEX_FILE) return { invalid: 'move-past-cut applies to MEMORY.md' };
  const index = input.read(INDEX_FILE);
  if (index === null) return { conflict: 'MEMORY.md does not exist any more' };
  const budget = loadBudget(index);
  if (!budget.truncated || budget.firstUnreadLine === null) return { conflict: 'MEMORY.md fits what Claude Code loads now' };
  const lines = splitLines(index);
  const eol = fileEol(lines);
  const name = freeName(input);
  const style = indexStyle(lines);
  const link: Line = { text: `${style.indent}${style.bullet}${style.gap}[${OVERFLOW_TITLE}](${linkDestination(name)})${style.separator}${OVERFLOW_HOOK}`, eol };
  let from = Math.min(budget.firstUnreadLine, lines.length);
  for (;;) {
    const head = lines.slice(0, from).map((l) => ({ ...l }));
    endLastLine(head, eol);
    const candidate = joinLines([...head, link]);
    if (!loadBudget(candidate).truncated) {
      const section = sectionStart(lines, from);
      // The section moves whole, unless it is all the index holds: then its heading goes with its moved lines too.
      const carried = section !== null && !onlyTitleBefore(lines, section) ? null : section;
      if (section !== null && carried === null) from = section;
      const keptLines = lines.slice(0, from).map((l) => ({ ...l }));
      endLastLine(keptLines, eol);
      const kept = joinLines([...keptLines, link]);
      const rest = trimBlankEdges(lines.slice(from));
      const moved = carried !== null && rest.length > 0 ? [{ ...lines[carried]!, eol }, ...rest] : rest;
      const topic = ['---', `name: ${OVERFLOW_NAME}`, `description: "${OVERFLOW_HOOK}"`, '---', ''].join(eol) + joinLines(moved);
      return {
        changes: [
          { file: name, before: null, after: moved.at(-1)?.eol === '' ? topic + eol : topic },
          { file: INDEX_FILE, before: index, after: kept },
        ],
      };
    }
    if (from === 0) return { conflict: 'no part of MEMORY.md fits what Claude Code loads' };
    from--;
  }
}

/**
 * Where the section holding line `from` starts, when `from` falls inside one (after its heading): the whole
 * section moves, as fewer kept lines still fit. A move before the first section heading stays where it is.
 */
function sectionStart(lines: readonly Line[], from: number): number | null {
  const fenced = fencedLines(lines);
  let next = from;
  while (next < lines.length && lines[next]!.text.trim() === '') next++;
  // Already at a section boundary (or nothing moves).
  if (next >= lines.length || (!fenced.has(next) && SECTION.test(lines[next]!.text))) return null;
  for (let i = Math.min(from, lines.length) - 1; i >= 0; i--) {
    if (!fenced.has(i) && SECTION.test(lines[i]!.text)) return i;
  }
  return null;
}

/** Whether only blank lines and a `# title` lie before line `at` (moving from there would empty the index). */
function onlyTitleBefore(lines: readonly Line[], at: number): boolean {
  return lines.slice(0, at).every((l) => l.text.trim() === '' || /^ {0,3}#[ \t]/.test(l.text));
}

/** `index-overflow.md`, or the first `index-overflow-<n>.md` that neither the listing nor the folder holds. */
function freeName(input: FixInput): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${OVERFLOW_NAME}.md` : `${OVERFLOW_NAME}-${n}.md`;
    if (!input.ctx.byFile.has(name) && input.read(name) === null) return name;
  }
}

function trimBlankEdges(lines: Line[]): Line[] {
  let start = 0;
  while (start < lines.length && lines[start]!.text.trim() === '') start++;
  return lines.slice(start);
}

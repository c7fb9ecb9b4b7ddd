// Two versions of a plan compared block by block, for the rendered comparison: a block is what markdown
// makes of a top-level piece of the text (a heading, a paragraph, a whole list, a table, a code fence).
// Unchanged blocks render as they are; a changed block is paired with the block it replaced so the reader
// can mark the words that changed inside it; blocks with no counterpart are wholly added or removed.
// Pure (markdown-it parses; nothing is rendered here).
import MarkdownIt, { type MarkdownIt as MarkdownItInstance } from 'markdown-it';
import { diffArrays } from 'diff';
import { splitLines } from './lineDiff';

export type BlockItem =
  | { kind: 'same'; text: string }
  | { kind: 'added'; text: string }
  | { kind: 'removed'; text: string }
  | { kind: 'changed'; old: string; text: string };

export interface BlockDiff {
  items: BlockItem[];
  /** The block diff gave up (more edits than the bound): the changed middle is shown removed, then added. */
  coarse: boolean;
}

/** Block edits explored before giving up on aligning the blocks. */
export const MAX_BLOCK_EDITS = 1000;

// Only the block structure is read, which no plugin of the renderer changes; raw HTML is off as there.
let parser: MarkdownItInstance | null = null;

/** The source text of each top-level block, in order (blank lines between blocks dropped). */
export function markdownBlocks(text: string): string[] {
  parser ??= new MarkdownIt({ html: false });
  const lines = splitLines(text);
  const blocks: string[] = [];
  let covered = 0;
  for (const token of parser.parse(text, {})) {
    if (token.level !== 0 || token.nesting === -1 || !token.map) continue;
    const [start, mapEnd] = token.map;
    if (start < covered) continue;
    let end = mapEnd;
    while (end > start && lines[end - 1]!.trim() === '') end -= 1;
    blocks.push(lines.slice(start, end).join('\n'));
    covered = mapEnd;
  }
  return blocks;
}

export function diffBlocks(oldText: string, newText: string, maxEdits = MAX_BLOCK_EDITS): BlockDiff {
  const a = markdownBlocks(oldText);
  const b = markdownBlocks(newText);
  let coarse = false;
  let changes = diffArrays(a, b, { maxEditLength: maxEdits });
  if (changes === undefined) {
    coarse = true;
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
    let end = 0;
    while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end += 1;
    changes = [
      { value: a.slice(0, start), added: false, removed: false, count: start },
      { value: a.slice(start, a.length - end), added: false, removed: true, count: a.length - end - start },
      { value: b.slice(start, b.length - end), added: true, removed: false, count: b.length - end - start },
      { value: b.slice(b.length - end), added: false, removed: false, count: end },
    ];
  }
  const items: BlockItem[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    const paired = coarse ? 0 : Math.min(removed.length, added.length);
    for (let i = 0; i < paired; i += 1) items.push({ kind: 'changed', old: removed[i]!, text: added[i]! });
    for (const text of removed.slice(paired)) items.push({ kind: 'removed', text });
    for (const text of added.slice(paired)) items.push({ kind: 'added', text });
    removed = [];
    added = [];
  };
  for (const change of changes) {
    if (change.removed) removed.push(...change.value);
    else if (change.added) added.push(...change.value);
    else {
      flush();
      for (const text of change.value) items.push({ kind: 'same', text });
    }
  }
  flush();
  return { items, coarse };
}

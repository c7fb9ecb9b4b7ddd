// Word-level marks inside a rendered (and already sanitized) markdown block: the block's text compared
// with the text of its counterpart, the changed words wrapped in <ins> or <del> elements made here, each
// with a visually hidden "added:" / "removed:" so the change is said, not only coloured. Works on DOM text
// nodes, never on HTML strings.
import { diffWordsWithSpace } from 'diff';

/** Longest pair of block texts compared word by word; longer blocks are marked as a whole. */
export const MAX_BLOCK_TEXT = 20_000;
const MAX_WORD_EDITS = 300;
const MIN_SHARED = 0.3;

/** The text a piece of sanitized HTML shows, read from an inert template (nothing in it loads). */
export function textOfHtml(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content.textContent ?? '';
}

function textNodes(root: HTMLElement): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode as Text);
  return nodes;
}

export function markElement(kind: 'added' | 'removed', text: string): HTMLElement {
  const el = document.createElement(kind === 'added' ? 'ins' : 'del');
  el.className = `word-${kind}`;
  const label = document.createElement('span');
  label.className = 'sr-only';
  label.textContent = kind === 'added' ? 'added: ' : 'removed: ';
  el.append(label, text);
  return el;
}

/**
 * Marks in `root` (one side of a changed block) what differs from `otherText` (the other side's text).
 * side 'new': added words become <ins>, and with `showRemoved` the removed ones are put back as <del>
 * where they were (an inline comparison); side 'old': removed words become <del>. False when the block
 * was left alone: too long, or sharing too little with the other side to be worth marking word by word.
 */
export function markChanges(root: HTMLElement, otherText: string, side: 'old' | 'new', showRemoved = false): boolean {
  const nodes = textNodes(root);
  const own = nodes.map((n) => n.data).join('');
  if (own.length + otherText.length > MAX_BLOCK_TEXT) return false;
  const changes = side === 'new' ? diffWordsWithSpace(otherText, own, { maxEditLength: MAX_WORD_EDITS }) : diffWordsWithSpace(own, otherText, { maxEditLength: MAX_WORD_EDITS });
  if (changes === undefined) return false;
  let shared = 0;
  for (const c of changes) if (!c.added && !c.removed) shared += c.value.trim().length;
  const longer = Math.max(own.trim().length, otherText.trim().length);
  if (longer > 0 && shared / longer < MIN_SHARED) return false;

  // Each change either covers text of this side (same, and ours: added on the new side, removed on the
  // old) or is the other side's only (put back as <del> inline, else skipped).
  const ours = side === 'new' ? 'added' : 'removed';
  const ops = changes.map((c) => ({
    text: c.value,
    kind: !c.added && !c.removed ? ('same' as const) : (c.added ? 'added' : 'removed') === ours ? ('ours' as const) : ('theirs' as const),
  }));
  let op = 0;
  let used = 0; // characters of ops[op] already placed
  let last: ChildNode | null = null;
  for (const node of nodes) {
    const text = node.data;
    const pieces: Node[] = [];
    let at = 0;
    while (at < text.length && op < ops.length) {
      const o = ops[op]!;
      if (o.kind === 'theirs') {
        if (showRemoved && o.text.trim() !== '') pieces.push(markElement('removed', o.text));
        op += 1;
        continue;
      }
      const take = Math.min(o.text.length - used, text.length - at);
      const piece = text.slice(at, at + take);
      pieces.push(o.kind === 'ours' && piece.trim() !== '' ? markElement(ours, piece) : document.createTextNode(piece));
      at += take;
      used += take;
      if (used === o.text.length) {
        op += 1;
        used = 0;
      }
    }
    if (at < text.length) pieces.push(document.createTextNode(text.slice(at)));
    node.replaceWith(...pieces);
    if (pieces.length > 0) last = pieces.at(-1) as ChildNode;
  }
  // Removed words after the last text of the block.
  const tail: Node[] = [];
  for (; op < ops.length; op += 1) {
    const o = ops[op]!;
    if (o.kind === 'theirs' && showRemoved && o.text.trim() !== '') tail.push(markElement('removed', o.text));
  }
  if (tail.length > 0) {
    if (last?.parentNode) last.after(...tail);
    else root.append(...tail);
  }
  return true;
}

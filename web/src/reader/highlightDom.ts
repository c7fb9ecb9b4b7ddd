// Marks search matches inside rendered HTML by wrapping text nodes in <mark class="search-hit">
// (never by editing HTML strings), and removes them again.
import { findMatches, needlesFor } from '../search/match';

const SKIP = '.mermaid-block, .cut-marker, .sr-only';
const MAX_MARKS = 2000;

export function clearHighlights(root: HTMLElement): void {
  const marks = root.querySelectorAll('mark.search-hit');
  if (!marks.length) return;
  for (const mark of Array.from(marks)) mark.replaceWith(document.createTextNode(mark.textContent ?? ''));
  root.normalize();
}

export function highlightMatches(root: HTMLElement, query: string): HTMLElement[] {
  if (!query.trim()) return [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes: Text[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode as Text);
  const marks: HTMLElement[] = [];
  const needles = needlesFor(nodes.map((n) => n.data).join('\n'), query);
  for (const node of nodes) {
    const text = node.data;
    const ranges = findMatches(text, needles, MAX_MARKS - marks.length);
    if (!ranges.length) continue;
    const frag = document.createDocumentFragment();
    let pos = 0;
    for (const [start, end] of ranges) {
      if (start > pos) frag.append(text.slice(pos, start));
      const mark = document.createElement('mark');
      mark.className = 'search-hit';
      mark.textContent = text.slice(start, end);
      frag.append(mark);
      marks.push(mark);
      pos = end;
    }
    if (pos < text.length) frag.append(text.slice(pos));
    node.replaceWith(frag);
    if (marks.length >= MAX_MARKS) break;
  }
  return marks;
}

// Two versions compared as rendered markdown, block by block (blockDiff.ts): unchanged blocks as they
// read, changed ones with their changed words marked (renderedMarks.ts), added and removed blocks
// labelled; inline (one column) or side by side. Long unchanged stretches fold away.
import { useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { DiffLayout } from '../state/url';
import type { RenderOptions } from '../reader/DocumentView';
import { renderMarkdown } from '../reader/markdown';
import { sanitizeHtml } from '../reader/sanitize';
import { diffBlocks, type BlockItem } from './blockDiff';
import { foldRows } from './diffRows';
import { FoldButton } from './FoldButton';
import { markChanges, textOfHtml } from './renderedMarks';

interface Props {
  oldText: string;
  newText: string;
  layout: DiffLayout;
  options: RenderOptions;
  onNavigate(nav: string): void;
  onLocalLink(title: string): void;
}

type Side = { kind: 'same' | 'added' | 'removed' | 'changed'; text: string; other: string | null };
interface BlockRow {
  left: Side | null;
  right: Side | null;
  /** Inline: the one block shown. */
  inline: Side;
}

/** Unchanged blocks kept on each side of a change. */
const CONTEXT_BLOCKS = 1;

function rowsOf(items: BlockItem[], layout: DiffLayout): BlockRow[] {
  const rows: BlockRow[] = [];
  let removed: Side[] = [];
  let added: Side[] = [];
  const flush = () => {
    if (layout === 'split') {
      for (let i = 0; i < Math.max(removed.length, added.length); i += 1) {
        const left = removed[i] ?? null;
        const right = added[i] ?? null;
        rows.push({ left, right, inline: (right ?? left)! });
      }
    } else {
      for (const side of [...removed, ...added]) rows.push({ left: null, right: null, inline: side });
    }
    removed = [];
    added = [];
  };
  for (const item of items) {
    if (item.kind === 'removed') removed.push({ kind: 'removed', text: item.text, other: null });
    else if (item.kind === 'added') added.push({ kind: 'added', text: item.text, other: null });
    else {
      flush();
      if (item.kind === 'same') {
        const side: Side = { kind: 'same', text: item.text, other: null };
        rows.push({ left: side, right: side, inline: side });
      } else {
        rows.push({
          left: { kind: 'changed', text: item.old, other: item.text },
          right: { kind: 'changed', text: item.text, other: item.old },
          inline: { kind: 'changed', text: item.text, other: item.old },
        });
      }
    }
  }
  flush();
  return rows;
}

const LABEL: Record<Side['kind'], string | null> = { same: null, added: 'Added', removed: 'Removed', changed: 'Changed' };

function Block({ side, column, html, otherHtml }: { side: Side; column: 'old' | 'new' | 'inline'; html: string; otherHtml: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const [marked, setMarked] = useState(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.innerHTML = html;
    // Heading ids would repeat between the versions' blocks.
    for (const h of Array.from(el.querySelectorAll('[id]'))) h.removeAttribute('id');
    if (side.kind === 'changed' && otherHtml !== null) {
      setMarked(markChanges(el, textOfHtml(otherHtml), column === 'old' ? 'old' : 'new', column === 'inline'));
    }
  }, [html, otherHtml, side.kind, column]);
  // A changed block whose words could not be marked reads as replaced: say so.
  const kind = side.kind === 'changed' && !marked ? (column === 'old' ? 'removed' : 'added') : side.kind;
  const label = LABEL[kind];
  return (
    <div className={`diff-block block-${kind}`}>
      {label && (
        <span className="block-label">
          {kind === 'added' ? '+ ' : kind === 'removed' ? '− ' : '± '}
          {label}
        </span>
      )}
      <div ref={ref} className="markdown-body" />
    </div>
  );
}

export function RenderedDiff({ oldText, newText, layout, options, onNavigate, onLocalLink }: Props) {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const diff = useMemo(() => diffBlocks(oldText, newText), [oldText, newText]);
  const rows = useMemo(() => rowsOf(diff.items, layout), [diff, layout]);
  const shown = useMemo(() => foldRows(rows, expanded, (r) => r.inline.kind === 'same', CONTEXT_BLOCKS), [rows, expanded]);
  // Rendered once per block text while this pair is shown.
  const htmlOf = useMemo(() => {
    const cache = new Map<string, string>();
    return (text: string) => {
      let html = cache.get(text);
      if (html === undefined) {
        html = sanitizeHtml(renderMarkdown(text, options).html);
        cache.set(text, html);
      }
      return html;
    };
  }, [options]);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const anchor = (e.target as HTMLElement).closest('a');
    if (!anchor) return;
    const nav = anchor.dataset.nav;
    if (anchor.dataset.broken) e.preventDefault();
    if (!nav) return;
    e.preventDefault();
    if (nav === 'none') onLocalLink(anchor.title);
    else if (!nav.startsWith('anchor:')) onNavigate(nav);
  };

  const block = (side: Side, column: 'old' | 'new' | 'inline') => (
    <Block side={side} column={column} html={htmlOf(side.text)} otherHtml={side.other === null ? null : htmlOf(side.other)} />
  );

  if (!diff.items.some((i) => i.kind !== 'same')) {
    return <p className="diff-empty">The two versions render the same: no block differs.</p>;
  }
  return (
    <div className={`rendered-diff layout-${layout}`} onClick={onClick}>
      {diff.coarse && (
        <p className="notice">These versions differ in too many places to pair their blocks: the old blocks are shown removed, then the new ones added.</p>
      )}
      {layout === 'split' && (
        <div className="diff-columns-head" aria-hidden="true">
          <span>Old</span>
          <span>New</span>
        </div>
      )}
      {shown.map((item) =>
        item.type === 'fold' ? (
          <FoldButton key={`f${item.start}`} count={item.end - item.start} unit="unchanged block" onOpen={() => setExpanded((s) => new Set([...s, item.start]))} />
        ) : layout === 'split' ? (
          <div key={item.index} className="diff-pair">
            <div className="diff-side side-old">{item.row.left ? block(item.row.left, 'old') : <span className="sr-only">Nothing on the old side</span>}</div>
            <div className="diff-side side-new">{item.row.right ? block(item.row.right, 'new') : <span className="sr-only">Nothing on the new side</span>}</div>
          </div>
        ) : (
          <div key={item.index}>{block(item.row.inline, 'inline')}</div>
        ),
      )}
    </div>
  );
}

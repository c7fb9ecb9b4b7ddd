// The plans table: virtualized (10,000 rows stay smooth), sortable columns, search highlights and
// find's snippets under the matching rows, freshly added plans briefly highlighted, plans Claude Code
// deletes soon marked, keyboard selection kept in view.
import { elementScroll, observeElementRect, useVirtualizer, type Rect, type Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, type CSSProperties } from 'react';
import type { SortDir, SortKey } from '../state/url';
import type { Found } from '../find/boxFind';
import type { FindSnippetView } from '../find/found';
import { SnippetButtons } from '../find/Snippet';
import { Highlight } from '../search/Highlight';
import { exactTime, formatBytes, formatCount, shortRelativeTime } from '../ui/format';
import type { PlanRow } from './planQuery';
import type { PlanMetadata, RetentionPolicy } from '../api/types';
import { deletesAt, riskOf, whenText } from '../history/retention';

const ROW_HEIGHT = 54;
/**
 * The header row's height, set on it (--grid-header) rather than measured: it sits above the rows inside
 * the one focusable grid (sticky), and measuring it would lay the page out before its first paint.
 */
const HEADER_HEIGHT = 32;
/** Each snippet is one line (cut with an ellipsis), so a row's height follows from its count alone. */
const SNIPPET_HEIGHT = 20;

function rowHeight(snippets: number): number {
  return snippets === 0 ? ROW_HEIGHT : ROW_HEIGHT - 2 + snippets * SNIPPET_HEIGHT;
}

/*
 * The list's first paint comes without a layout forced before it: the virtualizer, as it mounts, reads the
 * list's size and writes its scroll position, and either makes the browser lay the whole page out in the
 * middle of React's commit. Here the size comes from a ResizeObserver, after layout (until then the list is
 * taken to be the window's size: a few rows too many are drawn), and the scroll position of a list not yet
 * laid out is not set to 0, which it already is.
 */
const laidOut = new WeakSet<Element>();

function observeRectAfterLayout(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  const win = instance.targetWindow;
  if (!element || !win?.ResizeObserver) return observeElementRect(instance, cb);
  const observer = new win.ResizeObserver(() => {
    laidOut.add(element);
    cb({ width: element.clientWidth, height: element.clientHeight });
  });
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

const scrollUnlessFresh: VirtualizerOptions<HTMLDivElement, Element>['scrollToFn'] = (offset, options, instance) => {
  const element = instance.scrollElement;
  if (element && !laidOut.has(element) && offset + (options.adjustments ?? 0) === 0) return;
  elementScroll(offset, options, instance);
};

/** Index of the row at `offset` px from the top of the rows, by the rows' tops (ascending, tops[0] = 0). */
function rowAt(tops: readonly number[], offset: number): number {
  let lo = 0;
  let hi = tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tops[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface Props {
  rows: PlanRow[];
  selected: string | null;
  query: string;
  sort: SortKey;
  dir: SortDir;
  fresh: ReadonlySet<string>;
  now: number;
  /** Claude Code's cleanup rule, once known: rows of plans it deletes within a week say so. */
  retention: RetentionPolicy | null;
  /** Changes when the query, filter or sort change (as opposed to a live update of the data). */
  viewKey: string;
  /** Find's results for the query by file name: their snippets go under the rows. */
  found: ReadonlyMap<string, Found> | null;
  /** Length of the longest project name: the project column is sized to fit it (within bounds). */
  projectChars: number;
  onSort(key: SortKey): void;
  onSelect(filename: string): void;
  onOpenInEditor(filename: string): void;
  /** A snippet was clicked: open the plan at its line. */
  onOpenSnippet(filename: string, snippet: FindSnippetView): void;
}

const COLUMNS: { key: SortKey; label: string; className: string }[] = [
  { key: 'title', label: 'Title', className: 'col-title' },
  { key: 'project', label: 'Project', className: 'col-project' },
  { key: 'modified', label: 'Modified', className: 'col-modified' },
  { key: 'size', label: 'Size', className: 'col-size' },
  { key: 'lines', label: 'Lines', className: 'col-lines' },
];

function rowId(filename: string): string {
  return `plan-row-${encodeURIComponent(filename).replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

export function PlanList(props: Props) {
  const { rows, selected, query, sort, dir, fresh, now, retention, viewKey, found, projectChars, onSort, onSelect, onOpenInEditor, onOpenSnippet } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const snippetsOf = (i: number): FindSnippetView[] => {
    const filename = rows[i]?.plan.filename;
    return (filename === undefined ? undefined : found?.get(filename)?.snippets) ?? [];
  };
  // Where each row starts (px from the first row): rows with snippets are taller.
  const tops = useMemo(() => {
    const out = new Array<number>(rows.length + 1);
    out[0] = 0;
    for (let i = 0; i < rows.length; i += 1) {
      const n = found?.get(rows[i]!.plan.filename)?.snippets.length ?? 0;
      out[i + 1] = out[i]! + rowHeight(n);
    }
    return out;
  }, [rows, found]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => tops[i + 1]! - tops[i]!,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    getItemKey: (i) => rows[i]?.plan.filename ?? i,
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollUnlessFresh,
    initialRect: { width: window.innerWidth, height: window.innerHeight },
  });

  // The heights are known, never measured: the virtualizer forgets the old ones when they change.
  const firstLayout = useRef(true);
  useLayoutEffect(() => {
    if (firstLayout.current) firstLayout.current = false;
    else virtualizer.measure();
  }, [tops, virtualizer]);

  const selectedIndex = selected ? rows.findIndex((r) => r.plan.filename === selected) : -1;

  // Keep the selection in view when it moves by keyboard (or arrives from the URL).
  const lastSelected = useRef<string | null>(null);
  useEffect(() => {
    if (selectedIndex < 0 || lastSelected.current === selected) return;
    lastSelected.current = selected;
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selected, selectedIndex, virtualizer]);

  // New plans arrive at the top: if the reader of the list has scrolled down, keep the rows they
  // were looking at in place instead of letting everything shift by one row.
  const firstKey = useRef<{ key: string | null; top: number }>({ key: null, top: 0 });
  const lastViewKey = useRef(viewKey);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const anchor = firstKey.current;
    const sameView = lastViewKey.current === viewKey;
    lastViewKey.current = viewKey;
    if (!sameView) {
      // New query, filter or sort: start at the top, or at the open plan when it is in the list.
      if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'center' });
      else el.scrollTop = 0;
      return;
    }
    if (anchor.key && el.scrollTop > 0) {
      const index = rows.findIndex((r) => r.plan.filename === anchor.key);
      if (index >= 0) {
        const shouldBe = tops[index]! + anchor.top;
        if (Math.abs(shouldBe - el.scrollTop) >= ROW_HEIGHT) el.scrollTop = shouldBe;
      }
    }
  }, [rows, tops, viewKey, selectedIndex, virtualizer]);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const remember = () => {
      const index = rowAt(tops, el.scrollTop);
      firstKey.current = { key: rows[index]?.plan.filename ?? null, top: el.scrollTop - tops[index]! };
    };
    remember();
    el.addEventListener('scroll', remember, { passive: true });
    return () => el.removeEventListener('scroll', remember);
  }, [rows, tops]);

  const items = virtualizer.getVirtualItems();
  const style = { '--project-col': `${Math.min(Math.max(projectChars, 7), 18) + 1}ch`, '--grid-header': `${HEADER_HEIGHT}px` } as CSSProperties;
  return (
    <div className="plan-grid" style={style}>
      <p id={hintId} className="sr-only">
        ↑ ↓ or j k move through the plans, Enter opens the selected one in your editor.
      </p>
      <div
        ref={scrollRef}
        className="grid-body"
        role="grid"
        aria-label="Plans"
        aria-describedby={hintId}
        aria-rowcount={rows.length + 1}
        aria-colcount={COLUMNS.length}
        tabIndex={0}
        aria-activedescendant={selected && selectedIndex >= 0 ? rowId(selected) : undefined}
      >
        <div className="grid-header" role="row" aria-rowindex={1}>
          {COLUMNS.map((c) => {
            const active = sort === c.key;
            return (
              <div
                key={c.key}
                role="columnheader"
                className={c.className}
                aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}
              >
                <button type="button" className={`sort-button${active ? ' active' : ''}`} onClick={() => onSort(c.key)} title={`Sort by ${c.label.toLowerCase()}`}>
                  {c.label}
                  <span className="sort-arrow" aria-hidden="true">
                    {active ? (dir === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </div>
            );
          })}
        </div>
        <div className="grid-spacer" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            const p = row.plan;
            const isSelected = p.filename === selected;
            const snippets = snippetsOf(item.index);
            return (
              <div
                key={item.key}
                id={rowId(p.filename)}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={isSelected}
                data-filename={p.filename}
                className={`grid-row${isSelected ? ' selected' : ''}${fresh.has(p.filename) ? ' fresh' : ''}`}
                style={{ transform: `translateY(${item.start - HEADER_HEIGHT}px)`, height: item.size }}
                onClick={() => onSelect(p.filename)}
                onDoubleClick={() => onOpenInEditor(p.filename)}
              >
                <div role="gridcell" className="col-title">
                  <div className="row-title" title={p.title || p.filename}>
                    <span className="row-title-text">
                      <Highlight text={p.title || p.filename} query={query} />
                    </span>
                    {fresh.has(p.filename) && <span className="badge badge-new">new</span>}
                    <RiskMark plan={p} retention={retention} now={now} />
                  </div>
                  <div className="row-sub">
                    <span className="row-filename">
                      <Highlight text={p.filename} query={query} />
                    </span>
                    {row.byContent && (
                      <span className="badge badge-content" title="The search text occurs in this plan's content">
                        in text
                      </span>
                    )}
                  </div>
                  {snippets.length > 0 && (
                    <SnippetButtons snippets={snippets} className="row-snippet" onOpen={(snippet) => onOpenSnippet(p.filename, snippet)} />
                  )}
                </div>
                <div role="gridcell" className="col-project" title={p.project ?? 'No project'}>
                  {p.project ? <Highlight text={p.project} query={query} /> : <span className="muted">—</span>}
                </div>
                <div
                  role="gridcell"
                  className="col-modified"
                  // The exact time is a tooltip: formatted when pointed at, not for every row drawn.
                  onPointerEnter={(e) => {
                    e.currentTarget.title = exactTime(p.modified);
                  }}
                >
                  {shortRelativeTime(p.modified, now)}
                </div>
                <div role="gridcell" className="col-size">
                  {formatBytes(p.size)}
                </div>
                <div role="gridcell" className="col-lines">
                  {formatCount(p.lineCount)}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function RiskMark({ plan, retention, now }: { plan: PlanMetadata; retention: RetentionPolicy | null; now: number }) {
  const risk = retention ? riskOf(deletesAt(plan, retention), now) : null;
  if (!risk) return null;
  const text = `Claude Code deletes this plan ${whenText(risk)} (cleanupPeriodDays: ${retention!.cleanupPeriodDays}); its history stays readable in the Archive`;
  return (
    <span className="badge badge-risk" title={text} aria-label={`At risk: ${text}`}>
      at risk
    </span>
  );
}

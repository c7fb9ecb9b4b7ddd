// The border between a view's list and its reader: drag it, or focus it and use ← → (Home / End for
// the narrowest and widest list, a double click for the default). The width is remembered per view.
// Below 820 px the panes stack and the handle is hidden (app.css).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';

const MIN_LIST = 240;
/** What the reader keeps at least, so a wide list never squeezes it away. */
const MIN_READER = 320;
const STEP = 24;

export interface Split {
  ref: RefObject<HTMLDivElement | null>;
  /** For the split's container: the list's width as a CSS variable, when one was chosen. */
  style: CSSProperties | undefined;
  width: number | null;
  setWidth(width: number | null): void;
}

function storageKey(view: string): string {
  return `pmv-list-width-${view}`;
}

function readWidth(view: string): number | null {
  try {
    const n = Number(localStorage.getItem(storageKey(view)));
    return Number.isFinite(n) && n >= MIN_LIST ? Math.round(n) : null;
  } catch {
    return null;
  }
}

function cssWidth(width: number): string {
  // Capped by the window as it is now: a width chosen on a wide screen still leaves the reader its room.
  return `min(${width}px, calc(100% - ${MIN_READER}px))`;
}

export function useSplit(view: string): Split {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setState] = useState<number | null>(() => readWidth(view));
  const setWidth = useCallback(
    (next: number | null) => {
      setState(next);
      try {
        if (next === null) localStorage.removeItem(storageKey(view));
        else localStorage.setItem(storageKey(view), String(next));
      } catch {
        // private mode: the width lasts for this page only
      }
    },
    [view],
  );
  const style = width === null ? undefined : ({ '--list-width': cssWidth(width) } as CSSProperties);
  return { ref, style, width, setWidth };
}

export function SplitHandle({ split, controls, label }: { split: Split; controls: string; label: string }) {
  const [percent, setPercent] = useState(40);
  const drag = useRef<number | null>(null);

  const bounds = (): { left: number; max: number; current: number } | null => {
    const el = split.ref.current;
    const list = el?.querySelector<HTMLElement>(':scope > .pane-list');
    if (!el || !list) return null;
    const rect = el.getBoundingClientRect();
    return { left: rect.left, max: Math.max(MIN_LIST, rect.width - MIN_READER), current: list.getBoundingClientRect().width };
  };

  // aria-valuenow: the list's share of the split, as laid out.
  const measure = useCallback(() => {
    const el = split.ref.current;
    const list = el?.querySelector<HTMLElement>(':scope > .pane-list');
    if (el && list && el.clientWidth > 0) setPercent(Math.round((list.getBoundingClientRect().width / el.getBoundingClientRect().width) * 100));
  }, [split.ref]);
  useLayoutEffect(measure, [measure, split.width]);
  useEffect(() => {
    const el = split.ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure, split.ref]);

  const clamp = (width: number, max: number) => Math.round(Math.min(Math.max(width, MIN_LIST), max));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    drag.current = e.pointerId;
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const b = drag.current === e.pointerId ? bounds() : null;
    // While dragging only the CSS variable moves: no render of the views per pointer event.
    if (b) split.ref.current!.style.setProperty('--list-width', cssWidth(clamp(e.clientX - b.left, b.max)));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current !== e.pointerId) return;
    drag.current = null;
    const b = bounds();
    if (b) split.setWidth(clamp(e.clientX - b.left, b.max));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const b = bounds();
    if (!b) return;
    const step = e.shiftKey ? STEP * 4 : STEP;
    const next = { ArrowLeft: b.current - step, ArrowRight: b.current + step, Home: MIN_LIST, End: b.max }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    split.setWidth(clamp(next, b.max));
  };

  return (
    <div
      className="split-handle"
      role="separator"
      aria-orientation="vertical"
      aria-controls={controls}
      aria-label={label}
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuetext={`List ${percent}% of the width`}
      tabIndex={0}
      title="Drag to resize; double-click for the default width"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onDoubleClick={() => split.setWidth(null)}
      onKeyDown={onKeyDown}
    />
  );
}

// One mermaid diagram: rendered when it scrolls into view (mermaid itself is fetched on first use),
// with pan (drag), zoom (buttons, Ctrl/⌘ + wheel), fit, and an expanded view for wide diagrams.
// Until it is drawn a placeholder box holds its place (the height it had when last drawn, if known),
// so the raw source never flashes up; the source shows only when rendering fails or is asked for.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

interface Props {
  code: string;
  dark: boolean;
  /** The placeholder element holding the <pre> source. */
  host: HTMLElement;
}

type Status = 'waiting' | 'loading' | 'ready' | 'error';

interface View {
  scale: number;
  x: number;
  y: number;
}

/** Box heights of diagrams drawn before: a live update re-renders without the page jumping. */
const knownHeights = new Map<string, number>();

const MIN_SCALE = 0.1;
const MAX_SCALE = 8;
/** Below this a diagram's labels get too small to read: a wider one opens at this scale and pans. */
const READABLE_SCALE = 0.6;
/** The tallest box a diagram opens in; the rest is a drag away (or Expand). */
const MAX_BOX = 560;

export function MermaidDiagram({ code, dark, host }: Props) {
  const [status, setStatus] = useState<Status>('waiting');
  const [error, setError] = useState('');
  const [expanded, setExpanded] = useState(false);
  const [showSource, setShowSource] = useState(false);
  const [view, setView] = useState<View>({ scale: 1, x: 0, y: 0 });
  const wrapperRef = useRef<HTMLDivElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const size = useRef({ width: 600, height: 400 });
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const el = wrapperRef.current;
    if (!el) return;
    if (typeof IntersectionObserver === 'undefined') {
      setVisible(true);
      return;
    }
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setVisible(true);
        io.disconnect();
      }
    }, { rootMargin: '400px' });
    io.observe(el);
    return () => io.disconnect();
  }, []);

  const [boxHeight, setBoxHeight] = useState(() => knownHeights.get(code) ?? 320);
  const known = knownHeights.has(code);

  /** Whole diagram in view. */
  const fit = useCallback(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const { width, height } = size.current;
    const availW = viewport.clientWidth - 16;
    const availH = Math.max(viewport.clientHeight - 16, 80);
    const scale = Math.min(1, availW / width, availH / height);
    setView({ scale, x: (viewport.clientWidth - width * scale) / 2, y: (viewport.clientHeight - height * scale) / 2 });
  }, []);

  /**
   * Fitted to the column: never enlarged, shrunk to the column's width down to a readable scale, and the
   * box as tall as the diagram at that scale (up to MAX_BOX), so there is no empty band around it.
   */
  const initial = useCallback(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const { width, height } = size.current;
    const availW = viewport.clientWidth - 16;
    if (expanded) return fit();
    const s = Math.min(1, Math.max(availW / width, READABLE_SCALE));
    const box = Math.round(Math.min(MAX_BOX, Math.max(120, height * s + 16)));
    setBoxHeight(box);
    knownHeights.set(code, box);
    setView({ scale: s, x: Math.max(8, (viewport.clientWidth - width * s) / 2), y: Math.max(8, (box - height * s) / 2) });
  }, [code, expanded, fit]);

  useEffect(() => {
    if (!visible) return;
    let cancelled = false;
    let removeCss: (() => void) | null = null;
    setStatus('loading');
    import('./mermaidRender')
      .then(async (mod) => {
        const diagram = await mod.renderMermaid(code, dark);
        if (cancelled || !canvasRef.current) return;
        const canvas = canvasRef.current;
        canvas.replaceChildren(diagram.fragment);
        mod.applyDetachedStyles(canvas);
        const svg = canvas.querySelector('svg');
        if (svg) {
          svg.removeAttribute('width');
          svg.removeAttribute('height');
          svg.style.maxWidth = 'none';
          svg.style.width = `${diagram.width}px`;
          svg.style.height = `${diagram.height}px`;
          svg.setAttribute('role', 'img');
          svg.setAttribute('aria-label', 'Mermaid diagram');
        }
        removeCss = mod.adoptCss(diagram.css);
        size.current = { width: diagram.width, height: diagram.height };
        setStatus('ready');
      })
      .catch((e: unknown) => {
        if (cancelled) return;
        setError(e instanceof Error ? e.message.split('\n')[0]! : String(e));
        setStatus('error');
      });
    return () => {
      cancelled = true;
      removeCss?.();
    };
  }, [visible, code, dark]);

  useLayoutEffect(() => {
    if (status === 'ready') initial();
  }, [status, initial]);

  useLayoutEffect(() => {
    host.classList.toggle('mermaid-rendered', status !== 'error' && !showSource);
  }, [host, status, showSource]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas) canvas.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  }, [view]);

  const zoomAt = useCallback((factor: number, cx?: number, cy?: number) => {
    setView((v) => {
      const viewport = viewportRef.current;
      const px = cx ?? (viewport ? viewport.clientWidth / 2 : 0);
      const py = cy ?? (viewport ? viewport.clientHeight / 2 : 0);
      const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, v.scale * factor));
      const k = scale / v.scale;
      return { scale, x: px - (px - v.x) * k, y: py - (py - v.y) * k };
    });
  }, []);

  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport || status !== 'ready') return;
    const onWheel = (e: WheelEvent) => {
      if (!(e.ctrlKey || e.metaKey) && !expanded) return; // plain wheel scrolls the document
      e.preventDefault();
      const rect = viewport.getBoundingClientRect();
      zoomAt(Math.exp(-e.deltaY * 0.002), e.clientX - rect.left, e.clientY - rect.top);
    };
    viewport.addEventListener('wheel', onWheel, { passive: false });
    return () => viewport.removeEventListener('wheel', onWheel);
  }, [status, expanded, zoomAt]);

  // Expanded, the diagram covers the page: Esc closes it wherever the focus is.
  useEffect(() => {
    if (!expanded) return;
    viewportRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      setExpanded(false);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [expanded]);

  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  const onPointerDown = (e: React.PointerEvent) => {
    if (status !== 'ready' || e.button !== 0) return;
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    drag.current = { id: d.id, x: e.clientX, y: e.clientY };
    setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const step = 40;
    const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      e.stopPropagation();
      setView((v) => ({ ...v, x: v.x + move[0], y: v.y + move[1] }));
    } else if (e.key === '+' || e.key === '=') {
      e.stopPropagation();
      zoomAt(1.25);
    } else if (e.key === '-') {
      e.stopPropagation();
      zoomAt(0.8);
    } else if (e.key === '0') {
      e.stopPropagation();
      fit();
    }
  };

  return (
    <div ref={wrapperRef} className={`mermaid-diagram${expanded ? ' expanded' : ''}`} data-status={status}>
      <div className="diagram-toolbar" role="toolbar" aria-label="Diagram controls">
        <span className="diagram-status" aria-live="polite">
          {status === 'waiting' && 'Diagram'}
          {status === 'loading' && 'Rendering diagram…'}
          {status === 'ready' && `Diagram · ${Math.round(view.scale * 100)}%`}
          {status === 'error' && `Diagram could not be rendered: ${error}`}
        </span>
        {status === 'ready' && (
          <>
            <button type="button" onClick={() => zoomAt(1.25)} aria-label="Zoom in" title="Zoom in (+, Ctrl/⌘ + wheel)">+</button>
            <button type="button" onClick={() => zoomAt(0.8)} aria-label="Zoom out" title="Zoom out (−)">−</button>
            <button type="button" onClick={fit} aria-label="Fit diagram" title="Fit (0)">Fit</button>
            <button type="button" onClick={() => setView((v) => ({ ...v, scale: 1 }))} aria-label="1:1, actual size" title="Actual size (100%)">1:1</button>
            <button type="button" onClick={() => setExpanded((x) => !x)} aria-pressed={expanded} aria-label={expanded ? 'Close expanded diagram' : 'Expand diagram'}>
              {expanded ? 'Close' : 'Expand'}
            </button>
            <button type="button" onClick={() => setShowSource((s) => !s)} aria-pressed={showSource} aria-label="Show diagram source">
              Source
            </button>
          </>
        )}
      </div>
      <div
        ref={viewportRef}
        className="diagram-viewport"
        role="group"
        tabIndex={status === 'ready' ? 0 : -1}
        aria-label="Diagram: drag or use arrow keys to pan, + and − to zoom"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        hidden={status === 'error'}
        style={expanded ? undefined : { height: boxHeight }}
      >
        {status !== 'ready' && (
          <div className={`diagram-placeholder${known ? ' known' : ''}`} aria-hidden="true">
            {status === 'loading' ? 'Drawing the diagram…' : 'Diagram'}
          </div>
        )}
        <div ref={canvasRef} className="diagram-canvas" />
      </div>
    </div>
  );
}

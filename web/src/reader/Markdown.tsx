// Sanitized HTML of a rendered document in the page, plus what happens on top of it: search
// highlights with a current match, in-app link navigation, and mermaid diagrams mounted into
// their placeholders.
import { useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import { copyWithToast } from '../ui/actions';
import { useToast } from '../ui/Toasts';
import { codeToCopy, decorateCodeBlocks } from './codeBlocks';
import { clearHighlights, highlightMatches } from './highlightDom';
import { landingTarget, type Landing } from './landing';
import { MermaidDiagram } from './MermaidDiagram';

interface Props {
  /** Already sanitized. */
  html: string;
  query: string;
  activeMatch: number;
  /** Changes when the view should jump to the current match (new document or new query). */
  scrollKey: string;
  onMatchCount(count: number): void;
  /** Opened at a line (from a search snippet): its mark becomes the current one, once per landing. */
  landing?: { at: Landing; source: string } | null;
  onLand?(match: number): void;
  onNavigate(nav: string): void;
  onLocalLink(title: string): void;
  dark: boolean;
  className?: string;
}

interface DiagramHost {
  host: HTMLElement;
  mount: HTMLElement;
  code: string;
}

function scrollParent(el: HTMLElement | null): HTMLElement | null {
  return el?.closest('.reader-scroll') ?? null;
}

function flash(el: HTMLElement): void {
  el.scrollIntoView({ block: 'center' });
  el.classList.remove('flash');
  void el.offsetWidth;
  el.classList.add('flash');
}

export function Markdown({ html, query, activeMatch, scrollKey, onMatchCount, landing, onLand, onNavigate, onLocalLink, dark, className }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [diagrams, setDiagrams] = useState<DiagramHost[]>([]);
  const marks = useRef<HTMLElement[]>([]);
  const lastScrolled = useRef<string | null>(null);
  const toast = useToast();
  const countCb = useRef(onMatchCount);
  countCb.current = onMatchCount;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const scroller = scrollParent(el);
    const top = scroller?.scrollTop ?? 0;
    el.innerHTML = html;
    decorateCodeBlocks(el);
    const hosts: DiagramHost[] = [];
    for (const host of Array.from(el.querySelectorAll<HTMLElement>('.mermaid-block'))) {
      const code = host.querySelector('pre')?.textContent ?? '';
      const mount = document.createElement('div');
      mount.className = 'mermaid-mount';
      host.append(mount);
      hosts.push({ host, mount, code });
    }
    setDiagrams(hosts);
    // Same document refreshed by a live update: stay where the reader was.
    if (scroller) scroller.scrollTop = top;
    marks.current = [];
  }, [html]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    clearHighlights(el);
    marks.current = highlightMatches(el, query);
    countCb.current(marks.current.length);
  }, [html, query]);

  const landed = useRef<string | null>(null);
  const landCb = useRef(onLand);
  landCb.current = onLand;
  const shownMatch = useRef(activeMatch);
  shownMatch.current = activeMatch;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !landing || landed.current === landing.at.key) return;
    landed.current = landing.at.key;
    const target = landingTarget(el, marks.current, landing.at, landing.source, query);
    if (target === null) return;
    if ('mark' in target) {
      landCb.current?.(target.mark);
      return;
    }
    // No mark on the line: show the line's block instead of jumping to a match elsewhere.
    lastScrolled.current = `${scrollKey}\u0000${shownMatch.current}`;
    flash(target.block);
  }, [landing, html, query, scrollKey]);

  // A layout effect, so the highlighted match and the "Match n of m" text change in the same paint.
  useLayoutEffect(() => {
    const list = marks.current;
    for (const m of list) m.classList.remove('current');
    const current = list[activeMatch];
    if (!current) return;
    current.classList.add('current');
    const key = `${scrollKey}\u0000${activeMatch}`;
    if (lastScrolled.current !== key) {
      lastScrolled.current = key;
      current.scrollIntoView({ block: 'center' });
    }
  }, [activeMatch, scrollKey, html, query]);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const code = codeToCopy(e.target as Element);
    if (code !== null) {
      void copyWithToast(code, 'the code', toast);
      return;
    }
    const anchor = (e.target as HTMLElement).closest('a');
    if (!anchor || !ref.current?.contains(anchor)) return;
    if (anchor.dataset.broken) {
      e.preventDefault();
      return;
    }
    const nav = anchor.dataset.nav;
    if (!nav) return;
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) {
      if (nav.startsWith('plan:') || nav.startsWith('entry:')) return; // let the browser open a new tab
    }
    e.preventDefault();
    if (nav === 'none') {
      onLocalLink(anchor.title);
    } else if (nav.startsWith('anchor:')) {
      const target = ref.current.querySelector(`[id="${CSS.escape(nav.slice(7))}"]`);
      target?.scrollIntoView({ block: 'start' });
    } else {
      onNavigate(nav);
    }
  };

  return (
    <>
      <div ref={ref} className={`markdown-body ${className ?? ''}`} onClick={onClick} />
      {diagrams.map((d, i) => createPortal(<MermaidDiagram code={d.code} dark={dark} host={d.host} />, d.mount, `d${i}`))}
    </>
  );
}

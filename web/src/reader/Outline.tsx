// Headings of the open document; the one being read is marked and kept in view as you scroll.
import { useEffect, useRef, useState } from 'react';
import type { Heading } from './markdown';

interface Props {
  headings: Heading[];
  /** The scrolling element holding the document. */
  scroller: HTMLElement | null;
  /** Changes when the document's DOM is replaced. */
  contentKey: string;
}

export function Outline({ headings, scroller, contentKey }: Props) {
  const [active, setActive] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (!scroller || headings.length === 0) return;
    let frame = 0;
    const compute = () => {
      frame = 0;
      const top = scroller.getBoundingClientRect().top + 24;
      let current: string | null = headings[0]?.id ?? null;
      for (const h of headings) {
        const el = scroller.querySelector(`[id="${CSS.escape(h.id)}"]`);
        if (!el) continue;
        if (el.getBoundingClientRect().top <= top) current = h.id;
        else break;
      }
      // At the very bottom the last heading is the one being read.
      if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2 && headings.length) {
        current = headings[headings.length - 1]!.id;
      }
      setActive(current);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(compute);
    };
    compute();
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [scroller, headings, contentKey]);

  useEffect(() => {
    // Keep the current heading visible in the outline without scrolling the document itself.
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>('[aria-current="location"]');
    if (!list || !item) return;
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top - 8;
    else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight + 8;
  }, [active]);

  if (headings.length < 2) return null;
  const minLevel = Math.min(...headings.map((h) => h.level));
  return (
    <nav className="outline" aria-label="Outline">
      <div className="outline-title">Outline</div>
      <ol ref={listRef}>
        {headings.map((h) => (
          <li key={h.id} className={`lvl-${Math.min(h.level - minLevel, 3)}`}>
            <a
              href={`#${h.id}`}
              aria-current={active === h.id ? 'location' : undefined}
              onClick={(e) => {
                e.preventDefault();
                scroller?.querySelector(`[id="${CSS.escape(h.id)}"]`)?.scrollIntoView({ block: 'start' });
              }}
            >
              {h.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

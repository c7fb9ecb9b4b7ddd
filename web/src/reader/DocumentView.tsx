// The scrolling document area shared by the plan and memory readers: rendered markdown, outline,
// search match navigation (n / N), and a plain-text fallback for very large files.
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useCommand } from '../ui/commands';
import { renderMarkdown, type RenderEnv } from './markdown';
import type { Landing } from './landing';
import { Markdown } from './Markdown';
import { Outline } from './Outline';
import { sanitizeHtml } from './sanitize';

export type RenderOptions = Omit<RenderEnv, 'headings' | 'mermaidCount'>;

/** Larger documents are shown as plain text: rendering megabytes of markdown freezes the tab. */
export const RENDER_LIMIT = 1_500_000;

interface Props {
  docKey: string;
  markdown: string;
  options: RenderOptions;
  query: string;
  dark: boolean;
  onNavigate(nav: string): void;
  onLocalLink(title: string): void;
  before?: ReactNode;
  after?: ReactNode;
  className?: string;
  /** Opened at this line of `markdown` (from a search snippet): the reader starts at the match there. */
  landing?: Landing | null;
}

export function DocumentView({ docKey, markdown, options, query, dark, onNavigate, onLocalLink, before, after, className, landing = null }: Props) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const [matchCount, setMatchCount] = useState(0);
  // A new document or a new query starts at the first match (or at the landing's): the current match
  // belongs to the document and query it was chosen in.
  const viewKey = `${docKey}\u0000${query}`;
  const [current, setCurrent] = useState({ key: viewKey, index: 0 });
  const active = current.key === viewKey ? current.index : 0;
  const setActive = useCallback((update: (a: number) => number) => {
    setCurrent((c) => ({ key: viewKey, index: update(c.key === viewKey ? c.index : 0) }));
  }, [viewKey]);
  const tooLarge = markdown.length > RENDER_LIMIT;

  const rendered = useMemo(() => {
    if (tooLarge) return null;
    const result = renderMarkdown(markdown, { ...options, sourceLines: true });
    return { ...result, html: sanitizeHtml(result.html) };
  }, [markdown, options, tooLarge]);

  const onMatchCount = useCallback((n: number) => {
    setMatchCount(n);
    setActive((a) => (a < n ? a : 0));
  }, [setActive]);
  const onLand = useCallback((match: number) => setActive(() => match), [setActive]);
  const landingHere = useMemo(() => (landing ? { at: landing, source: markdown } : null), [landing, markdown]);

  const step = useCallback(
    (delta: number) => {
      if (matchCount === 0) return;
      setActive((a) => (a + delta + matchCount) % matchCount);
    },
    [matchCount, setActive],
  );
  useCommand('nextMatch', () => step(1));
  useCommand('prevMatch', () => step(-1));

  const q = query.trim();
  return (
    <div className={`document ${className ?? ''}`}>
      {q && !tooLarge && (
        <div className="match-bar" role="status" aria-live="polite">
          <span className="match-count">
            {matchCount === 0 ? 'No matches in this document' : `Match ${active + 1} of ${matchCount}`}
          </span>
          <button type="button" onClick={() => step(-1)} disabled={matchCount === 0} aria-label="Previous match" title="Previous match (N)">
            ↑
          </button>
          <button type="button" onClick={() => step(1)} disabled={matchCount === 0} aria-label="Next match" title="Next match (n)">
            ↓
          </button>
        </div>
      )}
      <div className="reader-scroll" ref={setScroller} tabIndex={0} aria-label="Document">
        <div className="reader-grid">
          <article className="reader-article">
            {before}
            {rendered ? (
              <Markdown
                html={rendered.html}
                query={q}
                activeMatch={active}
                scrollKey={`${docKey}\u0000${q}`}
                onMatchCount={onMatchCount}
                landing={landingHere}
                onLand={onLand}
                onNavigate={onNavigate}
                onLocalLink={onLocalLink}
                dark={dark}
              />
            ) : (
              <>
                <p className="notice">
                  This file is {Math.round(markdown.length / 1_000_000)} MB: shown as plain text (first{' '}
                  {RENDER_LIMIT / 1_000_000} MB). Open it in your editor to see all of it.
                </p>
                <pre className="plain-text">{markdown.slice(0, RENDER_LIMIT)}</pre>
              </>
            )}
            {after}
          </article>
          {rendered && <Outline headings={rendered.headings} scroller={scroller} contentKey={rendered.html.length + docKey} />}
        </div>
      </div>
    </div>
  );
}

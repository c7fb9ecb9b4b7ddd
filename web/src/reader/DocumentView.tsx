// The scrolling document area shared by the plan and memory readers: rendered markdown, outline,
// search match navigation (n / N), and a plain-text fallback for very large files.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useCommand } from '../ui/commands';
import { renderMarkdown, type RenderEnv } from './markdown';
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
}

export function DocumentView({ docKey, markdown, options, query, dark, onNavigate, onLocalLink, before, after, className }: Props) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const [matchCount, setMatchCount] = useState(0);
  const [active, setActive] = useState(0);
  const tooLarge = markdown.length > RENDER_LIMIT;

  const rendered = useMemo(() => {
    if (tooLarge) return null;
    const result = renderMarkdown(markdown, options);
    return { ...result, html: sanitizeHtml(result.html) };
  }, [markdown, options, tooLarge]);

  // A new document or a new query starts at the first match.
  useEffect(() => setActive(0), [docKey, query]);

  const onMatchCount = useCallback((n: number) => {
    setMatchCount(n);
    setActive((a) => (a < n ? a : 0));
  }, []);

  const step = useCallback(
    (delta: number) => {
      if (matchCount === 0) return;
      setActive((a) => (a + delta + matchCount) % matchCount);
    },
    [matchCount],
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

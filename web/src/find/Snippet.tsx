// One snippet of a find result: its line number and its text with the matched words marked. Text nodes
// only (React children): whatever a file holds is shown as written, never as HTML. The palette and the
// plans and memory lists wrap it in their own row. Secrets in it are masked (the health check's detector,
// character for character, so the marked ranges still fit): a list is no place to show a token.
import { maskSecrets } from '../../../src/domain/memory/care/secrets';
import type { FindSnippetView } from './found';
import './snippet.css';

function Marked({ snippet }: { snippet: FindSnippetView }) {
  const parts: React.ReactNode[] = [];
  const text = maskSecrets(snippet.text).text;
  let at = 0;
  snippet.ranges.forEach(([start, end], i) => {
    if (start < at) return;
    parts.push(text.slice(at, start), <mark key={i}>{text.slice(start, end)}</mark>);
    at = end;
  });
  parts.push(text.slice(at));
  return <>{parts}</>;
}

export function SnippetParts({ snippet }: { snippet: FindSnippetView }) {
  return (
    <>
      <span className="find-line">{snippet.line}</span>
      <span className="find-text"><Marked snippet={snippet} /></span>
    </>
  );
}

/**
 * A list's snippets under one of its rows, each a button that opens the document at its line. Out of the
 * tab order: the keyboard has the row (j / k) and, in the reader, n / N to each match.
 */
export function SnippetButtons({ snippets, className, onOpen }: { snippets: readonly FindSnippetView[]; className: string; onOpen(snippet: FindSnippetView): void }) {
  return (
    <div className={`${className}s`}>
      {snippets.map((snippet) => (
        <button
          key={snippet.line}
          type="button"
          tabIndex={-1}
          className={`find-snippet ${className}`}
          title={`Open at line ${snippet.line}`}
          onMouseDown={(e) => e.preventDefault()}
          onClick={(e) => {
            e.stopPropagation();
            onOpen(snippet);
          }}
        >
          <SnippetParts snippet={snippet} />
        </button>
      ))}
    </div>
  );
}

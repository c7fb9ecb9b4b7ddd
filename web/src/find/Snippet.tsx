// One snippet of a find result: its line number and its text with the matched words marked. Text nodes
// only (React children): whatever a file holds is shown as written, never as HTML. The palette and the
// plans and memory lists wrap it in their own row.
import type { FindSnippetView } from './found';
import './snippet.css';

function Marked({ snippet }: { snippet: FindSnippetView }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  snippet.ranges.forEach(([start, end], i) => {
    if (start < at) return;
    parts.push(snippet.text.slice(at, start), <mark key={i}>{snippet.text.slice(start, end)}</mark>);
    at = end;
  });
  parts.push(snippet.text.slice(at));
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

// Text with the query's occurrences wrapped in <mark>. Always text nodes: never HTML.
import { useMemo } from 'react';
import { splitByMatches } from './match';

export function Highlight({ text, query }: { text: string; query: string }) {
  const parts = useMemo(() => (query.trim() ? splitByMatches(text, query) : null), [text, query]);
  if (!parts) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) => (part.hit ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </>
  );
}

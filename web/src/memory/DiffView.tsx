// A unified diff as the service sends it, line by line: what a fix will write, before it does. Text
// only (never HTML): memory files quote web pages and tool output.
interface Props {
  diff: string;
}

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  if (line.startsWith('\\')) return 'diff-note';
  return 'diff-ctx';
}

export function DiffView({ diff }: Props) {
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  return (
    <pre className="diff-view" aria-label="The change as a diff" tabIndex={0}>
      {lines.map((line, i) => (
        <span key={i} className={`diff-line ${lineClass(line)}`}>
          {line === '' ? ' ' : line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

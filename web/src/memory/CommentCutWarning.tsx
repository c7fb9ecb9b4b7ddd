// Frontmatter values that YAML, and so Claude Code, reads only in part: an unquoted ` #` starts a
// comment, so `description: Epic #604 — converge …` reaches the model as `Epic`, and Claude Code writes
// back only that the next time it rewrites the file. The warning says so in words, not only by colour.

interface Props {
  /** Key -> the full text as written (from the shared frontmatter parser). */
  written: Record<string, string>;
  /** What YAML reads for each key. */
  read: Record<string, unknown>;
}

export function CommentCutWarning({ written, read }: Props) {
  const keys = Object.keys(written);
  if (keys.length === 0) return null;
  return (
    <aside className="comment-cut" role="note" aria-label="Frontmatter that Claude Code reads only in part">
      <p className="comment-cut-title">
        <span aria-hidden="true">⚠ </span>
        <strong>Warning:</strong> Claude Code reads {keys.length === 1 ? 'this frontmatter value' : 'these frontmatter values'} only up to
        the unquoted “ #”, and drops the rest the next time it rewrites the file. Put the value in quotes to keep it.
      </p>
      <dl>
        {keys.map((key) => {
          const value = read[key];
          return (
            <div key={key} className="comment-cut-item">
              <dt><code>{key}</code></dt>
              <dd>
                <span className="comment-cut-label">As written:</span> <q className="comment-cut-written">{written[key]}</q>
              </dd>
              <dd>
                <span className="comment-cut-label">Claude Code reads:</span>{' '}
                {typeof value === 'string' && value !== '' ? <q className="comment-cut-read">{value}</q> : <em>nothing (empty)</em>}
              </dd>
            </div>
          );
        })}
      </dl>
    </aside>
  );
}

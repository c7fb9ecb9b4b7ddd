// Two versions compared as markdown text: lines with their numbers in each version, changed words
// marked inside changed lines (lineDiff.ts), inline or side by side; long unchanged stretches fold away
// and at most a bounded number of rows is drawn at a time.
import { useMemo, useState } from 'react';
import type { DiffLayout } from '../state/url';
import { formatCount } from '../ui/format';
import { foldRows, isUnchanged, splitRows } from './diffRows';
import { FoldButton } from './FoldButton';
import type { DiffLine, TextDiff } from './lineDiff';

/** Rows drawn before a "show more" button: a diff of two megabyte plans is not drawn all at once. */
export const ROWS_PER_PAGE = 1500;

const SIGN = { same: ' ', added: '+', removed: '−' } as const;
const SAID = { same: '', added: 'Added line: ', removed: 'Removed line: ' } as const;

function LineText({ line }: { line: DiffLine }) {
  if (line.words === null) return <span className="line-text">{line.text}</span>;
  return (
    <span className="line-text">
      {line.words.map((w, i) =>
        w.mark === 'same' ? (
          <span key={i}>{w.text}</span>
        ) : w.mark === 'added' ? (
          <ins key={i} className="word-added">
            <span className="sr-only">added: </span>
            {w.text}
          </ins>
        ) : (
          <del key={i} className="word-removed">
            <span className="sr-only">removed: </span>
            {w.text}
          </del>
        ),
      )}
    </span>
  );
}

function Cell({ line, numbers }: { line: DiffLine; numbers: 'old' | 'new' | 'both' }) {
  return (
    <>
      {numbers !== 'new' && <span className="ln">{line.oldNo ?? ''}</span>}
      {numbers !== 'old' && <span className="ln">{line.newNo ?? ''}</span>}
      <span className="sign" aria-hidden="true">
        {SIGN[line.kind]}
      </span>
      {SAID[line.kind] && <span className="sr-only">{SAID[line.kind]}</span>}
      <LineText line={line} />
    </>
  );
}

export function RawDiff({ diff, layout }: { diff: TextDiff; layout: DiffLayout }) {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [limit, setLimit] = useState(ROWS_PER_PAGE);
  const rows = useMemo(() => (layout === 'split' ? splitRows(diff.lines) : diff.lines), [diff, layout]);
  const shown = useMemo(() => foldRows<DiffLine | (typeof rows)[number]>(rows, expanded, isUnchanged), [rows, expanded]);
  const open = (start: number) => setExpanded((s) => new Set([...s, start]));

  if (diff.added === 0 && diff.removed === 0) return <p className="diff-empty">The two versions have the same text.</p>;
  return (
    <div className={`raw-diff layout-${layout}`}>
      {diff.coarse && (
        <p className="notice">These versions differ in too many places to line them up: the changed lines are shown removed, then added.</p>
      )}
      {diff.wordsSkipped > 0 && (
        <p className="notice">{formatCount(diff.wordsSkipped)} changed lines are too long, or too many, to mark word by word: they are shown whole.</p>
      )}
      <div className="raw-lines">
        {shown.slice(0, limit).map((item) => {
          if (item.type === 'fold') {
            return <FoldButton key={`f${item.start}`} count={item.end - item.start} unit="unchanged line" onOpen={() => open(item.start)} />;
          }
          const row = item.row;
          if ('kind' in row) {
            return (
              <div key={item.index} className={`diff-row row-${row.kind}`}>
                <Cell line={row} numbers="both" />
              </div>
            );
          }
          return (
            <div key={item.index} className="diff-row diff-pair">
              <div className={`diff-side side-old row-${row.left?.kind ?? 'none'}`}>{row.left && <Cell line={row.left} numbers="old" />}</div>
              <div className={`diff-side side-new row-${row.right?.kind ?? 'none'}`}>{row.right && <Cell line={row.right} numbers="new" />}</div>
            </div>
          );
        })}
      </div>
      {shown.length > limit && (
        <div className="diff-fold">
          <button type="button" onClick={() => setLimit((l) => l + ROWS_PER_PAGE)}>
            Show more ({formatCount(shown.length - limit)} rows left)
          </button>
        </div>
      )}
    </div>
  );
}

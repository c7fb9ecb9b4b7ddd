// One health finding: what is wrong (in words), where (one click to the file), and its fix: a preview
// of the exact change, then Apply (FixPreview.tsx). Secrets are masked until revealed.
import type { MemoryEntry, MemoryProblem } from '../api/types';
import { FixPreview } from './FixPreview';
import { FIX_LABEL, KIND_LABEL, fixesOf } from './problemText';
import { SecretLine } from './SecretLine';
import { flowPreview, type FixFlow } from './useFixFlow';

interface Props {
  sourceId: string;
  problem: MemoryProblem;
  entryOf(file: string): MemoryEntry | null;
  fixes: FixFlow;
  readOnly: boolean;
  onOpenEntry(entry: MemoryEntry): void;
  onOpenSource(sourceId: string): void;
}

export function ProblemItem({ sourceId, problem, entryOf, fixes, readOnly, onOpenEntry, onOpenSource }: Props) {
  const entry = problem.file ? entryOf(problem.file) : null;
  const offered = fixesOf(problem);
  const open = offered.map((kind) => fixes.keyOf(problem, kind)).includes(fixes.current?.key ?? '') ? fixes.current : null;
  return (
    <li className={`problem-item kind-${problem.kind}`} data-kind={problem.kind}>
      <div className="problem-head">
        <span className={`problem-kind problem-kind-${problem.kind}`}>{KIND_LABEL[problem.kind]}</span>
        {problem.file && (
          entry ? (
            <button type="button" className="link-button problem-file" onClick={() => onOpenEntry(entry)} title={`Open ${problem.file}`}>
              {problem.file}{problem.line !== null ? `:${problem.line}` : ''}
            </button>
          ) : (
            <span className="problem-file">{problem.file}{problem.line !== null ? `:${problem.line}` : ''}</span>
          )
        )}
      </div>
      <p className="problem-message">{problem.message}</p>
      {problem.kind === 'secret' && problem.file && problem.line !== null && (
        <SecretLine entryId={`${sourceId}/${problem.file}`} line={problem.line} />
      )}
      {problem.related.length > 0 && (
        <p className="problem-related muted">
          See:{' '}
          {problem.related.slice(0, 8).map((r, i) => {
            const target = r.file && r.sourceId === sourceId ? entryOf(r.file) : null;
            const label = r.file ?? 'the other folder';
            return (
              <span key={`${r.sourceId}/${r.file ?? ''}`}>
                {i > 0 && ', '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => (target ? onOpenEntry(target) : onOpenSource(r.sourceId))}
                >
                  {label}
                </button>
              </span>
            );
          })}
          {problem.related.length > 8 && ` and ${problem.related.length - 8} more`}
        </p>
      )}
      {offered.length > 0 && open === null && (
        <div className="problem-fixes">
          {offered.map((kind) => (
            <button key={kind} type="button" className="fix-button" onClick={() => fixes.preview(sourceId, problem, kind)}>
              {FIX_LABEL[kind]}…
            </button>
          ))}
        </div>
      )}
      {open && (
        <FixPreview
          {...flowPreview(open, fixes)}
          explanation="This is the exact change. Nothing is written until you apply it; it can be undone."
          offReason={readOnly ? 'Read-only: the viewer was started with --read-only' : null}
        />
      )}
    </li>
  );
}

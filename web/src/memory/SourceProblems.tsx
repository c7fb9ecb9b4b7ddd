// The Health tab of one memory source: every problem the health check found, worst first, each with
// its fix (preview, then apply); below them, the folder's bulk changes outside Claude Code (BulkChanges.tsx).
import type { MemoryEntry, MemoryHealthSource, MemorySource } from '../api/types';
import { plural } from '../ui/format';
import { BulkChanges } from './BulkChanges';
import { FixBanner } from './FixBanner';
import { LEVEL_TEXT, sourceLevel } from './healthSummary';
import { ProblemItem } from './ProblemItem';
import { problemKey } from './problemText';
import type { FixFlow } from './useFixFlow';
import './care.css';

interface Props {
  source: MemorySource;
  health: MemoryHealthSource | undefined;
  loading: boolean;
  readOnly: boolean;
  readOnlyReason: string | null;
  /** The memory listing's version: bumped when memory changed. */
  memoryVersion: number;
  fixes: FixFlow;
  entryOf(file: string): MemoryEntry | null;
  onOpenEntry(entry: MemoryEntry): void;
  onOpenSource(sourceId: string): void;
}

export function SourceProblems({ source, health, loading, readOnly, readOnlyReason, memoryVersion, fixes, entryOf, onOpenEntry, onOpenSource }: Props) {
  const status = sourceLevel(source, health?.load);
  return (
    <section className="source-problems" aria-label={`Health of ${source.project}`}>
      <FixBanner fixes={fixes} readOnly={readOnly} reason={readOnlyReason} />
      {!health ? (
        <p className="muted" aria-busy={loading}>{loading ? 'Checking this memory folder…' : 'No health check yet.'}</p>
      ) : (
        <>
          <p className="health-verdict">
            {status && <span className={`health-dot level-${status}`} aria-hidden="true" />}{' '}
            {health.problems.length === 0
              ? source.active ? 'No problems found.' : 'No problems found, but Claude Code does not read this folder.'
              : plural(health.problems.length, 'problem')}
            {health.load && <span className="muted"> · MEMORY.md {LEVEL_TEXT[status ?? 'ok']}</span>}
            {health.pinned.length > 0 && <span className="muted"> · {health.pinned.length} pinned</span>}
          </p>
          <ul className="problem-list">
            {health.problems.map((problem) => (
              <ProblemItem
                key={problemKey(problem)}
                sourceId={source.id}
                problem={problem}
                entryOf={entryOf}
                fixes={fixes}
                readOnly={readOnly}
                onOpenEntry={onOpenEntry}
                onOpenSource={onOpenSource}
              />
            ))}
          </ul>
        </>
      )}
      <BulkChanges key={source.id} source={source} version={memoryVersion} readOnly={readOnly} readOnlyReason={readOnlyReason} fixes={fixes} entryOf={entryOf} />
    </section>
  );
}

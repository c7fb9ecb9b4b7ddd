// The fixes applied and not undone yet, newest first, from the undo records the service keeps on disk:
// they outlive a reload. Each says what it did, to which files and when; Undo goes through the undo
// endpoint, and is off with the reason when a file changed since (the service's words). A read-only run
// lists them without Undo.
import { useCallback, useEffect } from 'react';
import { api, describeError } from '../api/client';
import type { MemoryRecentFix, MemorySource } from '../api/types';
import { useRemote } from '../state/useRemote';
import { relativeTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { FIX_LABEL, KIND_LABEL } from './problemText';

interface Props {
  /** Bumped when the health check runs again (a fix, an undo, a file changed). */
  version: number;
  readOnly: boolean;
  /** The sources shown: fixes of other sources are left out. */
  sources: MemorySource[];
  onChanged(): void;
}

export function RecentFixes({ version, readOnly, sources, onChanged }: Props) {
  const toast = useToast();
  const [fixes, reload] = useRemote(useCallback((signal: AbortSignal) => api.memoryFixes(signal), []));
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  const projectOf = new Map(sources.map((s) => [s.id, s.project]));
  const items = (fixes.data?.items ?? []).filter((f) => projectOf.has(f.sourceId));
  if (items.length === 0) return null;
  const undo = (fix: MemoryRecentFix) => {
    api.memoryUndo(fix.undoId).then(
      (result) => {
        toast(result.addToIndex
          ? `Undone: ${result.files.join(', ')} restored; MEMORY.md changed since, so its line was not put back`
          : `Undone: ${result.files.join(', ')} restored`, 'success');
        reload();
        onChanged();
      },
      (error: unknown) => {
        toast(`Could not undo: ${describeError(error)}`, 'error');
        reload();
      },
    );
  };
  return (
    <section className="recent-fixes" aria-label="Recent fixes">
      <h2>Recent fixes <span className="count">{items.length}</span></h2>
      <ul>
        {items.map((fix) => (
          <li key={fix.undoId} data-undo-id={fix.undoId}>
            <span className="recent-fix-what">{fixLabel(fix)}</span>{' '}
            <span className="recent-fix-files">{fix.files.join(', ')}</span>{' '}
            <span className="muted">in {projectOf.get(fix.sourceId)}, {relativeTime(fix.applied)}</span>{' '}
            {!readOnly && (
              <button type="button" disabled={!fix.undoable} onClick={() => undo(fix)} aria-describedby={fix.reason ? `why-${fix.undoId}` : undefined}>
                Undo
              </button>
            )}
            {fix.reason && <span id={`why-${fix.undoId}`} className="muted recent-fix-reason"> {capitalized(fix.reason)}.</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function fixLabel(fix: MemoryRecentFix): string {
  if (fix.all) return `Fixed ${fix.all.count} × ${KIND_LABEL[fix.all.problem]}:`;
  return fix.kind === 'restore-bulk' ? 'Put back a bulk change:' : `${FIX_LABEL[fix.kind]}:`;
}

function capitalized(text: string): string {
  // A file name leads some reasons ("MEMORY.md changed…"): only a lowercase word is capitalized.
  return /^[a-z]+ /.test(text) ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text;
}

// The memory folder's bulk changes outside Claude Code (GET /api/memory/changes): Auto Dream or another
// tool that changed many files at once with no transcript record. Each says how many files changed when,
// and per file whether it was changed, created, deleted or merged into another, with its history (a file
// still listed) or its text from before (any file). Restore puts every file back through the same
// preview -> apply -> undo flow as the fixes; with --read-only the preview shows and Apply is off, with the reason.
import { useCallback, useEffect, useState } from 'react';
import { api, describeError } from '../api/client';
import type { BulkChange, BulkChangeFile, MemoryEntry, MemorySource } from '../api/types';
import { entryHref } from '../state/url';
import { followInApp } from '../state/inAppLink';
import { useRemote } from '../state/useRemote';
import { exactTime, plural, relativeTime } from '../ui/format';
import { maskSecrets } from '../../../src/domain/memory/care/secrets';
import { FixPreview } from './FixPreview';
import { flowPreview, restoreKey, type FixFlow } from './useFixFlow';

interface Props {
  source: MemorySource;
  /** Bumped when memory changed: the list is fetched again. */
  version: number;
  readOnly: boolean;
  readOnlyReason: string | null;
  fixes: FixFlow;
  entryOf(file: string): MemoryEntry | null;
}

export function BulkChanges({ source, version, readOnly, readOnlyReason, fixes, entryOf }: Props) {
  const [changes, reload] = useRemote(useCallback((signal: AbortSignal) => api.memoryChanges(source.project, signal), [source.project]));
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  const items = (changes.data?.changes ?? []).filter((c) => c.sourceId === source.id);
  if (items.length === 0) return null;
  return (
    <section className="bulk-changes" aria-label="Bulk changes outside Claude Code">
      <h2>Changed outside Claude Code</h2>
      <ol className="bulk-change-list">
        {items.map((change) => (
          <BulkChangeItem key={change.id} change={change} readOnly={readOnly} readOnlyReason={readOnlyReason} fixes={fixes} entryOf={entryOf} />
        ))}
      </ol>
    </section>
  );
}

function BulkChangeItem({ change, readOnly, readOnlyReason, fixes, entryOf }: Omit<Props, 'source' | 'version'> & { change: BulkChange }) {
  const open = fixes.current?.key === restoreKey(change.id) ? fixes.current : null;
  const title = `${plural(change.files.length, 'file')} changed outside Claude Code`;
  const why = readOnlyReason ?? 'the viewer runs with --read-only';
  return (
    <li className="bulk-change" data-testid="bulk-change" data-change={change.id}>
      <p className="bulk-change-title">
        <strong>{title}</strong> at <time dateTime={change.lastAt} title={exactTime(change.lastAt)}>{exactTime(change.lastAt)}</time>
        <span className="muted"> · {relativeTime(change.lastAt)}</span>
      </p>
      <ul className="bulk-change-files">
        {change.files.map((f) => <BulkFile key={f.file} sourceId={change.sourceId ?? ''} file={f} entry={entryOf(f.file)} />)}
      </ul>
      {open === null ? (
        <button type="button" className="fix-button" onClick={() => fixes.previewRestore(change.sourceId ?? '', change.id, `Restore ${plural(change.files.length, 'file')}`)}>
          Restore…
        </button>
      ) : (
        <FixPreview
          {...flowPreview(open, fixes)}
          explanation="Every file back as it was before this change. Nothing is written until you apply it; it can be undone."
          offReason={readOnly ? `Restore is off: ${why}` : null}
        >
          {(open.result?.skipped?.length ?? 0) > 0 && (
            <p className="notice">Left as they are (their earlier text is no longer kept, or their folder is gone): {open.result!.skipped!.join(', ')}</p>
          )}
        </FixPreview>
      )}
    </li>
  );
}

const CHANGE_TEXT = { changed: 'changed', created: 'created', deleted: 'deleted' } as const;

function BulkFile({ sourceId, file, entry }: { sourceId: string; file: BulkChangeFile; entry: MemoryEntry | null }) {
  const [before, setBefore] = useState<string | null>(null);
  const showBefore = () => {
    if (file.id === null || file.beforeVersionId === null) return;
    api.memoryVersion(file.id, file.beforeVersionId).then((text) => setBefore(maskSecrets(text).text), (error: unknown) => setBefore(describeError(error)));
  };
  return (
    <li className={`bulk-file change-${file.change}`} data-file={file.file}>
      <code>{file.file}</code>{' '}
      <span className="bulk-file-change">{file.mergedInto ? `merged into ${file.mergedInto}` : CHANGE_TEXT[file.change]}</span>
      {!file.current && <span className="muted"> (changed again since)</span>}
      {entry && <> · <a href={entryHref(sourceId, entry.id, 'history')} onClick={followInApp}>versions</a></>}
      {file.beforeVersionId !== null && before === null && (
        <> · <button type="button" className="link-button" onClick={showBefore}>text before</button></>
      )}
      {before !== null && <pre className="bulk-file-before">{before}</pre>}
    </li>
  );
}

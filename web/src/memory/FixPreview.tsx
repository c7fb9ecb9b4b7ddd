// The preview of a change to memory files (a health fix, every finding of a kind, a bulk change's restore):
// the exact diff, secrets masked as in every view of memory, then Apply or Cancel. With --read-only Apply is
// off and says why.
import type { ComponentChildren } from 'preact';
import { maskSecrets } from '../../../src/domain/memory/care/secrets';
import { DiffView } from './DiffView';

/** Where a preview stands: asked for, shown, being applied, or failed (with a note on why). */
export interface PreviewState {
  status: 'previewing' | 'ready' | 'applying' | 'error';
  result: { diff: string } | null;
  /** Why the last step failed, or a note (the file changed, here is the new preview). */
  note: string | null;
}

interface Props {
  /** What the change is, for people (the region's name). */
  label: string;
  state: PreviewState;
  onApply(): void;
  onCancel(): void;
  /** What applying does and how it is undone, above the diff. */
  explanation: string;
  /** Why Apply is off (--read-only); absent where it is on. */
  offReason?: string | null;
  className?: string;
  /** Said between the explanation and the diff (what the change leaves out). */
  children?: ComponentChildren;
}

export function FixPreview({ label, state, onApply, onCancel, explanation, offReason = null, className, children }: Props) {
  return (
    <div className={`fix-preview${className ? ` ${className}` : ''}`} role="region" aria-label={`Preview: ${label}`}>
      {state.note && <p className={state.status === 'error' ? 'error-text' : 'notice'}>{state.note}</p>}
      {state.status === 'previewing' && <p className="muted" aria-busy="true">Preparing the change…</p>}
      {state.result && (
        <>
          <p className="muted">{explanation}</p>
          {children}
          <DiffView diff={maskSecrets(state.result.diff).text} />
        </>
      )}
      <div className="fix-actions">
        <button
          type="button"
          className="primary"
          disabled={offReason !== null || state.result === null || state.status === 'applying'}
          onClick={onApply}
          title={offReason ?? undefined}
        >
          {state.status === 'applying' ? 'Applying…' : 'Apply'}
        </button>
        <button type="button" onClick={onCancel}>Cancel</button>
        {offReason !== null && <span className="muted">{offReason}.</span>}
      </div>
    </div>
  );
}

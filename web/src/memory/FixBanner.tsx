// What the health views say above the problems: a read-only run, and the fix just applied with its Undo.
import type { FixFlow } from './useFixFlow';

export function FixBanner({ fixes, readOnly }: { fixes: FixFlow; readOnly: boolean }) {
  return (
    <>
      {readOnly && (
        <p className="notice read-only-notice" role="note">
          The viewer runs with <code>--read-only</code>: fixes are shown as previews and nothing is written.
        </p>
      )}
      {fixes.applied && (
        <p className="notice fix-applied" role="status">
          Fix applied to {fixes.applied.files.join(', ')}.{' '}
          <button type="button" className="link-button" onClick={fixes.undo}>Undo</button>
        </p>
      )}
    </>
  );
}

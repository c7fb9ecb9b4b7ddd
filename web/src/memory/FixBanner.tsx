// What the health views say above the problems: why fixes cannot be applied (a read-only run, a cache
// folder that cannot be written), and the fix just applied with its Undo.
import type { FixFlow } from './useFixFlow';

/** The reason the service gives for a --read-only run (anything else is shown as it says it). */
const READ_ONLY_FLAG = 'the viewer runs with --read-only';

export function FixBanner({ fixes, readOnly, reason }: { fixes: FixFlow; readOnly: boolean; reason: string | null }) {
  return (
    <>
      {readOnly && (reason === null || reason === READ_ONLY_FLAG ? (
        <p className="notice read-only-notice" role="note">
          The viewer runs with <code>--read-only</code>: fixes are shown as previews and nothing is written.
        </p>
      ) : (
        <p className="notice read-only-notice" role="note">
          Fixes are unavailable: {reason}. They are shown as previews and nothing is written.
        </p>
      ))}
      {fixes.applied && (
        <p className="notice fix-applied" role="status">
          {fixes.applied.kind === 'restore-bulk' ? 'Put back' : 'Fix applied to'} {fixes.applied.files.join(', ')}.{' '}
          <button type="button" className="link-button" onClick={fixes.undo}>Undo</button>
        </p>
      )}
    </>
  );
}

// All keyboard shortcuts, in a modal dialog (? opens it, Esc closes it).
import { useEffect, useRef } from 'react';
import { SHORTCUTS } from './keyboard';

export function HelpDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Focused here, not by autoFocus (see FindPalette).
    if (open && !dialog.open) {
      dialog.showModal();
      close.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="help-dialog" aria-labelledby="help-title" onClose={onClose} onCancel={onClose}>
      <h2 id="help-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.what}>
              <td>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Search matches titles, file names and projects instantly, and the text of every file a moment later. Everything on screen
        is in the address bar: copy the link to come back to the same view.
      </p>
      <form method="dialog">
        <button ref={close} type="submit">
          Close
        </button>
      </form>
    </dialog>
  );
}

// The session a plan (or memory) came from: one click copies the command that resumes it, run from
// the project's working directory when the memory data knows it.
import { copyText } from '../ui/clipboard';
import { resumeCommand } from '../ui/format';
import { CopyIcon } from '../ui/icons';
import { useToast } from '../ui/Toasts';

export function SessionChip({ sessionId, cwd, label = 'Session' }: { sessionId: string; cwd: string | null; label?: string }) {
  const toast = useToast();
  const command = resumeCommand(sessionId, cwd);
  const copy = async (): Promise<void> => {
    const ok = await copyText(command);
    toast(ok ? `Copied: ${command}` : 'Could not copy to the clipboard', ok ? 'success' : 'error');
  };
  return (
    <button
      type="button"
      className="chip session-chip"
      title={`Copy: ${command}`}
      aria-label={`${label} ${sessionId}: copy the resume command`}
      data-command={command}
      // copyText never rejects: it answers false when nothing could be copied.
      onClick={() => void copy()}
    >
      <span className="chip-label">{label}</span> <code>{sessionId.slice(0, 8)}</code> <CopyIcon />
    </button>
  );
}

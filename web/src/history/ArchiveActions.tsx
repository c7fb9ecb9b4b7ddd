// What can be done with an archived plan's last version: copy its markdown, download it as one HTML file,
// and restore it into the plans folder it was in (a new file under its name, never over one; not offered
// with --read-only). Restoring asks once more, naming the file it writes.
import { useState } from 'react';
import { api, describeError } from '../api/client';
import { useStatus } from '../api/status';
import type { ArchivedPlan } from '../api/types';
import { downloadShareHtml, shareBody } from '../plans/sharePlan';
import type { RenderOptions } from '../reader/DocumentView';
import { copyWithToast } from '../ui/actions';
import { useCommand } from '../ui/commands';
import { useToast } from '../ui/Toasts';
import { sessionCard } from './useHistory';

const NO_OPTIONS: RenderOptions = { resolveHref: () => null };

interface Props {
  filename: string;
  plan: ArchivedPlan | null;
  title: string;
  /** The last version's id (what a restore writes), null while the history loads. */
  lastId: string | null;
  text: string | null;
  cardId: string | null;
  onRestored(filename: string): void;
}

export function ArchiveActions({ filename, plan, title, lastId, text, cardId, onRestored }: Props) {
  const toast = useToast();
  const status = useStatus();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const copy = () => {
    if (text !== null) void copyWithToast(text, 'the markdown of the last version', toast);
  };
  useCommand('copyMarkdown', copy);

  const download = async () => {
    if (text === null) return;
    const shown = document.querySelector('.archive-reader .reader-article');
    const card = cardId ? await sessionCard(cardId).catch(() => null) : null;
    downloadShareHtml({ title, filename, project: plan?.project ?? null, modified: plan?.lastVersionAt ?? null, card, bodyHtml: shareBody(text, NO_OPTIONS, shown), exportedAt: new Date().toISOString() });
  };

  const restore = async () => {
    if (lastId === null) return;
    setBusy(true);
    try {
      const done = await api.restoreArchived(filename, lastId);
      toast(`Restored to ${done.filepath}`, 'success');
      onRestored(done.filename);
    } catch (error) {
      toast(`Not restored: ${describeError(error)}`, 'error');
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const canRestore = status !== null && !status.readOnly && plan !== null;
  return (
    <>
      <button type="button" onClick={copy} disabled={text === null} title="Copy the markdown of the last version (c)">
        Copy
      </button>
      <button type="button" onClick={() => void download()} disabled={text === null} title="Download the last version as one self-contained HTML file">
        Download HTML
      </button>
      {canRestore && !confirming && (
        <button type="button" onClick={() => setConfirming(true)} disabled={lastId === null} title="Write the last version back into its plans folder">
          Restore…
        </button>
      )}
      {canRestore && confirming && (
        <span className="restore-confirm" role="group" aria-label="Restore this plan">
          <span className="muted">Write the last version to <code>{plan.filepath}</code>?</span>{' '}
          <button type="button" className="primary" onClick={() => void restore()} disabled={busy}>
            Restore
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </button>
        </span>
      )}
    </>
  );
}

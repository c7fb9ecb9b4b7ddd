// A session whose transcript Claude Code deleted: its prompts as ~/.claude/history.jsonl keeps them
// (GET /api/sessions/{id}/prompts), instead of a conversation.
import { useCallback } from 'react';
import { api, describeError } from '../api/client';
import { useRemote } from '../state/useRemote';
import { exactTime, formatCount } from '../ui/format';

export function GonePrompts({ sessionId }: { sessionId: string }) {
  const [remote, reload] = useRemote(useCallback((signal: AbortSignal) => api.sessionPrompts(sessionId, signal), [sessionId]));
  if (!remote.data) {
    return remote.status === 'error' ? (
      <div className="state-panel error">
        <p>{describeError(remote.error)}</p>
        <button type="button" onClick={reload}>Retry</button>
      </div>
    ) : (
      <div className="state-panel loading" aria-busy="true">Loading its prompts…</div>
    );
  }
  const prompts = remote.data.prompts;
  return (
    <section className="gone-prompts" aria-label="Prompts from history.jsonl">
      <p className="gone-note" data-testid="gone-note">
        Transcript deleted; from ~/.claude/history.jsonl: the {formatCount(prompts.length)} {prompts.length === 1 ? 'prompt' : 'prompts'} typed in it, nothing of Claude's answers.
      </p>
      <ol className="transcript">
        {prompts.map((p, i) => (
          <li key={i} className="entry entry-prompt">
            {p.at && <time className="muted" dateTime={p.at} title={exactTime(p.at)}>{exactTime(p.at)}</time>}
            <pre className="gone-prompt">{p.display}</pre>
          </li>
        ))}
      </ol>
    </section>
  );
}

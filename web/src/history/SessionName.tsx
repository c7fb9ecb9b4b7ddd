// A session named the way people remember it: its title (else its first prompt's first line) once the
// card is known, the short id until then and when the session has neither; the full id is on hover.
import { sessionLabel } from './shownTitle';
import { useSessionCard } from './useHistory';

export function SessionName({ sessionId }: { sessionId: string }) {
  const { card } = useSessionCard(sessionId);
  const label = card === null ? null : sessionLabel(card.title, card.firstPrompt);
  return (
    <span className="session-name" title={`Session ${sessionId}`} data-session-id={sessionId}>
      {label ?? <code>{sessionId.slice(0, 8)}</code>}
    </span>
  );
}

// The line a `secret` finding points at, masked until the person asks to see it: the text is fetched
// only then (GET /api/memory/content), and hidden again with one click.
import { useState } from 'react';
import { api, describeError } from '../api/client';

interface Props {
  entryId: string;
  line: number;
}

export function SecretLine({ entryId, line }: Props) {
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reveal = () => {
    api.memoryContent(entryId).then(
      (text) => setShown(text.split('\n')[line - 1]?.replace(/\r$/, '') ?? ''),
      (e: unknown) => setError(describeError(e)),
    );
  };
  return (
    <span className="secret-line">
      <code className={shown === null ? 'secret-masked' : 'secret-shown'} data-testid="secret-text">
        {shown === null ? '•'.repeat(24) : shown}
      </code>{' '}
      <button type="button" className="link-button" aria-pressed={shown !== null} onClick={() => (shown === null ? reveal() : setShown(null))}>
        {shown === null ? 'Reveal' : 'Hide'}
      </button>
      {error && <span className="error-text"> {error}</span>}
    </span>
  );
}

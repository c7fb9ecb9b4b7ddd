// Secrets in a memory file are masked in the Document tab until the person asks to see them: the same
// detector as the health check's `secret` finding and the MCP answers (src/domain/memory/care/secrets.ts),
// run here on the text GET /api/memory/content returns raw. Revealing holds for the file on screen only.
import { useMemo, useState } from 'react';
import { maskSecrets } from '../../../src/domain/memory/care/secrets';
import { plural } from '../ui/format';

export interface MaskedText {
  /** What to show: the masked text until revealed; null while loading. */
  shown: string | null;
  /** Secrets the detector found (0: nothing to reveal). */
  count: number;
  revealed: boolean;
  toggle(): void;
}

/** `raw`, masked until revealed; `key` names the file, so another file starts masked again. */
export function useMaskedText(raw: string | null, key: string): MaskedText {
  const [revealedKey, setRevealedKey] = useState<string | null>(null);
  const masked = useMemo(() => (raw === null ? null : maskSecrets(raw)), [raw]);
  const revealed = revealedKey === key;
  return {
    shown: masked === null ? null : revealed ? raw : masked.text,
    count: masked?.count ?? 0,
    revealed,
    toggle: () => setRevealedKey(revealed ? null : key),
  };
}

/** A short text with its secrets masked unless revealed (a description, a title). */
export function maskedLine(text: string, revealed: boolean): string {
  return revealed ? text : maskSecrets(text).text;
}

export function SecretNotice({ masked }: { masked: MaskedText }) {
  if (masked.count === 0) return null;
  return (
    <p className="secret-notice" role="note" data-testid="secret-notice">
      {masked.revealed
        ? `Showing ${plural(masked.count, 'secret')} in clear.`
        : `${plural(masked.count, 'secret')} hidden: this file holds what looks like a credential.`}{' '}
      <button type="button" className="link-button" aria-pressed={masked.revealed} onClick={masked.toggle}>
        {masked.revealed ? 'Hide' : 'Reveal'}
      </button>
    </p>
  );
}

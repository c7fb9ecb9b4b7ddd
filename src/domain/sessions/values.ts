// What counts as a sessionId, slug or cwd, on strings (cache validation, plan names) and on the raw
// value bytes the scanner copies out of a log line.
import { isUtf8 } from 'node:buffer';

export const MAX_SLUG_LENGTH = 100;

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const WINDOWS_ABSOLUTE_RE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

export function isSessionId(value: string): boolean {
  return UUID_RE.test(value);
}

export function isSlug(value: string): boolean {
  return value.length <= MAX_SLUG_LENGTH && SLUG_RE.test(value);
}

/** Logs are read on the machine that wrote them, but a copied home may hold the other platform's paths. */
export function isCwd(value: string): boolean {
  return (value.startsWith('/') || WINDOWS_ABSOLUTE_RE.test(value)) && !value.includes('\0');
}

// Both grammars are plain ASCII, so an escape or a multi-byte character already makes them invalid:
// latin1 turns each byte into one character and the regex rejects anything out of range.

export function decodeSessionId(bytes: Buffer): string | null {
  if (bytes.length !== 36) return null;
  const text = bytes.toString('latin1');
  return isSessionId(text) ? text : null;
}

export function decodeSlug(bytes: Buffer): string | null {
  if (bytes.length === 0 || bytes.length > MAX_SLUG_LENGTH) return null;
  const text = bytes.toString('latin1');
  return isSlug(text) ? text : null;
}

/** A cwd's raw JSON string content (between the quotes), unescaped; null unless it is an absolute path. */
export function decodeCwd(bytes: Buffer): string | null {
  if (bytes.length === 0 || !isUtf8(bytes)) return null;
  let parsed: unknown;
  try {
    // Only this small value is parsed, to undo JSON escapes (\\ in Windows paths, \uXXXX).
    parsed = JSON.parse(`"${bytes.toString('utf8')}"`);
  } catch {
    return null;
  }
  return typeof parsed === 'string' && isCwd(parsed) ? parsed : null;
}

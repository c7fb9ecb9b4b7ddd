// The title a plan is shown under. The API's `title` keeps the spec's rule (the first heading without
// "Plan:", else the file name without .md); a plan with no heading reads better under the title of the
// session that wrote it. Pure; the heading rule is the service's own (src/domain/markdown/text.ts).
import { planTitle, titleFrom } from '../../../src/domain/markdown/text';

/**
 * `title`: the API's title; `text`: the plan's text when it is loaded (its heading wins over a title the
 * service could only take from the file name); `sessionTitle`: the session card's title, when known.
 */
export function shownTitle(title: string, filename: string, text: string | null, sessionTitle: string | null): string {
  const fallback = titleFrom(null, filename);
  const own = text === null ? title : planTitle(text, filename);
  if (own !== fallback) return own;
  return title !== fallback ? title : sessionTitle?.trim() || fallback;
}

const MAX_SESSION_CHARS = 60;

/** A session named the way people remember it: its title, else the first line of its first prompt (clipped). */
export function sessionLabel(title: string | null, firstPrompt: string | null): string | null {
  const text = title?.trim() || firstPrompt?.split('\n', 1)[0]?.trim() || '';
  if (text === '') return null;
  return text.length > MAX_SESSION_CHARS ? `${text.slice(0, MAX_SESSION_CHARS - 1)}…` : text;
}

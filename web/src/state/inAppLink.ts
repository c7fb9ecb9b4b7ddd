// A link inside the app that opens without a page load: the URL is the state (useUrlState follows
// popstate), so a pushed URL plus a popstate event is a navigation. Deep components (a session card
// in the plan header) use it instead of threading a callback through every view; a modified click
// (new tab, new window) keeps the browser's own behaviour.
import type { MouseEvent } from 'react';

export function followInApp(e: MouseEvent<HTMLAnchorElement>): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  const href = e.currentTarget.getAttribute('href') ?? '';
  window.history.pushState(null, '', `${window.location.pathname}${href}`);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

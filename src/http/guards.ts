// Who may talk to the service: the Host allowlist (the only defence against DNS rebinding), the
// Fetch-Metadata isolation of every route (against other web pages reading by timing or running up
// costs) and the same-origin rule for state-changing requests (against CSRF).
import type { IncomingMessage } from 'node:http';

export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

export interface GuardConfig {
  /** Host names accepted besides the loopback names (from --allow-host), lowercase. */
  allowedHosts: readonly string[];
  /** The port the server really listens on; an Origin must name it. */
  port: () => number;
}

const AUTHORITY = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

/** Hostname of a Host header (`name[:port]`), lowercase, IPv6 kept in brackets; null when malformed. */
export function hostnameOf(authority: string): string | null {
  const match = AUTHORITY.exec(authority);
  return match ? match[1]!.toLowerCase() : null;
}

function isAllowedName(hostname: string, config: GuardConfig): boolean {
  return (LOOPBACK_NAMES as readonly string[]).includes(hostname) || config.allowedHosts.includes(hostname);
}

/** Exactly one Host header whose hostname is a loopback name or one the user allowed. */
export function hostAllowed(req: IncomingMessage, config: GuardConfig): boolean {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts++;
  }
  const host = req.headers.host;
  if (hosts !== 1 || !host) return false;
  const hostname = hostnameOf(host);
  if (hostname === null || !isAllowedName(hostname, config)) return false;
  // An absolute-form target (`GET http://evil.example/ HTTP/1.1`) overrides Host (RFC 9112 3.2.2), and
  // the router serves its path: its authority must pass the same test.
  const target = req.url ?? '/';
  if (target.startsWith('/') || target === '*') return true;
  const authority = ABSOLUTE_FORM.exec(target)?.[1];
  const targetName = authority === undefined ? null : hostnameOf(authority);
  return targetName !== null && isAllowedName(targetName, config);
}

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/**
 * Fetch-Metadata resource isolation (security rule 3a), on every route and method. A GET the browser
 * hides from another site's page still runs here: its timing leaks what a search found, and its cost can
 * be triggered at will. So a request a browser says another site sent (`cross-site`, or `same-site`: a
 * page on another loopback port) is refused, except a top-level navigation to the UI page, which is how a
 * link elsewhere opens the viewer; the page then talks to the API as `same-origin`. Navigations to other
 * paths (an API URL, an asset) and frames are refused too. Any other value, or the header sent twice, is
 * refused: browsers send exactly one of four. Without the header (curl, scripts, browsers before Fetch
 * Metadata) the request goes on; the Host allowlist and the rule below cover those.
 */
export function fetchSiteAllowed(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'none') return true;
  return req.method === 'GET' && req.headers['sec-fetch-mode'] === 'navigate' && req.headers['sec-fetch-dest'] === 'document' &&
    uiPage(req.url ?? '');
}

/** `/` with or without a query: the UI page (the app reads its state from the query). */
function uiPage(target: string): boolean {
  return target === '/' || target.startsWith('/?');
}

/**
 * A state-changing request must come from our own page or from a non-browser client. Sec-Fetch-Site is
 * trusted when present (browsers set it and pages cannot forge it); otherwise Origin must be our own
 * origin (any loopback alias, our port); with neither header the client is not a browser (curl, scripts).
 */
export function sameOriginAllowed(req: IncomingMessage, config: GuardConfig): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || url.origin !== origin.toLowerCase().replace(/\/$/, '')) return false;
  const port = url.port === '' ? 80 : Number(url.port);
  return port === config.port() && isAllowedName(url.hostname.toLowerCase(), config);
}

/** Headers on every response, API and UI alike (a JSON body with a CSP costs nothing). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  // No 'unsafe-inline' anywhere: the UI styles through CSSOM and renders mermaid without inline <style>.
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; '),
};

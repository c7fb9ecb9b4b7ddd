// Which methods each registered path answers, collected from fastify's `onRoute` hook as the routes are
// registered: an unknown method on a known path is a 405 with `Allow`, and a new route needs no list.
import type { FastifyInstance, RouteOptions } from 'fastify';

export interface RouteTable {
  /** The methods registered for this request path (percent-encoded, without the query); none: unknown path. */
  methodsFor(pathname: string): string[];
}

interface Entry {
  pattern: RegExp;
  methods: string[];
}

/** Must be called before any route is registered; reads the table only once the app is ready. */
export function collectRoutes(app: FastifyInstance): RouteTable {
  const entries = new Map<string, Entry>();
  app.addHook('onRoute', (route: RouteOptions) => {
    // A catch-all (the UI's files under `/*`) stands for no path in particular: a wrong method on a path
    // nothing else registers is an unknown path (404), not a 405.
    if (route.url.includes('*')) return;
    let entry = entries.get(route.url);
    if (!entry) entries.set(route.url, (entry = { pattern: patternOf(route.url), methods: [] }));
    for (const method of [route.method].flat()) if (!entry.methods.includes(method)) entry.methods.push(method);
  });
  return {
    methodsFor: (pathname) => {
      for (const entry of entries.values()) if (entry.pattern.test(pathname)) return entry.methods;
      return [];
    },
  };
}

/** `/api/plans/:filename/content` -> a pattern where each parameter is one non-empty path segment. */
function patternOf(url: string): RegExp {
  const segments = url.split('/').map((segment) =>
    segment.includes(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${segments.join('/')}$`);
}

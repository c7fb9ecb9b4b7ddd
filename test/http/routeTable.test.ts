// The 405 table is whatever the app registers: no list to keep beside the routes.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/errors.js';
import { collectRoutes } from '../../src/http/routeTable.js';
import { TempHome } from '../helpers/home.js';
import { request, startServer, type Running } from '../helpers/http.js';

describe('collectRoutes', () => {
  it('gives a route registered anywhere its 405 and Allow, parameters included, and leaves other paths 404', async () => {
    const app = Fastify();
    installErrorHandling(app, collectRoutes(app));
    app.get('/things/:id/parts', () => ({ ok: true }));
    await app.register(async (child) => {
      child.post('/things/:id/act', () => ({ ok: true }));
    });
    app.route({ method: ['PUT', 'DELETE'], url: '/both', handler: () => ({ ok: true }) });
    app.get('/*', (_request, reply) => reply.callNotFound());
    await app.ready();
    const answer = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string) => {
      const res = await app.inject({ method, url });
      return [res.statusCode, res.headers.allow ?? null];
    };
    expect(await answer('POST', '/things/a%2Fb/parts')).toEqual([405, 'GET, HEAD']);
    expect(await answer('GET', '/things/7/act')).toEqual([405, 'POST']);
    expect(await answer('PATCH', '/both')).toEqual([405, 'PUT, DELETE']);
    expect(await answer('POST', '/things//parts')).toEqual([404, null]);
    expect(await answer('POST', '/things/7/parts/more')).toEqual([404, null]);
    // The catch-all (the UI's files) does not make every path a known one.
    expect(await answer('POST', '/anything-else')).toEqual([404, null]);
    await app.close();
  });
});

describe('the service', () => {
  let home: TempHome;
  let server: Running;

  beforeAll(async () => {
    home = await TempHome.create();
    await home.plan('a-plan.md', '# A\n');
    server = await startServer({ claudeDir: home.claude, homeDir: home.root });
  });

  afterAll(async () => {
    await server?.close();
    await home?.cleanup();
  });

  it('answers 405 with the documented methods on every documented path and on /, 404 off them', async () => {
    const doc = await server.json<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json');
    const documented: [string, string[]][] = Object.entries(doc.paths).map(([route, ops]) => {
      const methods = Object.keys(ops).map((m) => m.toUpperCase());
      return [route.replace(/\{[^}]+\}/g, 'x.md'), methods.includes('GET') ? [...methods, 'HEAD'] : methods];
    });
    documented.push(['/', ['GET', 'HEAD']]);
    // The interface's eleven endpoints and the UI page, at least.
    expect(documented.length).toBeGreaterThanOrEqual(12);
    for (const [pathname, methods] of documented) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].filter((m) => !methods.includes(m))) {
        const res = await request(server.port, { method, path: pathname });
        expect([method, pathname, res.status, res.headers.allow, res.body]).toEqual([method, pathname, 405, methods.join(', '), 'Method not allowed']);
      }
    }
    for (const pathname of ['/api/nope', '/api/plans/x.md', '/api/plans/x.md/content/more', '/assets/none.js']) {
      const res = await request(server.port, { method: 'POST', path: pathname });
      expect([pathname, res.status, res.headers.allow]).toEqual([pathname, 404, undefined]);
    }
  });

  it('sends every JSON answer, built or pre-serialized, as application/json; charset=utf-8', async () => {
    for (const pathname of ['/api/plans', '/api/plans/a-plan.md/content', '/api/search?q=a', '/api/memory', '/api/memory/search?q=a', '/api/projects', '/api/openapi.json']) {
      const res = await request(server.port, { path: pathname, headers: { 'accept-encoding': 'gzip' } });
      expect([pathname, res.status, res.headers['content-type']]).toEqual([pathname, 200, 'application/json; charset=utf-8']);
    }
    const refresh = await request(server.port, { method: 'POST', path: '/api/refresh' });
    expect([refresh.status, refresh.headers['content-type'], JSON.parse(refresh.body)]).toEqual([200, 'application/json; charset=utf-8', { success: true, before: 1, after: 1 }]);
  });
});

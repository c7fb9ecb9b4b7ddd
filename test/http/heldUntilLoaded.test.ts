// The CLI listens while the first scan runs; requests that come meanwhile wait for it and get the
// complete answer, never a partial list. The web UI's files and GET /api/status are answered at once, so the
// page comes up and says which home it reads and how far it has got.
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/http/server.js';
import { Viewer } from '../../src/viewer.js';
import { sleep, TempHome, uuid } from '../helpers/home.js';
import { request, WEB_DIR } from '../helpers/http.js';
import { homeLabel } from '../../src/http/routes/status.js';
import type { StatusBody } from '../../src/contract/status.js';

let home: TempHome | null = null;
afterEach(async () => {
  await home?.cleanup();
  home = null;
});

describe('requests before the first scan is done', () => {
  it('wait for it, then get the complete, linked plan list', async () => {
    home = await TempHome.create();
    await home.plan('held-plan.md', '# Held\n\nwords here\n');
    await home.plan('other-plan.md', '# Other\n');
    const repo = await home.repo('webapp');
    await home.session(repo, uuid(1), ['held-plan']);
    const viewer = await Viewer.create({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false });
    const app = await buildServer({ viewer, opener: async () => true, allowedHosts: [], webDir: WEB_DIR });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    try {
      let answered = false;
      const early = request(port, { path: '/api/plans' }).then((response) => {
        answered = true;
        return response;
      });
      const forbidden = await request(port, { path: '/api/plans', host: 'evil.example' });
      // The guards still answer at once; the list waits for the scan.
      expect(forbidden.status).toBe(403);
      await sleep(200);
      expect(answered).toBe(false);
      await viewer.load();
      const response = await early;
      expect(response.status).toBe(200);
      const { plans } = JSON.parse(response.body) as { plans: { filename: string; sessionId: string | null; project: string | null }[] };
      expect(plans.map((p) => p.filename).sort()).toEqual(['held-plan.md', 'other-plan.md']);
      expect(plans.find((p) => p.filename === 'held-plan.md')).toMatchObject({ sessionId: uuid(1), project: 'webapp' });
      // Once loaded, nothing waits.
      expect((await request(port, { path: '/api/plans' })).status).toBe(200);
    } finally {
      await app.close();
      await viewer.close();
    }
  });
});

describe('the page and its status during the first scan', () => {
  it('are answered at once, the status saying what is read and then that it is done', async () => {
    home = await TempHome.create();
    await home.plan('held-plan.md', '# Held\n');
    const viewer = await Viewer.create({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false, readOnly: true });
    const app = await buildServer({ viewer, opener: async () => true, allowedHosts: [], webDir: WEB_DIR, demo: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    try {
      const page = await request(port, { path: '/' });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const early = await request(port, { path: '/api/status' });
      expect(early.status).toBe(200);
      const status = JSON.parse(early.body) as StatusBody;
      expect(status).toMatchObject({ home: home.claude, demo: false, readOnly: true, loaded: false });
      expect(status.plansDir).toBe(`${home.claude}/plans`);
      expect(Object.keys(status.progress).sort()).toEqual(['bytesRead', 'plans', 'sessionLogs']);
      // The MCP endpoint and the API still wait.
      let mcpAnswered = false;
      const mcp = request(port, { path: '/mcp', method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }).then((r) => {
        mcpAnswered = true;
        return r;
      });
      await sleep(100);
      expect(mcpAnswered).toBe(false);
      await viewer.load();
      await mcp;
      const done = JSON.parse((await request(port, { path: '/api/status' })).body) as StatusBody;
      expect(done.loaded).toBe(true);
      expect(done.progress.plans).toBe(1);
    } finally {
      await app.close();
      await viewer.close();
    }
  });

  it('writes the user\'s home folder as ~', () => {
    expect(homeLabel('/home/ana/.claude', '/home/ana')).toBe('~/.claude');
    expect(homeLabel('/home/ana', '/home/ana')).toBe('~');
    expect(homeLabel('/srv/claude', '/home/ana')).toBe('/srv/claude');
    expect(homeLabel('/home/anabel/.claude', '/home/ana')).toBe('/home/anabel/.claude');
  });
});

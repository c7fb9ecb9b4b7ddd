// The CLI listens while the first scan runs; requests that come meanwhile wait for it and get the
// complete answer, never a partial list.
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/http/server.js';
import { Viewer } from '../../src/viewer.js';
import { sleep, TempHome, uuid } from '../helpers/home.js';
import { request, WEB_DIR } from '../helpers/http.js';

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

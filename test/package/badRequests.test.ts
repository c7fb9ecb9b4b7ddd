// What a request can get wrong is a 400 with a plain message, in the built service too: the HTTP server
// and the domain are bundled apart (dist/server.cjs, dist/app.cjs), so an error class checked with
// instanceof across them is not recognised there, where source-level tests see one class.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerUrl, runCli, type CliRun } from '../helpers/cli.js';
import { request } from '../helpers/http.js';
import { conversationLine, encodeCwd, TempHome, uuid } from '../helpers/home.js';

let home: TempHome;
let run: CliRun;
let port: number;

beforeAll(async () => {
  home = await TempHome.create('pmv-bad-requests-');
  const repo = await home.repo('app');
  await home.plan('the-plan.md', '# The plan\n');
  await home.write(`projects/${encodeCwd(repo)}/${uuid(1)}.jsonl`, `${conversationLine(repo, uuid(1), 'the-plan')}\n`);
  run = runCli(['-p', '0', '--claude-dir', home.claude]);
  port = Number(new URL(await bannerUrl(run)).port);
}, 60_000);

afterAll(async () => {
  run?.child.kill('SIGTERM');
  await run?.exited;
  await home?.cleanup();
});

describe('the built service', () => {
  it('answers a find query with a malformed filter 400, naming the filter and what it accepts', async () => {
    const cases: [string, RegExp][] = [
      ['in:', /in: is one of plans, memory, sessions/],
      ['in:toString', /in: is one of plans, memory, sessions, not "toString"/],
      ['in:constructor', /in: is one of plans, memory, sessions/],
      ['type:bogus', /type: is one of user, feedback, project, reference, not "bogus"/],
      ['after:2026-02-30', /after: needs a date as YYYY-MM-DD, not "2026-02-30"/],
      ['before:tomorrow', /before: needs a date/],
    ];
    for (const [q, message] of cases) {
      const res = await request(port, { path: `/api/find?q=${encodeURIComponent(q)}` });
      expect(res.status, q).toBe(400);
      expect(res.headers['content-type'], q).toMatch(/^text\/plain/);
      expect(res.body, q).toMatch(message);
    }
    expect((await request(port, { path: '/api/find?q=plan' })).status).toBe(200);
  });
});

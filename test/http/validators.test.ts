// Route validators are compiled on a route's first request, or all of them by prepareValidators() once the
// first answers are out, a turn of the event loop each: validation answers the same either way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareValidators } from '../../src/http/server.js';
import { TempHome } from '../helpers/home.js';
import { request, startServer, type Running } from '../helpers/http.js';

let home: TempHome;
let server: Running;
beforeEach(async () => {
  home = await TempHome.create();
  await home.plan('a-plan.md', '# A\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
});
afterEach(async () => {
  await server?.close();
  await home?.cleanup();
});

/** Answers to requests that validation refuses, and to one it lets through. */
async function answers(): Promise<[number, string][]> {
  const out: [number, string][] = [];
  for (const req of [
    { path: '/api/find?q=plan&limit=abc' },
    { path: '/api/find?q=plan&offset=-1' },
    { path: '/api/open', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"filepath": ["a"]}' },
    { path: '/api/find?q=plan&limit=5' },
  ]) {
    const res = await request(server.port, req);
    out.push([res.status, res.status === 200 ? '' : res.body]);
  }
  return out;
}

describe('route validators', () => {
  it('are compiled by prepareValidators() a turn each, then answer as when compiled on first request', async () => {
    const lazily = await answers();
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const compiled = await prepareValidators(server.app);
    counting = false;
    // Some routes were compiled by the requests above; the others now, each in a turn of its own.
    expect(compiled).toBeGreaterThan(5);
    expect(turns).toBeGreaterThanOrEqual(compiled);
    expect(await prepareValidators(server.app)).toBe(0);
    expect(await answers()).toEqual(lazily);
    expect(lazily.slice(0, 3).map(([status]) => status)).toEqual([400, 400, 400]);
    expect(lazily[3]![0]).toBe(200);
  });

  it('compiled before any request answer as lazily compiled ones do', async () => {
    const first = await prepareValidators(server.app);
    const prepared = await answers();
    await server.close();
    server = await startServer({ claudeDir: home.claude, homeDir: home.root });
    expect(await answers()).toEqual(prepared);
    // The requests compiled some of the new server's validators; the rest is left to prepare.
    expect(await prepareValidators(server.app)).toBeLessThan(first);
  });
});

// The process entry (dist/cli.js) turns on Node's compile cache, in the viewer's cache dir, where the
// runtime offers it (Node 22.1+), and starts the same without it (Node 20, or NODE_DISABLE_COMPILE_CACHE=1).
// What this asserts follows the runtime running the tests, which is also the one the CLI runs on.
import module from 'node:module';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompileCacheApi } from '../../src/config/compileCache.js';
import { bannerUrl, runCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

const offered = typeof (module as CompileCacheApi).enableCompileCache === 'function';
let home: TempHome;

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('some-plan.md', '# Some plan\n');
});

afterAll(async () => {
  await home?.cleanup();
});

/** Starts the CLI with its own cache dir, checks that it serves the home, stops it; returns its trace. */
async function start(xdg: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const run = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, XDG_CACHE_HOME: xdg, PMV_TRACE: '1', ...env } });
  const url = await bannerUrl(run);
  const res = await fetch(`${url}api/plans`);
  expect(((await res.json()) as { plans: { title: string }[] }).plans.map((p) => p.title)).toEqual(['Some plan']);
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
  return run.stderr();
}

/** The files under `dir`, recursively (none when it does not exist). */
const filesUnder = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => e.name);

describe('the compile cache', () => {
  it(offered ? 'is turned on in the viewer\'s cache dir and filled by a run' : 'is not offered by this runtime, and the viewer starts without it', async () => {
    const xdg = path.join(home.root, 'xdg-default');
    const dir = path.join(xdg, 'plan-memory-viewer', 'compile-cache');
    const trace = await start(xdg);
    if (offered) {
      expect(trace).toContain(`plan-memory-viewer: compile cache enabled in ${dir}\n`);
      // Node writes it at exit: the bundles' bytecode, one file per module in a folder per Node version.
      expect((await filesUnder(dir)).length).toBeGreaterThanOrEqual(2);
    } else {
      expect(trace).toContain('plan-memory-viewer: compile cache not offered by this runtime\n');
      expect(await filesUnder(dir)).toEqual([]);
    }
  }, 120_000);

  it('is left off with Node\'s NODE_DISABLE_COMPILE_CACHE=1, and the viewer starts the same', async () => {
    const xdg = path.join(home.root, 'xdg-disabled');
    const trace = await start(xdg, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(trace).toContain(offered ? 'plan-memory-viewer: compile cache disabled' : 'plan-memory-viewer: compile cache not offered by this runtime\n');
    expect(await filesUnder(path.join(xdg, 'plan-memory-viewer', 'compile-cache'))).toEqual([]);
  }, 120_000);
});

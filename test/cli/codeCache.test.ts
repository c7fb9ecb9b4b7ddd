// The launcher (dist/cli.js) runs the application bundles (dist/app.cjs, dist/server.cjs) from the V8
// code cache an earlier run wrote into the user cache dir, one file per bundle. The cache may only make a start faster: a corrupt one is ignored and rewritten,
// and the service answers the same either way.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerUrl, runCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
let xdg: string;
let dir: string;

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('some-plan.md', '# Some plan\n');
  xdg = path.join(home.root, 'xdg');
  dir = path.join(xdg, 'plan-memory-viewer');
});

afterAll(async () => {
  await home?.cleanup();
});

const codeFiles = async (): Promise<string[]> => (await readdir(dir).catch(() => [])).filter((f) => f.startsWith('code-')).sort();

/** Starts the CLI, checks that it serves, lets it run for `runMs`, stops it; returns its trace. */
async function start(runMs: number, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const run = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, XDG_CACHE_HOME: xdg, PMV_TRACE: '1', ...env } });
  const url = await bannerUrl(run);
  const res = await fetch(`${url}api/plans`);
  expect(((await res.json()) as { plans: { title: string }[] }).plans.map((p) => p.title)).toEqual(['Some plan']);
  await new Promise((resolve) => setTimeout(resolve, runMs));
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
  return run.stderr();
}

describe('the code cache', () => {
  it('is written by a first run, used by the next, and rewritten when corrupt', async () => {
    const cold = await start(0);
    expect(cold).toContain('code cache of app.cjs absent');
    expect(cold).toContain('code cache of server.cjs absent');
    // Written a few seconds after start, once the first requests have compiled their functions.
    const first = await start(4000);
    expect(first).toContain('code cache of app.cjs absent');
    expect(first).toContain('code cache of app.cjs written');
    expect(first).toContain('code cache of server.cjs written');
    const names = await codeFiles();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^code-app-[0-9a-f]{24}\.bin$/);
    expect(names[1]).toMatch(/^code-server-[0-9a-f]{24}\.bin$/);

    const warm = await start(0);
    expect(warm).toContain('code cache of app.cjs used');
    expect(warm).toContain('code cache of server.cjs used');

    const file = path.join(dir, names[1]!);
    const bytes = await readFile(file);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    await writeFile(file, bytes);
    const afterCorruption = await start(4000);
    expect(afterCorruption).toContain('code cache of app.cjs used');
    expect(afterCorruption).toContain('code cache of server.cjs corrupt');
    expect(afterCorruption).toContain('code cache of server.cjs written');
    expect(await start(0)).toContain('code cache of server.cjs used');
    expect(await codeFiles()).toEqual(names);
  }, 60_000);

  it('is neither read nor written with PMV_CODE_CACHE=0', async () => {
    await rm(dir, { recursive: true, force: true });
    const trace = await start(4000, { PMV_CODE_CACHE: '0' });
    expect(trace).toContain('code cache of app.cjs off');
    expect(trace).toContain('code cache of server.cjs off');
    expect(await codeFiles()).toEqual([]);
  }, 30_000);

  it('replaces the caches of other builds', async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    // The single-bundle name of older versions, and an older build of one bundle.
    await writeFile(path.join(dir, 'code-000000000000000000000000.bin'), 'left by an older version');
    await writeFile(path.join(dir, 'code-server-000000000000000000000000.bin'), 'left by an older build');
    await start(4000);
    const files = await codeFiles();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^code-app-[0-9a-f]{24}\.bin$/);
    expect(files[1]).toMatch(/^code-server-[0-9a-f]{24}\.bin$/);
    expect(files[1]).not.toBe('code-server-000000000000000000000000.bin');
  }, 30_000);
});

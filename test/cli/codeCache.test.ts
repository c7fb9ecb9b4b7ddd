// The launcher (dist/cli.js) runs the application bundles (dist/app.cjs, dist/server.cjs) from the V8
// code cache an earlier run wrote into the user cache dir, one file per bundle, or on a first run from the
// one the build left in dist/code-cache/. The cache may only make a start faster: a corrupt one is ignored
// (and the user's own rewritten), and the service answers the same either way.
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerUrl, CLI, runCli } from '../helpers/cli.js';
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

/**
 * Starts the CLI, checks that it serves, stops it; returns its trace. `untilWritten`: first waits (however
 * long the machine takes) until every bundle cache the launcher scheduled for writing (a few seconds after a
 * start that did not run from the user's own cache) is written.
 */
async function start(untilWritten: boolean, env: NodeJS.ProcessEnv = {}, cli?: string): Promise<string> {
  const run = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, XDG_CACHE_HOME: xdg, PMV_TRACE: '1', ...env }, cli });
  const url = await bannerUrl(run);
  const res = await fetch(`${url}api/plans`);
  expect(((await res.json()) as { plans: { title: string }[] }).plans.map((p) => p.title)).toEqual(['Some plan']);
  if (untilWritten) {
    const scheduled = ['app.cjs', 'server.cjs'].filter((b) => run.stderr().includes(`code cache of ${b} to be written`));
    expect(scheduled.length).toBeGreaterThan(0);
    const deadline = Date.now() + 60_000;
    while (!scheduled.every((b) => run.stderr().includes(`code cache of ${b} written`))) {
      if (Date.now() > deadline || run.child.exitCode !== null) throw new Error(`no code cache written:\n${run.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
  return run.stderr();
}

describe('the code cache', () => {
  it('is written by a first run, used by the next, and rewritten when corrupt', async () => {
    await rm(dir, { recursive: true, force: true });
    const cold = await start(false);
    // Not yet the user's own: the build's (see the next test).
    expect(cold).toContain('code cache of app.cjs absent, shipped one used');
    expect(cold).toContain('code cache of server.cjs absent, shipped one used');
    // Written a few seconds after start, once the first requests have compiled their functions (on a slow
    // machine the run above may have lived that long too: what it wrote is not this run's).
    await rm(dir, { recursive: true, force: true });
    const first = await start(true);
    expect(first).toContain('code cache of app.cjs absent');
    expect(first).toContain('code cache of app.cjs written');
    expect(first).toContain('code cache of server.cjs written');
    const names = await codeFiles();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^code-app-[0-9a-f]{24}\.bin$/);
    expect(names[1]).toMatch(/^code-server-[0-9a-f]{24}\.bin$/);

    const warm = await start(false);
    expect(warm).toContain('code cache of app.cjs used');
    expect(warm).toContain('code cache of server.cjs used');

    const file = path.join(dir, names[1]!);
    const bytes = await readFile(file);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    await writeFile(file, bytes);
    const afterCorruption = await start(true);
    expect(afterCorruption).toContain('code cache of app.cjs used');
    expect(afterCorruption).toContain('code cache of server.cjs corrupt, shipped one used');
    expect(afterCorruption).toContain('code cache of server.cjs written');
    expect(await start(false)).toContain('code cache of server.cjs used');
    expect(await codeFiles()).toEqual(names);
  }, 300_000);

  it('comes with the build for a first run on the same Node, and one that is corrupt or missing is compiled from source', async () => {
    const shipped = (await readdir(path.join(path.dirname(CLI), 'code-cache'))).sort();
    expect(shipped).toHaveLength(2);
    expect(shipped[0]).toMatch(/^code-app-[0-9a-f]{24}\.bin$/);
    expect(shipped[1]).toMatch(/^code-server-[0-9a-f]{24}\.bin$/);
    // A copy of the package (its dist/ but the UI) to damage, as other tests run the real one meanwhile.
    const pkg = path.join(home.root, 'pkg');
    const copy = path.join(pkg, 'dist');
    await cp(path.dirname(CLI), copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}web`) });
    await cp(path.join(path.dirname(CLI), '..', 'package.json'), path.join(pkg, 'package.json'));
    const cli = path.join(copy, 'cli.js');
    await rm(dir, { recursive: true, force: true });
    const first = await start(false, {}, cli);
    expect(first).toContain('code cache of app.cjs absent, shipped one used');
    expect(first).toContain('code cache of server.cjs absent, shipped one used');

    const file = path.join(copy, 'code-cache', shipped[1]!);
    const bytes = await readFile(file);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    await writeFile(file, bytes);
    await rm(dir, { recursive: true, force: true });
    const corrupt = await start(false, {}, cli);
    expect(corrupt).toContain('code cache of app.cjs absent, shipped one used');
    expect(corrupt).toMatch(/code cache of server\.cjs absent, shipped one corrupt\n/);

    await rm(path.join(copy, 'code-cache'), { recursive: true });
    await rm(dir, { recursive: true, force: true });
    const none = await start(false, {}, cli);
    expect(none).toMatch(/code cache of app\.cjs absent\n/);
    expect(none).toMatch(/code cache of server\.cjs absent\n/);
  }, 300_000);

  it('is neither read nor written with PMV_CODE_CACHE=0', async () => {
    await rm(dir, { recursive: true, force: true });
    const trace = await start(false, { PMV_CODE_CACHE: '0' });
    expect(trace).toContain('code cache of app.cjs off');
    expect(trace).toContain('code cache of server.cjs off');
    // Nothing is even scheduled (with the cache on, this line comes right after the status).
    expect(trace).not.toContain('to be written');
    expect(await codeFiles()).toEqual([]);
  }, 120_000);

  it('replaces the caches of other builds', async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    // The single-bundle name of older versions, and an older build of one bundle.
    await writeFile(path.join(dir, 'code-000000000000000000000000.bin'), 'left by an older version');
    await writeFile(path.join(dir, 'code-server-000000000000000000000000.bin'), 'left by an older build');
    await start(true);
    const files = await codeFiles();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^code-app-[0-9a-f]{24}\.bin$/);
    expect(files[1]).toMatch(/^code-server-[0-9a-f]{24}\.bin$/);
    expect(files[1]).not.toBe('code-server-000000000000000000000000.bin');
  }, 120_000);
});

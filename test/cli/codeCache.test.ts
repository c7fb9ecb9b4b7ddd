// The launcher (dist/cli.js) runs the application bundle from the V8 code cache an earlier run wrote into
// the user cache dir. The cache may only make a start faster: a corrupt one is ignored and rewritten,
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

const codeFiles = async (): Promise<string[]> => (await readdir(dir).catch(() => [])).filter((f) => f.startsWith('code-'));

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
    expect(await start(0)).toContain('code cache absent');
    // Written a few seconds after start, once the first requests have compiled their functions.
    const first = await start(4000);
    expect(first).toContain('code cache absent');
    expect(first).toContain('code cache written');
    const [name] = await codeFiles();
    expect(name).toMatch(/^code-[0-9a-f]{24}\.bin$/);

    expect(await start(0)).toContain('code cache used');

    const file = path.join(dir, name!);
    const bytes = await readFile(file);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    await writeFile(file, bytes);
    const afterCorruption = await start(4000);
    expect(afterCorruption).toContain('code cache corrupt');
    expect(afterCorruption).toContain('code cache written');
    expect(await start(0)).toContain('code cache used');
    expect(await codeFiles()).toEqual([name]);
  }, 60_000);

  it('is neither read nor written with PMV_CODE_CACHE=0', async () => {
    await rm(dir, { recursive: true, force: true });
    expect(await start(4000, { PMV_CODE_CACHE: '0' })).toContain('code cache off');
    expect(await codeFiles()).toEqual([]);
  }, 30_000);

  it('replaces the cache of another bundle', async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'code-000000000000000000000000.bin'), 'left by an older version');
    await start(4000);
    const files = await codeFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).not.toBe('code-000000000000000000000000.bin');
  }, 30_000);
});

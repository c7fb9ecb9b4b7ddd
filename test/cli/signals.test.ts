// Stopping the CLI at any moment: a signal during the start-up closes it as cleanly as one after the
// banner, and the demo's temporary copy never outlives the process, whatever way it ends.
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempHome } from '../helpers/home.js';
import { bannerUrl, runCli, type CliRun } from '../helpers/cli.js';

let home: TempHome;

beforeAll(async () => {
  home = await TempHome.create();
});

afterAll(async () => {
  await home?.cleanup();
});

/** A temp dir of its own for each run (the CLI's os.tmpdir()), so leftovers are seen exactly. */
async function tmpFor(name: string): Promise<string> {
  const dir = path.join(home.root, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

const leftovers = async (tmp: string): Promise<string[]> => (await readdir(tmp)).filter((name) => name.startsWith('plan-memory-viewer-demo-'));

async function until(run: CliRun, test: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  void run.exited.then(() => (exited = true));
  while (!test()) {
    if (exited) throw new Error(`the CLI exited before ${what}: ${run.stdout()} ${run.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no ${what} after 60 s: ${run.stdout()} ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a signal during the start-up', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('(%s, demo copied, no banner yet) exits 0 and removes the demo copy', async (signal) => {
    const tmp = await tmpFor(`tmp-${signal}`);
    const run = runCli(['--port', '0', '--demo'], { env: { ...process.env, TMPDIR: tmp, PMV_TRACE: '1' } });
    // Viewer.create() traces this once the demo copy is made and before the server is even loaded.
    await until(run, () => run.stderr().includes('session index restored'), 'the demo copy');
    expect(await leftovers(tmp)).toHaveLength(1);
    run.child.kill(signal);
    expect(await run.exited).toBe(0);
    expect(run.stdout()).not.toContain('Press Ctrl+C');
    expect(await leftovers(tmp)).toEqual([]);
  });
});

describe('the demo copy', () => {
  it('is removed after a signal once the banner is out', async () => {
    const tmp = await tmpFor('tmp-after');
    const run = runCli(['--port', '0', '--demo'], { env: { ...process.env, TMPDIR: tmp } });
    await bannerUrl(run);
    expect(await leftovers(tmp)).toHaveLength(1);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(await leftovers(tmp)).toEqual([]);
  });

  it('is removed when the start fails (the port is taken)', async () => {
    const tmp = await tmpFor('tmp-busy');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as net.AddressInfo).port;
      const run = runCli(['--port', String(port), '--demo'], { env: { ...process.env, TMPDIR: tmp } });
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toContain('is already in use');
      expect(existsSync(tmp)).toBe(true);
      expect(await leftovers(tmp)).toEqual([]);
    } finally {
      blocker.close();
    }
  });
});

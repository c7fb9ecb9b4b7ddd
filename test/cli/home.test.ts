// Which home the CLI serves: one the user names (--claude-dir or CLAUDE_CONFIG_DIR) must exist and be a
// directory, or the CLI stops with one line and exit code 1; the demo only when the default ~/.claude is
// absent, or with --demo; a directory that does not look like a Claude Code home gets a warning.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempHome } from '../helpers/home.js';
import { bannerUrl, runCli } from '../helpers/cli.js';

let home: TempHome;
/** The environment of a user whose home is `userHome`, with no CLAUDE_CONFIG_DIR. */
const userEnv = (userHome: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: userHome, ...extra };
  if (!('CLAUDE_CONFIG_DIR' in extra)) delete env.CLAUDE_CONFIG_DIR;
  return env;
};

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('a-plan.md', '# A plan\n');
  await writeFile(path.join(home.root, 'a-file'), 'not a directory\n');
  await mkdir(path.join(home.root, 'empty'));
  await mkdir(path.join(home.root, 'settings-only'));
  await writeFile(path.join(home.root, 'settings-only', 'settings.json'), '{}\n');
});

afterAll(async () => {
  await home?.cleanup();
});

/** Runs the CLI expecting it to refuse to start: exit code, stdout, stderr. */
async function refused(args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(args, { env, cwd });
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('a home the user names', () => {
  it('that does not exist is an error, for --claude-dir (relative ones resolved) and CLAUDE_CONFIG_DIR', async () => {
    const missing = path.join(home.root, 'no-such-dir');
    expect(await refused(['--port', '0', '--claude-dir', missing])).toEqual({
      code: 1, stdout: '', stderr: `plan-memory-viewer: --claude-dir ${missing} does not exist\n`,
    });
    expect(await refused(['--port', '0', '--claude-dir', 'no-such-dir'], process.env, home.root)).toEqual({
      code: 1, stdout: '', stderr: `plan-memory-viewer: --claude-dir ${missing} does not exist\n`,
    });
    expect(await refused(['--port', '0'], { ...process.env, CLAUDE_CONFIG_DIR: missing })).toEqual({
      code: 1, stdout: '', stderr: `plan-memory-viewer: CLAUDE_CONFIG_DIR ${missing} does not exist\n`,
    });
  });

  it('that is a file is an error, not "does not exist"', async () => {
    const file = path.join(home.root, 'a-file');
    expect(await refused(['--port', '0', '--claude-dir', file])).toEqual({
      code: 1, stdout: '', stderr: `plan-memory-viewer: --claude-dir ${file} is not a directory\n`,
    });
    expect(await refused(['--port', '0'], { ...process.env, CLAUDE_CONFIG_DIR: file })).toEqual({
      code: 1, stdout: '', stderr: `plan-memory-viewer: CLAUDE_CONFIG_DIR ${file} is not a directory\n`,
    });
  });

  it('that does not look like a Claude Code home is served with a warning in the banner', async () => {
    const empty = path.join(home.root, 'empty');
    const run = runCli(['--port', '0', '--claude-dir', empty]);
    await bannerUrl(run);
    expect(run.stdout()).toContain(`Warning:      ${empty} does not look like a Claude Code home (no plans/, projects/ or settings.json)`);
    expect(run.stdout()).not.toContain('DEMO');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);

    // Any one of the three is enough.
    for (const dir of [path.join(home.root, 'settings-only'), home.claude]) {
      const own = runCli(['--port', '0', '--claude-dir', dir]);
      await bannerUrl(own);
      expect(own.stdout()).not.toContain('Warning');
      own.child.kill('SIGTERM');
      expect(await own.exited).toBe(0);
    }
  });
});

describe('the demo', () => {
  it('is served when the default home (~/.claude) does not exist, and says so', async () => {
    const userHome = path.join(home.root, 'user-without-claude');
    await mkdir(userHome, { recursive: true });
    const run = runCli(['--port', '0'], { env: userEnv(userHome) });
    const url = await bannerUrl(run);
    expect(run.stdout()).toContain(`DEMO DATA: ${path.join(userHome, '.claude')} does not exist`);
    const plans = ((await (await fetch(`${url}api/plans`)).json()) as { plans: { project: string | null; sessionId: string | null }[] }).plans;
    expect(plans.length).toBeGreaterThanOrEqual(12);
    expect(plans.filter((p) => p.sessionId !== null).length).toBeGreaterThanOrEqual(10);
    expect(plans.some((p) => p.sessionId === null)).toBe(true);
    const memory = (await (await fetch(`${url}api/memory`)).json()) as { sources: { kind: string; active: boolean }[] };
    expect(memory.sources.some((s) => s.kind === 'custom')).toBe(true);
    expect(memory.sources.filter((s) => s.kind === 'project').length).toBeGreaterThanOrEqual(2);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('is not served when the default ~/.claude is a file: that is an error', async () => {
    const userHome = path.join(home.root, 'user-with-claude-file');
    await mkdir(userHome, { recursive: true });
    await writeFile(path.join(userHome, '.claude'), 'oops\n');
    expect(await refused(['--port', '0'], userEnv(userHome))).toEqual({
      code: 1, stdout: '', stderr: `plan-memory-viewer: ${path.join(userHome, '.claude')} is not a directory\n`,
    });
  });

  it('is forced with --demo', async () => {
    const run = runCli(['--port', '0', '--demo', '--claude-dir', home.claude]);
    await bannerUrl(run);
    expect(run.stdout()).toContain('DEMO DATA: --demo was given');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });
});

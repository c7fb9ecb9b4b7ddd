// What the CLI says as it starts: the URL as soon as it listens (before the first scan is done), then
// "Ready in N ms", what it found and how to stop it; colours only in a terminal and never with NO_COLOR;
// --open hands the URL to the platform's opener once it is ready.
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempHome } from '../helpers/home.js';
import { bannerUrl, CLI, runCli, STOP_HINT } from '../helpers/cli.js';

let home: TempHome;

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('a-plan.md', '# A plan\n');
});

afterAll(async () => {
  await home?.cleanup();
});

async function eventually(read: () => Promise<string>, done: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const text = await read();
    if (done(text)) return text;
    if (Date.now() > deadline) throw new Error(`no ${what} after 60 s: ${text}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// eslint-disable-next-line no-control-regex -- the escape character is what is looked for
const SGR = /\x1b\[\d+m/;
// eslint-disable-next-line no-control-regex
const ANY_ESCAPE = /\x1b/;

describe('the banner', () => {
  it('gives the URL before the first scan is done, then "Ready in N ms", the counts and how to stop', async () => {
    // stdout and stderr into one file: every write lands in the order the process made it, so the trace's
    // "loaded" (the first scan done) tells what was printed before and after it, however fast the machine.
    const log = path.join(home.root, 'start.log');
    const fd = openSync(log, 'w');
    const child = spawn(process.execPath, [CLI, '--port', '0', '--claude-dir', home.claude], {
      env: { ...process.env, PMV_TRACE: '1', XDG_CACHE_HOME: path.join(home.root, 'xdg') }, stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const text = await eventually(() => readFile(log, 'utf8'), (t) => t.includes(STOP_HINT) || child.exitCode !== null, 'banner');
      const at = (needle: RegExp): number => {
        const match = needle.exec(text);
        if (!match) throw new Error(`${needle} not in:\n${text}`);
        return match.index;
      };
      const url = at(/ {2}URL: {10}http:\/\/127\.0\.0\.1:\d+\/\n/);
      const loaded = at(/ ms \(cpu \d+ ms\) loaded\n/);
      const ready = at(/^Ready in [\d,]+ ms\n/m);
      const plans = at(/^ {2}Plans: {8}1\n/m);
      const stop = at(/^Press Ctrl\+C to stop\.\n/m);
      expect(url).toBeLessThan(loaded);
      expect(loaded).toBeLessThan(ready);
      expect(ready).toBeLessThan(plans);
      expect(plans).toBeLessThan(stop);
      // Into a file: no colour, no status line rewritten in place.
      expect(text).not.toMatch(ANY_ESCAPE);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('has colours in a terminal, none with NO_COLOR, and none into a pipe', async () => {
    // A terminal of its own: util-linux's script(1) runs the CLI on a pseudo-terminal.
    const inTerminal = async (extra: NodeJS.ProcessEnv): Promise<string> => {
      const command = [process.execPath, CLI, '--port', '0', '--claude-dir', home.claude].map((a) => `'${a}'`).join(' ');
      const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(home.root, 'xdg'), TERM: 'xterm-256color', ...extra };
      // A user's terminal, not the CI runner's: Node's hasColors() answers "2 colours" whenever CI is set.
      for (const name of ['NO_COLOR', 'NODE_DISABLE_COLORS', 'FORCE_COLOR', 'CI', 'TEAMCITY_VERSION']) if (!(name in extra)) delete env[name];
      const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      try {
        return await eventually(async () => out, (t) => t.includes('Ctrl+C to stop') || child.exitCode !== null, 'banner in a terminal');
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    };
    const coloured = await inTerminal({});
    expect(coloured).toContain('Plan & Memory Viewer');
    expect(coloured).toMatch(SGR);
    expect(coloured).toMatch(/\x1b\[36mhttp:\/\/127\.0\.0\.1:\d+\/\x1b\[39m/); // eslint-disable-line no-control-regex

    const noColour = await inTerminal({ NO_COLOR: '1' });
    expect(noColour).toContain('Ctrl+C to stop');
    expect(noColour).not.toMatch(SGR);

    const piped = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, FORCE_COLOR: '1' } });
    await bannerUrl(piped);
    expect(piped.stdout()).not.toMatch(ANY_ESCAPE);
    piped.child.kill('SIGTERM');
    await piped.exited;
  });
});

describe('--open', () => {
  /** A stand-in for xdg-open first on PATH, recording its arguments (one per line) and exiting with `code`. */
  async function fakeOpener(name: string, code: number): Promise<{ env: NodeJS.ProcessEnv; record: string }> {
    const bin = path.join(home.root, name);
    await mkdir(bin, { recursive: true });
    const record = path.join(bin, 'opened.txt');
    const script = path.join(bin, 'xdg-open');
    await writeFile(script, `#!/bin/sh\nprintf '%s\\n' "$#" "$@" > '${record}'\nexit ${code}\n`);
    await chmod(script, 0o755);
    return { env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` }, record };
  }

  it('opens the URL once it is ready, as one argument', async () => {
    const { env, record } = await fakeOpener('bin-ok', 0);
    const run = runCli(['--port', '0', '--open', '--claude-dir', home.claude], { env });
    const url = await bannerUrl(run);
    expect(await eventually(() => readFile(record, 'utf8').catch(() => ''), (t) => t !== '', 'opener call')).toBe(`1\n${url}\n`);
    expect(run.stderr()).toBe('');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('says so, and keeps serving, when the opener fails', async () => {
    const { env, record } = await fakeOpener('bin-fail', 3);
    const run = runCli(['--port', '0', '--open', '--claude-dir', home.claude], { env });
    const url = await bannerUrl(run);
    await eventually(async () => run.stderr(), (t) => t.includes('could not open a browser'), 'the warning');
    expect(run.stderr()).toBe(`plan-memory-viewer: could not open a browser (xdg-open failed); open ${url} yourself\n`);
    expect(await readFile(record, 'utf8')).toBe(`1\n${url}\n`);
    expect((await fetch(`${url}api/plans`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });
});

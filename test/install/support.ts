// What every install route is checked for, from a clean temp directory outside the repository (so nothing
// resolves from the repository's node_modules): the installed bin prints the version, starts on a fixture
// home, and answers the API and the UI.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { TempHome, uuid } from '../helpers/home.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const VERSION = (JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (no shell); `timeoutMs` only bounds a hung one. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}

/** Throws with the output when a step failed, so a broken route says where. */
export function ok(ran: Ran, what: string): Ran {
  if (ran.code !== 0) throw new Error(`${what} failed (${ran.code}):\n${ran.stdout}\n${ran.stderr}`);
  return ran;
}

/** A temp directory outside the repository, and a project in it to install into. */
export async function cleanProject(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  // allowScripts: the install from git runs the package's prepare script (its build), which npm 11 lists as
  // unreviewed and npm 12 skips unless the project allows it (README, "Install").
  const manifest = { name: 'install-check', version: '1.0.0', private: true, allowScripts: { 'plan-memory-viewer': true } };
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** npm's own complaints about the package: engine mismatches, deprecations, peer conflicts. */
export function npmWarnings(ran: Ran): string[] {
  return `${ran.stdout}\n${ran.stderr}`.split('\n').filter((line) => /EBADENGINE|deprecated|ERESOLVE|peer dep/i.test(line));
}

/** `bin --version`, then a start on a fixture home with one plan, the API and the UI asked, and a clean stop. */
export async function checkInstalledBin(bin: string, cwd: string): Promise<void> {
  const version = ok(await run(bin, ['--version'], { cwd }), `${bin} --version`);
  expect(version.stdout).toBe(`${VERSION}\n`);

  const home = await TempHome.create('pmv-install-home-');
  try {
    const repo = await home.repo('shop');
    await home.plan('install-check.md', '# Installed and running\n\nThe word zanzibar.\n');
    await home.session(repo, uuid(7), ['install-check']);
    const child = spawn(bin, ['--port', '0', '--claude-dir', home.claude], {
      cwd, env: { ...process.env, XDG_CACHE_HOME: path.join(home.root, 'xdg') }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 60_000;
      while (!out.includes('Press Ctrl+C to stop.')) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${bin} did not start:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      const url = /URL:\s+(http:\/\/\S+)/.exec(out)![1]!;
      const plans = (await (await fetch(`${url}api/plans`)).json()) as { plans: { filename: string; title: string; project: string | null }[] };
      expect(plans.plans.map((p) => [p.filename, p.title, p.project])).toEqual([['install-check.md', 'Installed and running', 'shop']]);
      expect(await (await fetch(`${url}api/search?q=ZANZIBAR`)).json()).toEqual({ filenames: ['install-check.md'] });
      // The two POST routes: their validators and serializers are compiled on first use, from the bundle.
      expect((await fetch(`${url}api/refresh`, { method: 'POST' })).status).toBe(200);
      const open = await fetch(`${url}api/open`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ filepath: '/nowhere.md' }) });
      expect([open.status, await open.text()]).toEqual([400, 'Invalid path']);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(new URL(script!, url))).status).toBe(200);
      expect(err).toBe('');
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  } finally {
    await home.cleanup();
  }
}

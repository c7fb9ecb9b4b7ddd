// Runs the built CLI (dist/cli.js) as a real process and reads its banner.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

// The CLI persists its session index under $XDG_CACHE_HOME; tests keep it out of the real home.
const TEST_CACHE = path.join(os.tmpdir(), `pmv-test-cache-${process.pid}`);

export const CLI = path.resolve(import.meta.dirname, '../../dist/cli.js');

export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `cli`: another copy of the entry (a test's own copy of dist/). */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; cli?: string } = {}): CliRun {
  const child = spawn(process.execPath, [options.cli ?? CLI, ...args], { cwd: options.cwd, env: { ...(options.env ?? process.env), XDG_CACHE_HOME: options.env?.XDG_CACHE_HOME ?? TEST_CACHE }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  // A death by signal is reported on stderr's record, so a failing exit-code check shows which one.
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => {
    if (signal !== null) err += `\n[killed by ${signal}]`;
    resolve(code);
  }));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The banner's last line, printed once the viewer is ready, has counted what it found and watches. */
export const STOP_HINT = 'Press Ctrl+C to stop.';

/**
 * Waits for the whole banner (up to its last line) and returns its URL; rejects when the process exits
 * first. `until: 'listening'`: only for the URL line, printed as soon as the server listens (before the
 * first scan is done; requests made then are answered when it is).
 */
export async function bannerUrl(run: CliRun, timeoutMs = 60_000, until: 'complete' | 'listening' = 'complete'): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void run.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    const match = /URL:\s+(http:\/\/\S+)/.exec(run.stdout());
    if (match && (until === 'listening' || run.stdout().includes(STOP_HINT))) return match[1]!;
    if (exited) throw new Error(`CLI exited before its banner: ${run.stdout()} ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no banner after ${timeoutMs} ms: ${run.stdout()} ${run.stderr()}`);
}

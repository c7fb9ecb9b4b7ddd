// Starts the real service (dist/cli.js) as a child process on a free loopback port, against a
// fixture home, and stops it again.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface RunningServer {
  url: string;
  port: number;
  /** Its XDG_CACHE_HOME (undo records of memory fixes live there). */
  cache: string;
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export async function startServer(claudeDir: string | null, options: { port?: number; args?: string[]; cache?: string } = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const env = { ...process.env };
  delete env.CLAUDE_CONFIG_DIR;
  delete env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE;
  // The session index cache goes to a temp dir, not the user's ~/.cache.
  // Another server's, when given: it stays with that server.
  const own = options.cache === undefined;
  const cache = options.cache ?? await mkdtemp(path.join(os.tmpdir(), 'pmv-e2e-cache-'));
  env.XDG_CACHE_HOME = cache;
  const args = [CLI, '--port', String(port), ...(claudeDir ? ['--claude-dir', claudeDir] : []), ...(options.args ?? [])];
  const child: ChildProcess = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));

  const ready = new Promise<string>((resolve, reject) => {
    const onData = () => {
      // The whole banner: its last line comes once the first scan is done and the watchers are started.
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m && out.includes('Press Ctrl+C to stop.')) {
        cleanup();
        resolve(m[0]);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`server exited (${code}) before it was ready:\n${out}`));
    };
    const cleanup = () => {
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', onData);
    child.on('exit', onExit);
  });
  let url: string;
  try {
    url = await ready;
  } catch (error) {
    if (own) await rm(cache, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    port: Number(new URL(url).port),
    cache,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      if (own) await rm(cache, { recursive: true, force: true });
    },
  };
}

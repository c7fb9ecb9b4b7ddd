// The server under test as a child process: spawn, stop, and kill whatever still runs when the runner exits.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { sleep } from './measure.js';
import { REPO } from './options.js';

export interface Server {
  child: ChildProcess;
  pid: number;
  port: number;
  exited: boolean;
  exitInfo: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const running = new Set<Server>();

export function startServer(
  cmd: string, home: string, port: number, cacheDir: string, log: fs.WriteStream, baseEnv: NodeJS.ProcessEnv = process.env,
): Server {
  const quoted = `'${home.replace(/'/g, `'\\''`)}'`;
  const child = spawn('/bin/sh', ['-c', `exec ${cmd} --port ${port} --host 127.0.0.1 --claude-dir ${quoted}`], {
    cwd: REPO,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...baseEnv, XDG_CACHE_HOME: cacheDir, CLAUDE_CONFIG_DIR: home },
  });
  if (child.pid === undefined) throw new Error(`could not spawn: ${cmd}`);
  const server: Server = { child, pid: child.pid, port, exited: false, exitInfo: '' };
  child.stdout?.on('data', (d: Buffer) => log.write(d));
  child.stderr?.on('data', (d: Buffer) => log.write(d));
  child.on('exit', (code, signal) => {
    server.exited = true;
    server.exitInfo = `exit code ${code} signal ${signal}`;
    running.delete(server);
  });
  running.add(server);
  return server;
}

export async function stopServer(server: Server): Promise<number> {
  const t0 = performance.now();
  if (server.exited) return 0;
  const done = new Promise<void>((r) => server.child.once('exit', () => r()));
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  const timedOut = await Promise.race([done.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    await done;
  }
  return performance.now() - t0;
}

export function killAll(): void {
  for (const s of running) {
    try {
      process.kill(-s.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

// A bare node:http server handing out one prebuilt body (the throughput phase serves the plan list from it),
// and its start-up time: what any Node server pays on this machine before its own code counts.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, waitPortOpen } from './measure.js';
import { freePort } from './server.js';

export const BARE_SERVER = `
const fs = require('node:fs');
const http = require('node:http');
const body = fs.readFileSync(process.argv[1]);
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('up\\n'));
`;

/**
 * Spawn to first answer of a bare node:http server (BARE_SERVER with a 2-byte body), each start timed as
 * readyMs is: what any Node server pays on this machine before its own code counts, Node's own start
 * included (which here includes loading the CA bundle NODE_EXTRA_CA_CERTS names, when the environment
 * sets it: the servers measured inherit this environment).
 */
export async function bareNodeStarts(starts: number): Promise<number[]> {
  const file = path.join(os.tmpdir(), `pmv-bench-bare-${process.pid}.json`);
  fs.writeFileSync(file, '[]');
  const runs: number[] = [];
  try {
    for (let i = 0; i < starts; i++) {
      const port = await freePort();
      const t0 = performance.now();
      const child = spawn(process.execPath, ['-e', BARE_SERVER, file, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
      const exited = new Promise((r) => child.once('exit', r));
      const client = new Client(port);
      try {
        while (performance.now() - t0 < 10_000 && child.exitCode === null) {
          const res = await client.get('/api/plans').catch(() => null);
          if (res?.status === 200) {
            runs.push(res.endedAt - t0);
            break;
          }
          if (res === null) await waitPortOpen(port, 10_000, () => child.exitCode !== null);
        }
      } finally {
        client.close();
        child.kill('SIGTERM');
        await exited;
      }
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
  return runs;
}

// Closed-loop HTTP load generator: N keep-alive connections, each sending the next GET as soon as the
// previous response's last byte arrived, for a fixed time after a warm-up. Run in its own process
// (`loadTest` spawns it) so that on a 2-core machine the client and the server each get a core.
//
// It replaces autocannon, which on this VM tops out near 340–430 req/s for a 1 MB body even against a bare
// node:http server: its per-chunk parsing, not the server, was the bottleneck. Here body bytes are only
// counted (bench/http1.ts), so the client needs a fraction of a core; `clientCpuShare` shows how much.
//
//   node --import tsx bench/load.ts --port P [--path /api/plans] [--connections 16] [--duration 10]
//     [--warmup 1] [--header "accept-encoding: gzip"]... [--expect-bytes N]      prints one JSON line

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { READ_BUFFER, ResponseReader, requestBytes, type ResponseHead } from './http1.js';

const SELF = fileURLToPath(import.meta.url);
const REPO = path.resolve(path.dirname(SELF), '..');

export interface LoadOptions {
  port: number;
  path: string;
  connections: number;
  durationS: number;
  warmupS?: number;
  headers?: Record<string, string>;
  /** A 2xx response whose body is not exactly this long counts as an error (the body is the known list). */
  expectBytes?: number;
}

/** Field names up to `errors` are those of the autocannon-based runner, so old results stay comparable. */
export interface Throughput {
  connections: number;
  /** The measured window (after the warm-up), seconds. */
  durationS: number;
  requestsPerSec: number;
  /** Responses completed inside the window. */
  totalRequests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Bytes read from the sockets (heads + bodies) per second of the window. */
  bytesPerSec: number;
  non2xx: number;
  /** Connection and framing errors, 403s (Host refused), 2xx bodies of the wrong length. */
  errors: number;
  tool: 'bench/load.ts';
  warmupS: number;
  latencyP90Ms: number;
  latencyMaxMs: number;
  statuses: Record<string, number>;
  errorExamples: string[];
  /** CPU the load generator used, as a share of one core over the window: near 1, the client is the limit. */
  clientCpuShare: number;
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** The generator itself; runs in the child process. */
export function generate(o: LoadOptions): Promise<Throughput> {
  const req = requestBytes(o.port, o.path, o.headers);
  // Callbacks run synchronously and keep nothing, so all connections can read into one buffer; a small one
  // stays in the CPU cache, which makes the kernel's copy into it several times faster.
  const readBuffer = Buffer.allocUnsafe(READ_BUFFER);
  const warmupS = o.warmupS ?? 1;
  let phase: 'warmup' | 'measure' | 'done' = 'warmup';
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let bytes = 0;
  let non2xx = 0;
  let errors = 0;
  const statuses: Record<string, number> = {};
  const errorExamples: string[] = [];
  const sockets = new Set<net.Socket>();

  const error = (msg: string): void => {
    if (phase !== 'measure') return;
    errors++;
    if (errorExamples.length < 5) errorExamples.push(msg);
  };

  const record = (head: ResponseHead, bodyBytes: number, ms: number): void => {
    if (phase !== 'measure') return;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
    statuses[head.status] = (statuses[head.status] ?? 0) + 1;
    if (head.status < 200 || head.status > 299) non2xx++;
    if (head.status === 403) error('403: the server refused the request (Host not allowed?)');
    else if (o.expectBytes !== undefined && head.status === 200 && bodyBytes !== o.expectBytes) {
      error(`body of ${bodyBytes} bytes, expected ${o.expectBytes}`);
    }
  };

  const open = (): void => {
    if (phase === 'done') return;
    let t0 = 0;
    // Set once this connection is given up (error, or the server asked to close): its 'close' is expected.
    let retired = false;
    const send = (): void => {
      reader.expect();
      t0 = performance.now();
      socket.write(req);
    };
    const reader = new ResponseReader(null, (head, bodyBytes) => {
      record(head, bodyBytes, performance.now() - t0);
      if (phase === 'done') return;
      if (head.close) {
        retired = true;
        sockets.delete(socket);
        socket.destroy();
        open();
      } else {
        send();
      }
    });
    const fail = (msg: string): void => {
      if (retired) return;
      retired = true;
      error(msg);
      sockets.delete(socket);
      socket.destroy();
      // A pause so that a refusing server does not turn this into a busy loop.
      if (phase !== 'done') setTimeout(open, 10);
    };
    const socket = net.connect({
      host: '127.0.0.1', port: o.port, noDelay: true,
      onread: {
        buffer: readBuffer,
        callback: (n: number, buf: Uint8Array): boolean => {
          if (phase === 'measure') bytes += n;
          try {
            reader.feed(buf as Buffer, 0, n);
          } catch (err) {
            fail(err instanceof Error ? err.message : String(err));
          }
          return true;
        },
      },
    });
    sockets.add(socket);
    socket.once('connect', send);
    socket.on('error', (err) => fail(err.message));
    socket.on('close', () => {
      if (phase === 'done' || retired) return;
      try {
        reader.eof();
        // An idle keep-alive connection closed by the server: not an error, just reconnect.
        sockets.delete(socket);
        open();
      } catch (err) {
        fail(err instanceof Error ? err.message : String(err));
      }
    });
  };

  return new Promise((resolve) => {
    for (let i = 0; i < o.connections; i++) open();
    setTimeout(() => {
      phase = 'measure';
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      setTimeout(() => {
        phase = 'done';
        const seconds = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        for (const s of sockets) s.destroy();
        const sorted = latencies.subarray(0, count).sort();
        resolve({
          connections: o.connections, durationS: seconds, requestsPerSec: count / seconds, totalRequests: count,
          latencyP50Ms: quantile(sorted, 0.5), latencyP99Ms: quantile(sorted, 0.99), bytesPerSec: bytes / seconds,
          non2xx, errors, tool: 'bench/load.ts', warmupS, latencyP90Ms: quantile(sorted, 0.9),
          latencyMaxMs: quantile(sorted, 1), statuses, errorExamples,
          clientCpuShare: (cpu.user + cpu.system) / 1e6 / seconds,
        });
      }, o.durationS * 1000);
    }, warmupS * 1000);
  });
}

/** Runs the generator in a child process and returns its figures. */
export async function loadTest(o: LoadOptions): Promise<Throughput> {
  const args = [SELF, '--port', String(o.port), '--path', o.path, '--connections', String(o.connections),
    '--duration', String(o.durationS), '--warmup', String(o.warmupS ?? 1)];
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('--header', `${k}: ${v}`);
  if (o.expectBytes !== undefined) args.push('--expect-bytes', String(o.expectBytes));
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const limitMs = ((o.warmupS ?? 1) + o.durationS + 30) * 1000;
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  clearTimeout(timer);
  try {
    return JSON.parse(out.trim().split('\n').pop() ?? '') as Throughput;
  } catch {
    throw new Error(`load generator failed (exit ${code}): ${err.slice(-500)}`);
  }
}

async function cli(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      path: { type: 'string', default: '/api/plans' },
      connections: { type: 'string', default: '16' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '1' },
      header: { type: 'string', multiple: true },
      'expect-bytes': { type: 'string' },
    },
  });
  if (!values.port) throw new Error('--port is required');
  const headers: Record<string, string> = {};
  for (const h of values.header ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw new Error(`--header takes "name: value", got ${h}`);
    headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
  }
  const result = await generate({
    port: Number(values.port), path: values.path, connections: Number(values.connections),
    durationS: Number(values.duration), warmupS: Number(values.warmup), headers,
    expectBytes: values['expect-bytes'] !== undefined ? Number(values['expect-bytes']) : undefined,
  });
  process.stdout.write(JSON.stringify(result) + '\n');
}

const invoked = process.argv[1] ? fs.realpathSync(process.argv[1]) : '';
if (invoked === SELF) {
  cli().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}

// Measuring helpers for the benchmark runner: a keep-alive HTTP client, /proc readers (RSS, CPU time of a
// process tree), the page-cache read floor, percentiles and the terminal table.

import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { pageAlignedBuffers } from '../src/domain/alignedBuffers.js';

// ---------------------------------------------------------------------------------------------------------
// HTTP

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** From the request to the last body byte, before the body is assembled. */
  ms: number;
  /** performance.now() at the last body byte. */
  endedAt: number;
}

/**
 * Sequential keep-alive client against 127.0.0.1 only, for polling and checks. Latency figures come from
 * RawClient (bench/http1.ts): node:http's parsing costs ~1 ms per 1 MB body here, more than the server.
 */
export class Client {
  private readonly agent: http.Agent;

  constructor(readonly port: number, sockets = 1) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  get(urlPath: string, headers: Record<string, string> = {}, timeoutMs = 30_000): Promise<HttpResult> {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request(
        { host: '127.0.0.1', port: this.port, path: urlPath, method: 'GET', agent: this.agent, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const endedAt = performance.now();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: endedAt - t0, endedAt });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms: GET ${urlPath}`)));
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Binary megabyte: the unit of the runner's sizes and figures. */
export const MB = 1024 * 1024;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Gap between connection attempts while a server's port still refuses them. A refused attempt costs this
 * process 0.2-0.8 ms of CPU here (an HTTP client's attempt the most), so one every millisecond took 25-50%
 * of a core from the server being started on this 2-core VM (cold starts ~85 ms slower in 6 interleaved
 * pairs). The price: the port is seen open up to this late.
 */
export const REFUSED_GAP_MS = 5;

/** Whether something accepts TCP connections on 127.0.0.1:port (a bare connect, the cheapest probe). */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once the port accepts connections, or with false after `timeoutMs` or when `gone()` says so. */
export async function waitPortOpen(port: number, timeoutMs: number, gone: () => boolean = () => false): Promise<boolean> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs && !gone()) {
    if (await portOpen(port)) return true;
    await sleep(REFUSED_GAP_MS);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// Statistics

export interface Dist {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx] as number;
}

export function dist(values: number[]): Dist {
  const s = [...values].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return { n: s.length, p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), max: s[s.length - 1] ?? NaN, mean };
}

export function median(values: number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

export const round = (x: number, digits = 2): number => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

// ---------------------------------------------------------------------------------------------------------
// /proc: process tree, RSS, CPU

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Fields after the `(comm)` of /proc/<pid>/stat; index 0 is the state (field 3 of proc(5)). */
function statFields(pid: number): string[] | null {
  const text = readText(`/proc/${pid}/stat`);
  if (!text) return null;
  return text.slice(text.lastIndexOf(')') + 2).trim().split(' ');
}

/** The pid and all its live descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (!f) continue;
    const ppid = Number(f[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (!fs.existsSync(`/proc/${pid}`)) continue;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

export function rssBytes(pid: number): number {
  const text = readText(`/proc/${pid}/status`);
  const m = text ? /^VmRSS:\s+(\d+)\s+kB/m.exec(text) : null;
  return m ? Number(m[1]) * 1024 : 0;
}

/** RSS of the server: for a command that spawns children, the largest process of the tree. */
export function treeRss(root: number): { pid: number; bytes: number } {
  let best = { pid: root, bytes: 0 };
  for (const pid of processTree(root)) {
    const bytes = rssBytes(pid);
    if (bytes > best.bytes) best = { pid, bytes };
  }
  return best;
}

const CLK_TCK = 100;

export interface CpuSample {
  /** Sum over the tree's live threads of /proc/<pid>/task/<tid>/schedstat run time: ns resolution. */
  schedNs: number;
  /** utime+stime from /proc/<pid>/stat summed over the tree (includes exited threads), 10 ms ticks. */
  statMs: number;
}

/** utime+stime of a process from /proc/<pid>/stat (all its threads, exited ones included), in 10 ms ticks; 0 when gone. */
export function processCpuMs(pid: number): number {
  const f = statFields(pid);
  return f ? ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK : 0;
}

/** Calls `each` with every live thread of a process and its schedstat run time (ns); nothing when gone. */
export function forEachThreadRunNs(pid: number, each: (tid: string, runNs: number) => void): void {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const tid of tasks) {
    const t = readText(`/proc/${pid}/task/${tid}/schedstat`);
    if (t) each(tid, Number(t.split(' ')[0]));
  }
}

export function treeCpu(root: number): CpuSample {
  let schedNs = 0;
  let statMs = 0;
  for (const pid of processTree(root)) {
    statMs += processCpuMs(pid);
    forEachThreadRunNs(pid, (_tid, runNs) => {
      schedNs += runNs;
    });
  }
  return { schedNs, statMs };
}

/** CPU milliseconds between two samples; schedstat unless threads exited (then the coarser stat figure). */
export function cpuDeltaMs(a: CpuSample, b: CpuSample): number {
  const sched = (b.schedNs - a.schedNs) / 1e6;
  const stat = b.statMs - a.statMs;
  return sched < 0 || stat > sched + 20 ? stat : sched;
}

/**
 * Waits until a server has finished its start-up work (the background builds of the history and the find
 * index): less than 20 ms of CPU in a second, for up to 180 s. False if it never did.
 */
export function waitSettled(root: number): Promise<boolean> {
  return waitQuiet(root, 1_000, 20, 180_000);
}

/** Waits until the tree used less than `thresholdMs` CPU over `quietMs`, or `maxMs` passed. */
export async function waitQuiet(root: number, quietMs = 300, thresholdMs = 3, maxMs = 5_000): Promise<boolean> {
  const t0 = performance.now();
  let prev = treeCpu(root);
  while (performance.now() - t0 < maxMs) {
    await sleep(quietMs);
    const cur = treeCpu(root);
    if (cpuDeltaMs(prev, cur) < thresholdMs) return true;
    prev = cur;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// Page-cache read floor

export function listFiles(root: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && accept(e.name)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** Reads every byte of `files` once with one large buffer; returns ms and bytes. */
export function readAll(files: string[], buf: Buffer): { ms: number; bytes: number } {
  let bytes = 0;
  const t0 = performance.now();
  for (const f of files) {
    const fd = fs.openSync(f, 'r');
    try {
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, null);
        if (n <= 0) break;
        bytes += n;
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  return { ms: performance.now() - t0, bytes };
}

/**
 * Median time to open a file, read `len` bytes from the page cache in reads of `chunk` bytes, and close it. Each
 * repetition reads a different range (spread over the file) so the bytes do not come from the CPU cache.
 */
export function readRangeMs(file: string, len: number, chunk = len, reps = 51): number {
  const size = fs.statSync(file).size;
  // Page-aligned: into a buffer a few bytes past a page boundary the same read takes ~4-7x as long here
  // (src/domain/alignedBuffers.ts), which made this reference swing between runs (0.09 and 0.61 ms).
  const buf = pageAlignedBuffers(1, chunk)[0]!;
  const times: number[] = [];
  const slots = Math.max(1, Math.floor(size / len));
  for (let i = 0; i < reps; i++) {
    const offset = ((i * 7919) % slots) * len;
    const t0 = performance.now();
    const fd = fs.openSync(file, 'r');
    let got = 0;
    while (got < len) {
      const n = fs.readSync(fd, buf, 0, Math.min(chunk, len - got), offset + got);
      if (n <= 0) break;
      got += n;
    }
    fs.closeSync(fd);
    times.push(performance.now() - t0);
  }
  return median(times);
}

// ---------------------------------------------------------------------------------------------------------
// Table

export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length); });
  const line = (row: string[]): string => '| ' + row.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ') + ' |';
  const sep = '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|';
  const [header, ...rest] = rows;
  return [line(header ?? []), sep, ...rest.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// CPU steadiness

/** One run of a fixed ALU-bound loop (xorshift, ~0.1 s here): its time tracks how fast this CPU is now. */
function fixedLoopMs(): number {
  const t0 = performance.now();
  let x = 1;
  for (let i = 0; i < 50_000_000; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  const ms = performance.now() - t0;
  if (x === 0) throw new Error('xorshift reached 0');
  return ms;
}

/**
 * `runs` times of the fixed loop, after one that warms it up. On a shared VM the same loop has taken
 * from 1x to 2x its best time within minutes: results are only comparable with this beside them.
 */
export function cpuSpeedSamples(runs = 5): number[] {
  fixedLoopMs();
  return Array.from({ length: runs }, () => round(fixedLoopMs(), 1));
}

// The slowest small request while something else runs, timed from a thread of its own, and the peak RSS of
// the server over the same time: what the hostile-files and history phases watch while they work.

import { Worker } from 'node:worker_threads';
import { treeRss } from './measure.js';

// The prober runs on a thread of its own: this thread downloads the huge answers meanwhile, and a
// prober sharing its event loop would time this process's work, not the server's.
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let stopped = false;
let slowest = 0;
let requests = 0;
parentPort.on('message', () => { stopped = true; });
const once = () => new Promise((resolve) => {
  const t0 = performance.now();
  const req = http.get({ host: '127.0.0.1', port: workerData.port, path: '/api/projects', agent }, (res) => {
    res.resume();
    res.on('end', () => resolve(performance.now() - t0));
    res.on('error', () => resolve(null));
  });
  req.on('error', () => resolve(null));
});
(async () => {
  while (!stopped) {
    const ms = await once();
    if (ms !== null) {
      slowest = Math.max(slowest, ms);
      requests++;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  agent.destroy();
  parentPort.postMessage({ slowest, requests });
})();
`;

/**
 * A small request on its own connection, back to back with a 5 ms gap, until stopped; the slowest. A
 * request in flight while the server is stalled waits for the stall, so the slowest is the longest stall.
 */
export function probe(port: number): { stop: () => Promise<number>; stopCounting: () => Promise<{ slowestMs: number; requests: number }> } {
  const worker = new Worker(PROBER, { eval: true, workerData: { port } });
  const result = new Promise<{ slowest: number; requests: number }>((resolve, reject) => {
    worker.once('message', (m: { slowest: number; requests: number }) => resolve(m));
    worker.once('error', reject);
  });
  const stopCounting = async (): Promise<{ slowestMs: number; requests: number }> => {
    worker.postMessage('stop');
    const m = await result;
    await worker.terminate();
    return { slowestMs: m.slowest, requests: m.requests };
  };
  return { stop: async () => (await stopCounting()).slowestMs, stopCounting };
}

/** Samples the server tree's RSS every 20 ms until stopped; the peak. */
export function rssPeak(pid: number): { stop: () => number } {
  let peak = treeRss(pid).bytes;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(pid).bytes);
  }, 20);
  return { stop: () => (clearInterval(timer), Math.max(peak, treeRss(pid).bytes)) };
}

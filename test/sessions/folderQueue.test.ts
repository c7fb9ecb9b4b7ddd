// The folder queue of a start-up scan: whoever takes from the front or the back, every folder is taken
// exactly once, also when the taking happens in another thread.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createFolderQueue, takeAll } from '../../src/domain/sessions/folderQueue.js';

const folders = Array.from({ length: 50 }, (_, i) => `-home-u-p${i}`);

describe('the folder queue', () => {
  it('gives each folder to exactly one taker, front and back interleaved', () => {
    const queue = createFolderQueue(folders);
    const front = takeAll(queue);
    const back = takeAll(queue, true);
    const byFront: number[] = [];
    const byBack: number[] = [];
    for (let turn = 0; turn < 200; turn++) {
      // Uneven turns: the front takes two for each one of the back.
      const next = (turn % 3 === 2 ? back : front).next();
      if (!next.done) (turn % 3 === 2 ? byBack : byFront).push(next.value);
    }
    for (const i of front) byFront.push(i);
    for (const i of back) byBack.push(i);
    expect([...byFront, ...byBack].sort((a, b) => a - b)).toEqual(folders.map((_, i) => i));
    expect(byFront[0]).toBe(0);
    expect(byBack[0]).toBe(folders.length - 1);
  });

  it('shares its flags with a worker thread it is posted to', async () => {
    const queue = createFolderQueue(folders);
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.once('message', (taken) => { for (let i = 0; i < taken.length; i += 2) Atomics.store(taken, i, 1); parentPort.postMessage('done'); });`,
      { eval: true },
    );
    worker.postMessage(queue.taken);
    await new Promise((resolve) => worker.once('message', resolve));
    await worker.terminate();
    // The worker took the even ones; this thread gets exactly the odd ones.
    expect([...takeAll(queue)]).toEqual(folders.map((_, i) => i).filter((i) => i % 2 === 1));
  });
});

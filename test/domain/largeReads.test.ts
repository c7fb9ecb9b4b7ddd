// Passes over large files take turns process-wide (largeReads.ts): at most LARGE_READS_AT_ONCE at once,
// the others in the order they came; a turn ends however its work ends, and only once.
import { describe, expect, it, vi } from 'vitest';
import { inLargeReadTurn, LARGE_READS_AT_ONCE, largeReadsNow, largeReadTurn } from '../../src/domain/largeReads.js';

/** A promise and what settles it. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const turns = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('large reads', () => {
  it('run at most LARGE_READS_AT_ONCE at once; the others wait, then run in the order they came', async () => {
    const gates = Array.from({ length: 6 }, deferred);
    const started: number[] = [];
    let peak = 0;
    let running = 0;
    const all = gates.map((gate, i) => inLargeReadTurn(async () => {
      started.push(i);
      peak = Math.max(peak, ++running);
      try {
        await gate.promise;
      } finally {
        running--;
      }
      return i;
    }));
    await turns();
    expect(started).toEqual([0, 1]);
    expect(largeReadsNow()).toEqual({ running: LARGE_READS_AT_ONCE, waiting: 4 });
    // The third one came first among those waiting: it runs when any turn ends.
    gates[1]!.resolve();
    await turns();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.reject(new Error('unreadable'));
    for (const gate of gates.slice(2)) gate.resolve();
    const results = await Promise.allSettled(all);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(LARGE_READS_AT_ONCE);
    expect(largeReadsNow()).toEqual({ running: 0, waiting: 0 });
  });

  it('ends a turn once, however often it is told to', async () => {
    const end = await largeReadTurn();
    end();
    end();
    expect(largeReadsNow()).toEqual({ running: 0, waiting: 0 });
    const [a, b] = await Promise.all([largeReadTurn(), largeReadTurn()]);
    let third = false;
    const c = largeReadTurn().then((endC) => ((third = true), endC));
    a();
    a();
    await turns();
    expect(third).toBe(true);
    expect(largeReadsNow()).toEqual({ running: 2, waiting: 0 });
    b();
    (await c)();
    expect(largeReadsNow()).toEqual({ running: 0, waiting: 0 });
  });

  it('are one queue for every copy of the module in the process (the built service loads it in two bundles)', async () => {
    const held = [await largeReadTurn(), await largeReadTurn()].slice(0, LARGE_READS_AT_ONCE);
    vi.resetModules();
    const copy = await import('../../src/domain/largeReads.js');
    let started = false;
    const other = copy.inLargeReadTurn(async () => {
      started = true;
    });
    await turns();
    expect(started, 'a second copy waits for the turns the first one gave').toBe(false);
    expect(copy.largeReadsNow()).toEqual({ running: LARGE_READS_AT_ONCE, waiting: 1 });
    for (const end of held) end();
    await other;
    expect(started).toBe(true);
    expect(largeReadsNow()).toEqual({ running: 0, waiting: 0 });
  });
});

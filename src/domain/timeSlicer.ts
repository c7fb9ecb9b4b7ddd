// Long synchronous work (directory walks, thousands of small reads, search preparation) runs in slices:
// between slices the event loop answers requests, so none waits longer than about one slice.
//
// Slices take turns: one slice per turn of the event loop, whoever's it is. Several tasks run at once
// after a start (the watchers' crawl, search preparation, the memory scan); when each resumed from its
// own setImmediate, all of their slices ran in the same turn, back to back, and a request waited for
// their sum (the benchmark's probe after ready saw 40-60 ms).

import { processWide } from './processWide.js';

/** How long one slice of synchronous work may hold the event loop. */
export const SLICE_MS = 10;

const turns = processWide('sliceTurns', () => ({ waiting: [] as (() => void)[], scheduled: false }));

function scheduleTurn(): void {
  turns.scheduled = true;
  // Queued from within an immediate, it runs in the next turn, after that turn's I/O (the requests).
  setImmediate(runNextSlice);
}

function runNextSlice(): void {
  turns.scheduled = false;
  const next = turns.waiting.shift();
  if (turns.waiting.length > 0) scheduleTurn();
  next?.();
}

/** Resolves in a later turn of the event loop, after the slices already waiting for theirs (FIFO). */
export function nextSliceTurn(): Promise<void> {
  return new Promise((resolve) => {
    turns.waiting.push(resolve);
    if (!turns.scheduled) scheduleTurn();
  });
}

export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly budgetMs = SLICE_MS) {}

  /**
   * A slicer whose first slice starts in a turn of its own: work begun from another task's step (a
   * watcher's callback, a resumed read) would otherwise run its first slice in that step's turn, beside it.
   */
  static async inOwnTurn(budgetMs = SLICE_MS): Promise<TimeSlicer> {
    const slicer = new TimeSlicer(budgetMs);
    await slicer.pause();
    return slicer;
  }

  /** Whether the current slice is used up. A plain call, cheap enough to check per file. */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.budgetMs;
  }

  /** Lets pending I/O callbacks and requests run; a new slice starts when this one's turn comes. */
  async pause(): Promise<void> {
    await nextSliceTurn();
    this.sliceStart = performance.now();
  }

  /** pause() once the current slice has used its budget, else nothing. */
  async maybeYield(): Promise<void> {
    if (this.due()) await this.pause();
  }
}

// Long synchronous work (directory walks, thousands of small reads) runs in slices: between slices the
// event loop answers requests, so none waits longer than about one slice.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long one slice of synchronous work may hold the event loop. */
export const SLICE_MS = 10;

export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly budgetMs = SLICE_MS) {}

  /** Whether the current slice is used up. A plain call, cheap enough to check per file. */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.budgetMs;
  }

  /** Lets pending I/O callbacks and requests run; a new slice starts then. */
  async pause(): Promise<void> {
    await nextTurn();
    this.sliceStart = performance.now();
  }

  /** pause() once the current slice has used its budget, else nothing. */
  async maybeYield(): Promise<void> {
    if (this.due()) await this.pause();
  }
}

// Long synchronous work (directory walks, thousands of small reads) runs in slices: between slices the
// event loop answers requests, so none waits longer than about one slice.

/** How long one slice of synchronous work may hold the event loop. */
export const SLICE_MS = 10;

export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly budgetMs = SLICE_MS) {}

  /** Yields to the event loop once the current slice has used its budget. */
  async maybeYield(): Promise<void> {
    if (performance.now() - this.sliceStart < this.budgetMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}

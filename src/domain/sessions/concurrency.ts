// Small async primitives for the session index: per-key serialisation and a bounded pool.

/** Runs tasks with the same key one after another; keys are dropped once idle, so memory stays bounded. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/** At most `limit` items exist; they are created on first demand and handed out in turn. */
export class Pool<T> {
  private readonly free: T[] = [];
  private readonly waiting: ((item: T) => void)[] = [];
  private created = 0;

  constructor(
    private readonly limit: number,
    private readonly create: () => T,
  ) {}

  acquire(): Promise<T> {
    const item = this.free.pop();
    if (item !== undefined) return Promise.resolve(item);
    if (this.created < this.limit) {
      this.created++;
      return Promise.resolve(this.create());
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(item: T): void {
    const next = this.waiting.shift();
    if (next !== undefined) next(item);
    else this.free.push(item);
  }

  async use<R>(task: (item: T) => Promise<R>): Promise<R> {
    const item = await this.acquire();
    try {
      return await task(item);
    } finally {
      this.release(item);
    }
  }
}

/** Calls task for every item with at most `limit` calls in flight. */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

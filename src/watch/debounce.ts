// Trailing-edge debounce per key, with a ceiling so that a file changing without pause (a session log
// streaming lines) is still delivered regularly instead of only once it goes quiet.

interface Pending {
  timer: NodeJS.Timeout;
  since: number;
}

export class KeyedDebouncer {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly delayMs: number,
    private readonly maxWaitMs: number,
    private readonly fire: (key: string) => void,
  ) {}

  touch(key: string): void {
    const now = Date.now();
    const pending = this.pending.get(key);
    if (pending) {
      // Past the ceiling the timer is left to fire: it still runs after this change, so the change is
      // covered, and the next one starts a new window.
      if (now - pending.since < this.maxWaitMs) pending.timer.refresh();
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(key);
      this.fire(key);
    }, this.delayMs);
    this.pending.set(key, { timer, since: now });
  }

  get size(): number {
    return this.pending.size;
  }

  clear(): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}

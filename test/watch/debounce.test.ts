import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyedDebouncer } from '../../src/watch/debounce.js';

describe('KeyedDebouncer', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('delivers once per burst, after the last change, per key', () => {
    const fired: string[] = [];
    const d = new KeyedDebouncer(5, 50, (k) => fired.push(k));
    for (let i = 0; i < 4; i++) {
      d.touch('a');
      vi.advanceTimersByTime(3);
    }
    d.touch('b');
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(5);
    expect(fired).toEqual(['a', 'b']);
    // A change after a delivery is delivered again (the trailing edge of the next burst).
    d.touch('a');
    vi.advanceTimersByTime(5);
    expect(fired).toEqual(['a', 'b', 'a']);
    expect(d.size).toBe(0);
  });

  it('still delivers a key that changes without pause, at most max-wait plus delay apart', () => {
    const fired: number[] = [];
    const d = new KeyedDebouncer(5, 50, () => fired.push(Date.now()));
    const start = Date.now();
    for (let t = 0; t < 200; t += 2) {
      d.touch('log');
      vi.advanceTimersByTime(2);
    }
    expect(fired.length).toBeGreaterThanOrEqual(3);
    expect(fired[0]! - start).toBeLessThanOrEqual(55);
    vi.advanceTimersByTime(10);
    // The last change is delivered after it happened.
    expect(fired.at(-1)! - start).toBeGreaterThanOrEqual(198);
  });

  it('clear() cancels everything pending', () => {
    const fired: string[] = [];
    const d = new KeyedDebouncer(5, 50, (k) => fired.push(k));
    d.touch('a');
    d.clear();
    vi.advanceTimersByTime(100);
    expect(fired).toEqual([]);
  });
});

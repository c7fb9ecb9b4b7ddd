import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageAlignedBuffers } from '../../src/domain/alignedBuffers.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('pageAlignedBuffers', () => {
  it('carves page-aligned, disjoint, zeroed buffers out of one WebAssembly memory', () => {
    const buffers = pageAlignedBuffers(2, 256 * 1024);
    expect(buffers).toHaveLength(2);
    const [a, b] = buffers as [Buffer, Buffer];
    expect(a.length).toBe(256 * 1024);
    expect(b.length).toBe(256 * 1024);
    expect(a.buffer).toBe(b.buffer);
    // A WebAssembly memory is whole 64 KiB pages and starts on a page boundary; so does each buffer in it.
    expect(a.buffer.byteLength % (64 * 1024)).toBe(0);
    expect(a.byteOffset % 4096).toBe(0);
    expect(b.byteOffset % 4096).toBe(0);
    expect(a.every((byte) => byte === 0) && b.every((byte) => byte === 0)).toBe(true);
    a.fill(0xaa);
    expect(b.every((byte) => byte === 0)).toBe(true);
    b.fill(0x55);
    expect(a.every((byte) => byte === 0xaa)).toBe(true);
  });

  it('rounds each buffer up to whole 4 KiB pages so the next one starts on a boundary too', () => {
    const [a, b, c] = pageAlignedBuffers(3, 5000) as [Buffer, Buffer, Buffer];
    expect([a.length, b.length, c.length]).toEqual([5000, 5000, 5000]);
    expect([a.byteOffset, b.byteOffset, c.byteOffset]).toEqual([0, 8192, 16384]);
  });

  it('hands out plain buffers when WebAssembly is not there (node --jitless)', () => {
    vi.stubGlobal('WebAssembly', undefined);
    const buffers = pageAlignedBuffers(2, 1000);
    expect(buffers.map((b) => b.length)).toEqual([1000, 1000]);
    expect(buffers[0]!.buffer).not.toBe(buffers[1]!.buffer);
  });

  it('hands out plain buffers when the memory cannot be reserved', () => {
    vi.stubGlobal('WebAssembly', {
      Memory: class {
        constructor() {
          throw new RangeError('WebAssembly.Memory(): could not allocate memory');
        }
      },
    });
    const buffers = pageAlignedBuffers(2, 1000);
    expect(buffers.map((b) => b.length)).toEqual([1000, 1000]);
    buffers[0]!.fill(1);
    expect(buffers[1]!.every((byte) => byte === 0)).toBe(true);
  });
});

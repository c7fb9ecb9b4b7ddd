// One reused buffer for reading many small files in a row whose bytes are measured, not kept (the plans
// read at start: their titles, lines and words). Fresh memory for each file's bytes was the larger part
// of reading them: a first start's 3,000 plans (25 MB) went into new 4 MB slabs, and touching each new
// page costs a page fault, where the copy out of the page cache is ~10 GB/s. Reading into one buffer
// that is already mapped, and starts on a page boundary (see alignedBuffers.ts), took 22-24 ms for
// those plans against 36-68 ms into slabs (open, fstat and close included).
import { readSync } from 'node:fs';
import { pageAlignedBuffers } from './alignedBuffers.js';

const INITIAL_BYTES = 64 * 1024;

/** Reads `fd` from its start into `into` until it is full or the file ends; returns the bytes read. */
function readFully(fd: number, into: Buffer): number {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

export class ScratchBuffer {
  private buffer: Buffer | null = null;

  /**
   * The first `size` bytes of the open file `fd` (fewer if it has shrunk since `size` was taken), in
   * this buffer: valid only until the next read().
   */
  read(fd: number, size: number): Buffer {
    if (this.buffer === null || this.buffer.length < size) {
      // Doubling: a folder with a few large plans among small ones reallocates a handful of times.
      this.buffer = pageAlignedBuffers(1, Math.max(size, 2 * (this.buffer?.length ?? INITIAL_BYTES / 2)))[0]!;
    }
    return this.buffer.subarray(0, readFully(fd, this.buffer.subarray(0, size)));
  }
}

// Many small files read into views of a few large buffers. At start 3,000 plans were 3,000 buffers:
// allocating them took ~45 ms in a profile of a first start, next to ~70 ms of reading them.
import { readSync } from 'node:fs';

const SLAB_BYTES = 4 * 1024 * 1024;
/** Files above this get a buffer of their own, so one large file never strands most of a slab. */
const OWN_BUFFER_BYTES = SLAB_BYTES / 8;

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

/**
 * A view holds its whole slab alive, so a slab serves one batch of reads whose buffers are dropped
 * together (plans keep theirs only until search preparation folds them).
 */
export class ByteSlab {
  private slab: Buffer | null = null;
  private used = 0;

  /** The first `size` bytes of the open file `fd` (fewer if it has shrunk since `size` was taken). */
  read(fd: number, size: number): Buffer {
    if (size > OWN_BUFFER_BYTES) {
      const own = Buffer.allocUnsafeSlow(size);
      return own.subarray(0, readFully(fd, own));
    }
    if (this.slab === null || this.used + size > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.used = 0;
    }
    const view = this.slab.subarray(this.used, this.used + readFully(fd, this.slab.subarray(this.used, this.used + size)));
    this.used += view.length;
    return view;
  }
}

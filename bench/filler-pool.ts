// The filler pool whose slices fill the text of log lines (words, numbers, escapes, non-ASCII).

import type { Rng } from './rng.js';
import { WORDS } from './vocabulary.js';

// Filler pool for log lines: JSON-string-safe bytes, cut only at spaces so every slice is valid string content.

export class FillerPool {
  readonly buf: Buffer;
  private readonly spaces: Uint32Array;

  constructor(rng: Rng, bytes: number) {
    const tokens: string[] = [];
    let size = 0;
    const special = [
      'foo();\\n', '\\n\\n', '\\t', '\\"quoted\\"', 'C:\\\\Users\\\\dev', 'naïve', 'café', '日本語のテキスト',
      '\u2028', 'emoji🚀', '\\u001b[31mred\\u001b[0m', '{\\"slug\\":\\"not-a-real-plan-otter\\"}',
      '\\"cwd\\":\\"/elsewhere\\"', '</script>', 'src/components/Button.tsx:42:7',
    ];
    while (size < bytes) {
      const t = rng.chance(0.04) ? rng.pick(special) : rng.chance(0.1) ? String(rng.int(0, 99999)) : rng.pick(WORDS);
      tokens.push(t);
      size += Buffer.byteLength(t) + 1;
    }
    this.buf = Buffer.from(tokens.join(' ') + ' ', 'utf8');
    let count = 0;
    for (let i = 0; i < this.buf.length; i++) if (this.buf[i] === 0x20) count++;
    this.spaces = new Uint32Array(count);
    let k = 0;
    for (let i = 0; i < this.buf.length; i++) if (this.buf[i] === 0x20) this.spaces[k++] = i;
  }

  /** About `len` bytes (never more than len + one token) of valid JSON string content, zero-copy. */
  slice(rng: Rng, len: number): Buffer {
    const maxStart = this.buf.length - len - 256;
    if (maxStart <= 0) throw new Error(`filler pool too small for ${len} bytes`);
    // first space index whose offset <= maxStart
    const hiIdx = this.upperBound(maxStart) - 1;
    const startIdx = Math.floor(rng.next() * Math.max(1, hiIdx));
    const start = (this.spaces[startIdx] as number) + 1;
    const endIdx = this.upperBound(start + len - 1);
    const end = this.spaces[Math.min(endIdx, this.spaces.length - 1)] as number;
    return this.buf.subarray(start, Math.max(start, end));
  }

  /** First index whose offset > value. */
  private upperBound(value: number): number {
    let lo = 0;
    let hi = this.spaces.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.spaces[mid] as number) <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

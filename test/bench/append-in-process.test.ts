import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { measureAppendInProcess } from '../../bench/append-in-process.js';

const tempDirs = (): string[] => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('pmv-bench-append-'));

describe('the in-process append measure', () => {
  it('times every kind of append to an indexed log, and leaves nothing behind', async () => {
    const before = new Set(tempDirs());
    const r = await measureAppendInProcess({ logBytes: 3 * 1024 * 1024, hugeShare: 0.2, rounds: 4, warmup: 2 });
    for (const kind of [r.mb, r.mbOrdinary, r.line]) {
      expect(kind.cpuMs).toHaveLength(4);
      for (const ms of kind.cpuMs) expect(ms).toBeGreaterThanOrEqual(0);
      expect(Number.isFinite(kind.medianMs)).toBe(true);
    }
    // The warm-up's 1 MB appends are kept apart from the rounds.
    expect(r.firstMbCpuMs).toHaveLength(2);
    // The ordinary-lines chunk is the one with many lines; the other has a huge tool output in it.
    expect(r.linesPerMb.mbOrdinary).toBeGreaterThan(50);
    expect(r.linesPerMb.mb).toBeLessThan(r.linesPerMb.mbOrdinary);
    expect(r.read1MbMs).toBeGreaterThan(0);
    expect(r.perByteRatio).toBeCloseTo((r.mb.medianMs - r.line.medianMs) / r.read1MbMs, 9);
    expect(tempDirs().filter((n) => !before.has(n))).toEqual([]);
    // It times fixed rounds of appends: a busy machine makes it slower, never wrong.
  }, 180_000);
});

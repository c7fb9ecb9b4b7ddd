import { closeSync, openSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPlanFile } from '../../src/domain/plans/planFile.js';
import { ScratchBuffer } from '../../src/domain/scratchBuffer.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
beforeEach(async () => {
  home = await TempHome.create();
});
afterEach(async () => {
  await home.cleanup();
});

/** Deterministic bytes that differ from file to file and across each file. */
const content = (size: number, seed: number): Buffer => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251));

function readWith(scratch: ScratchBuffer, file: string, size: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    return Buffer.from(scratch.read(fd, size));
  } finally {
    closeSync(fd);
  }
}

describe('ScratchBuffer', () => {
  it('reads files of any size in a row, growing past its first 64 KiB, each exactly', async () => {
    const scratch = new ScratchBuffer();
    const sizes = [0, 10, 70_000, 5, 300_000, 64 * 1024, 1_000_001, 3];
    for (const [i, size] of sizes.entries()) {
      const bytes = content(size, i);
      const file = await home.write(`f${i}.bin`, bytes);
      expect(readWith(scratch, file, size).equals(bytes)).toBe(true);
    }
  });

  it('answers the bytes there are when the file is shorter than the size asked for (it shrank)', async () => {
    const bytes = content(1000, 7);
    const file = await home.write('short.bin', bytes);
    expect(readWith(new ScratchBuffer(), file, 5000).equals(bytes)).toBe(true);
  });
});

describe('readPlanFile', () => {
  it('measures a plan read through a scratch buffer as one read on its own, but keeps no bytes', async () => {
    const text = '# Plan: Scratch reads\n\nSome words here, and more words.\n```\n# not a title\n```\n';
    const file = await home.plan('scratch-reads.md', text);
    const alone = await readPlanFile(file);
    const batched = await readPlanFile(file, new ScratchBuffer());
    expect(alone?.bytes?.toString()).toBe(text);
    expect(batched?.bytes).toBeNull();
    const { bytes: _alone, ...measuredAlone } = alone!;
    const { bytes: _batched, ...measuredBatched } = batched!;
    expect(measuredBatched).toEqual(measuredAlone);
    expect(measuredBatched).toMatchObject({ title: 'Scratch reads', lineCount: 6, size: Buffer.byteLength(text) });
  });
});

// Phase 1, the read floor: how fast this machine reads the home's bytes from the page cache, the measure
// the server's start is compared with.

import path from 'node:path';
import { pageAlignedBuffers } from '../src/domain/alignedBuffers.js';
import { listFiles, MB, readAll, round } from './measure.js';
import type { Results } from './results.js';

/** Every .md and .jsonl byte of `home`, read twice; the second (warm) pass counts. */
export function measureReadFloor(home: string): Results['readFloor'] {
  const files = [
    ...listFiles(path.join(home, 'plans'), (n) => n.endsWith('.md')),
    ...listFiles(path.join(home, 'projects'), (n) => n.endsWith('.md') || n.endsWith('.jsonl')),
  ];
  // The copy out of the page cache runs ~4x slower into a buffer that starts a few bytes past a page
  // boundary (where glibc puts large allocations) than into one on a boundary, on the AMD EPYC measured
  // here (see src/domain/alignedBuffers.ts): the floor is the best of a few buffer sizes and placements.
  const first = readAll(files, Buffer.allocUnsafe(8 * MB));
  const byBuffer: Record<string, number> = {};
  let floor = { ms: Infinity, bytes: 0 };
  const candidates: [string, Buffer][] = [64, 256, 1024, 8192].map((kb) => [`${kb}KB`, Buffer.allocUnsafe(kb * 1024)]);
  for (const kb of [256, 1024]) candidates.push([`${kb}KB page-aligned`, pageAlignedBuffers(1, kb * 1024)[0]!]);
  for (const [name, buffer] of candidates) {
    const pass = readAll(files, buffer);
    byBuffer[name] = round(pass.ms, 1);
    if (pass.ms < floor.ms) floor = pass;
  }
  const readFloor = {
    ms: floor.ms, bytes: floor.bytes, files: files.length, mbPerS: floor.bytes / MB / (floor.ms / 1000), firstPassMs: first.ms,
    byBufferMs: byBuffer,
  };
  console.log(`read floor: ${floor.ms.toFixed(0)} ms for ${(floor.bytes / MB).toFixed(0)} MB in ${files.length} files ` +
    `(by buffer size: ${JSON.stringify(byBuffer)})`);
  return readFloor;
}

// Whole passes over large files (a content streamed to a client, a version measured and hashed, a window of
// one read for an MCP tool) take turns process-wide, over HTTP and MCP alike: at most LARGE_READS_AT_ONCE
// run at once and the others wait, in the order they came. A waiting request holds no chunk of the file,
// so ten clients asking for a 200 MB plan hold what two passes hold, not ten (docs/security.md, rule 21).
// Nobody is refused: a pass is work a client asked for and gets, later; what bounds the wait is that each
// pass ends (a streamed answer whose client stops reading is ended, see src/http/contentAnswer.ts).

/** Passes over large files that run at once; each holds a few chunks (largeFiles.ts). */
export const LARGE_READS_AT_ONCE = 2;

import { processWide } from './processWide.js';

const turns = processWide('largeReads', () => ({ running: 0, waiting: [] as (() => void)[] }));

/**
 * Waits for a turn among the passes over large files; resolves to the function that ends it (calling it
 * again does nothing).
 */
export async function largeReadTurn(): Promise<() => void> {
  if (turns.running < LARGE_READS_AT_ONCE) turns.running++;
  else await new Promise<void>((resolve) => turns.waiting.push(resolve));
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    // The turn passes straight to the next one waiting, so `running` never drops below what runs.
    const next = turns.waiting.shift();
    if (next) next();
    else turns.running--;
  };
}

/** `work` in a turn of its own among the passes over large files; the turn ends with it, however it ends. */
export async function inLargeReadTurn<T>(work: () => Promise<T>): Promise<T> {
  const end = await largeReadTurn();
  try {
    return await work();
  } finally {
    end();
  }
}

/** Passes running and waiting now (for tests and traces). */
export function largeReadsNow(): { running: number; waiting: number } {
  return { running: turns.running, waiting: turns.waiting.length };
}

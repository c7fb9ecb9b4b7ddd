// A log is read a chunk at a time with a pause after each chunk (readLogInSteps), so that the main thread's
// share of a start-up scan can answer requests within a large log; read in steps or at once, the result is
// the same.
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFolderQueue, scanTaken } from '../../src/domain/sessions/folderQueue.js';
import { createReadSlot, readLog, readLogInSteps, type ReadResult } from '../../src/domain/sessions/logReader.js';
import type { FolderScan } from '../../src/domain/sessions/scanProtocol.js';
import { conversationLine, SID_A, SID_B, tempHome, type TempHome } from './helpers.js';

const CHUNK = 4096;
let home: TempHome;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await home.cleanup();
});

/** Runs `steps` to its end; its result and how many pauses it made. */
function drain(steps: Generator<void, ReadResult>): { result: ReadResult; pauses: number } {
  let pauses = 0;
  for (;;) {
    const step = steps.next();
    if (step.done === true) return { result: step.value, pauses };
    pauses++;
  }
}

async function writeLog(rel: string, sessionId: string): Promise<string> {
  const cwd = '/home/a/src/one';
  const lines = [
    conversationLine({ sessionId, cwd }),
    conversationLine({ sessionId, cwd, content: 'y'.repeat(70_000) }),
    conversationLine({ sessionId, cwd, slug: 'slug-one' }),
  ];
  await home.write(rel, lines.join(''));
  return path.join(home.projectsDir, rel);
}

describe('a log read in steps', () => {
  it('pauses after every chunk but the last, and reads what readLog() reads, first and after an append', async () => {
    const file = await writeLog(`-home-a-src-one/${SID_A}.jsonl`, SID_A);
    const first = drain(readLogInSteps(file, null, createReadSlot(CHUNK)));
    const whole = readLog(file, null, createReadSlot(CHUNK));
    expect(first.result).toEqual(whole);
    expect(first.result.kind).toBe('read');
    if (first.result.kind !== 'read') return;
    expect(first.pauses).toBe(Math.ceil(first.result.log.size / CHUNK) - 1);

    await appendFile(file, conversationLine({ sessionId: SID_A, cwd: '/home/a/src/one', content: 'z'.repeat(20_000), slug: 'slug-two' }));
    const previous = first.result.log;
    const appended = drain(readLogInSteps(file, previous, createReadSlot(CHUNK)));
    expect(appended.result).toEqual(readLog(file, previous, createReadSlot(CHUNK)));
    expect(appended.pauses).toBeGreaterThanOrEqual(4);
    // Unchanged: no read, no pause.
    if (appended.result.kind !== 'read') throw new Error('expected a read');
    expect(drain(readLogInSteps(file, appended.result.log, createReadSlot(CHUNK)))).toEqual({ result: { kind: 'unchanged' }, pauses: 0 });
  });

  it('lets a folder scan pause inside a large log, not only between logs', async () => {
    await writeLog(`-home-a-src-one/${SID_A}.jsonl`, SID_A);
    await writeLog(`-home-a-src-one/${SID_B}.jsonl`, SID_B);
    const scan: FolderScan = { files: [], warnings: [] };
    let pauses = 0;
    for (const _ of scanTaken(home.projectsDir, createFolderQueue(['-home-a-src-one']), new Map(), createReadSlot(CHUNK), scan, true)) pauses++;
    expect(scan.files.map(([file]) => path.basename(file)).sort()).toEqual([`${SID_A}.jsonl`, `${SID_B}.jsonl`]);
    const size = (r: ReadResult): number => (r.kind === 'read' ? r.log.size : 0);
    // One pause before each log, and one after each of its chunks but the last.
    expect(pauses).toBe(scan.files.reduce((sum, [, r]) => sum + 1 + Math.ceil(size(r) / CHUNK) - 1, 0));
    expect(pauses).toBeGreaterThan(2 * 17);
  });
});

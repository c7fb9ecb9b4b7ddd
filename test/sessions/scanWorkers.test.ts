// The worker-thread path of the session index must give exactly the answers of the main-thread path:
// same links, same folders, same incremental offsets, whatever the split between workers.
import { appendFile, rm, utimes } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PART_FILES, ScanWorkers, spawnScanWorker } from '../../src/domain/sessions/scanWorkers.js';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { eventually } from '../helpers/home.js';
import { conversationLine, indexFacts, legacyAgentLine, SID_A, SID_B, SID_C, tempHome, type TempHome } from './helpers.js';

let home: TempHome;
let workers: ScanWorkers;
const warnings: string[] = [];
beforeEach(async () => {
  home = await tempHome();
  // Every read in the workers: this thread's share of a start-up scan is tested on its own below.
  workers = new ScanWorkers({ warn: (m) => warnings.push(m) }, 2, spawnScanWorker, false);
  warnings.length = 0;
});
afterEach(async () => {
  await workers.close();
  await home.cleanup();
});

const FOLDERS = ['-home-a-src-one', '-home-a-src-two', '-home-a-src-three'];

async function writeLogs(): Promise<void> {
  const sids = [SID_A, SID_B, SID_C];
  for (let f = 0; f < FOLDERS.length; f++) {
    const cwd = `/home/a/src/${['one', 'two', 'three'][f]}`;
    const sid = sids[f]!;
    const lines = [
      conversationLine({ sessionId: sid, cwd }),
      // Tool output longer than a read chunk and than the scanner's tail window.
      conversationLine({ sessionId: sid, cwd, content: 'y'.repeat(70_000 + f * 1000) }),
      conversationLine({ sessionId: sid, cwd, slug: `slug-number-${f}` }),
    ];
    await home.write(`${FOLDERS[f]}/${sid}.jsonl`, lines.join(''));
    await home.write(`${FOLDERS[f]}/${sid}/subagents/agent-a${f}.jsonl`, conversationLine({ sessionId: sid, cwd, slug: `agent-slug-${f}` }));
  }
}

function answers(index: SessionIndex): unknown {
  return {
    folders: index.projectFolders(),
    cwds: index.knownCwds(),
    links: [0, 1, 2].flatMap((f) => [index.linkForPlan(`slug-number-${f}.md`), index.linkForPlan(`agent-slug-${f}.md`)]),
    snapshot: indexFacts(index),
  };
}

/** Refreshes `index` and an index of the same home without workers: their answers must be the same. */
async function expectSameAsMainThread(index: SessionIndex): Promise<void> {
  await index.refresh();
  const reference = new SessionIndex({ projectsDir: home.projectsDir });
  await reference.refresh();
  expect(answers(index)).toEqual(answers(reference));
}

describe('session logs read by worker threads', () => {
  it('index exactly as the main thread does, at start and after appends and removals', async () => {
    await writeLogs();
    const onMain = new SessionIndex({ projectsDir: home.projectsDir });
    const inWorkers = new SessionIndex({ projectsDir: home.projectsDir, workers, workerThresholdBytes: 0 });
    await onMain.refresh();
    await inWorkers.refresh();
    expect(workers.filesRead).toBe(6);
    expect(inWorkers.scanStats().bytesRead).toBe(onMain.scanStats().bytesRead);
    expect(answers(inWorkers)).toEqual(answers(onMain));
    expect(inWorkers.linkForPlan('slug-number-1.md')).toEqual({ sessionId: SID_B, cwd: '/home/a/src/two' });

    // Appended bytes only: both read the same few bytes again, through updateFile and through refresh.
    const file = `${home.projectsDir}/${FOLDERS[0]}/${SID_A}.jsonl`;
    await appendFile(file, conversationLine({ sessionId: SID_A, cwd: '/home/a/src/one', slug: 'later-slug' }));
    await onMain.updateFile(file);
    await inWorkers.updateFile(file);
    await rm(`${home.projectsDir}/${FOLDERS[2]}`, { recursive: true });
    await onMain.refresh();
    await inWorkers.refresh();
    expect(answers(inWorkers)).toEqual(answers(onMain));
    expect(workers.filesRead).toBe(7);
    expect(inWorkers.linkForPlan('later-slug.md')?.sessionId).toBe(SID_A);
    expect(inWorkers.linkForPlan('slug-number-2.md')).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('find the subagent logs Claude Code wrote beside the sessions before 2.1.2, as the main thread does', async () => {
    await writeLogs();
    for (let f = 0; f < FOLDERS.length; f++) {
      const cwd = `/home/a/src/${['one', 'two', 'three'][f]}`;
      await home.write(`${FOLDERS[f]}/agent-0${f}c6a1b5e.jsonl`, legacyAgentLine([SID_A, SID_B, SID_C][f]!, cwd, `legacy-agent-slug-${f}`, `0${f}c6a1b5e`));
    }
    const onMain = new SessionIndex({ projectsDir: home.projectsDir });
    const inWorkers = new SessionIndex({ projectsDir: home.projectsDir, workers, workerThresholdBytes: 0 });
    await onMain.refresh();
    await inWorkers.refresh();
    expect(workers.filesRead).toBe(9);
    expect(answers(inWorkers)).toEqual(answers(onMain));
    for (let f = 0; f < FOLDERS.length; f++) {
      const link = { sessionId: [SID_A, SID_B, SID_C][f], cwd: `/home/a/src/${['one', 'two', 'three'][f]}` };
      expect(inWorkers.linkForPlan(`legacy-agent-slug-${f}.md`)).toEqual(link);
      expect(inWorkers.linkForPlan(`legacy-agent-slug-${f}-agent-0${f}c6a1b5e.md`)).toEqual(link);
    }
    expect(warnings).toEqual([]);
  });

  it('share a start-up scan with the main thread and index the same', async () => {
    await writeLogs();
    const shared = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1);
    await expectSameAsMainThread(new SessionIndex({ projectsDir: home.projectsDir, workers: shared, workerThresholdBytes: 0 }));
    expect(shared.filesRead).toBe(6);
    expect(warnings).toEqual([]);
    await shared.close();
  });

  it('fall back to the main thread when a worker cannot run, with one warning', async () => {
    await writeLogs();
    // A real worker that dies at once stands for any worker failure (a missing file, a crash).
    const broken = new ScanWorkers({ warn: (m) => warnings.push(m) }, 2,
      () => new Worker('throw new Error("no threads here")', { eval: true }));
    await expectSameAsMainThread(new SessionIndex({ projectsDir: home.projectsDir, workers: broken, workerThresholdBytes: 0 }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/scan workers unavailable.*no threads here/);
    await broken.close();
  });
});

describe('idle workers', () => {
  /** A worker that answers a folders request with nothing found, `delayMs` after it comes. */
  const slowWorker = (delayMs: number): Worker => new Worker(
    `const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (r) => setTimeout(() => parentPort.postMessage({ id: r.id, scan: { files: [], warnings: [], dirs: [] } }), ${delayMs}));`,
    { eval: true },
  );
  const folders = [{ folder: 'absent', previous: new Map(), weight: 1 }];

  it('are not closed under a scan that outlasts their idle time, however often they were prestarted', async () => {
    // Prestarting starts an idle countdown; one left running closed the workers mid-scan and the scan never ended.
    const pool = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1, () => slowWorker(400), false, 50);
    pool.prestart();
    pool.prestart();
    await expect(pool.scanFolders(home.projectsDir, folders, 64 * 1024, () => undefined)).resolves.toEqual([]);
    expect(warnings).toEqual([]);
    await pool.close();
  }, 5000);

  it('closed while a scan waits for them fail it over to the main thread instead of leaving it waiting', async () => {
    const pool = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1, () => slowWorker(2000), false);
    const scan = pool.scanFolders(home.projectsDir, folders, 64 * 1024, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await pool.close();
    await expect(scan).resolves.toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/scan workers unavailable \(scan workers closed\)/);
  }, 5000);
});

describe('the main thread\'s share of a start-up scan', () => {
  // A stand-in worker: answers a folders request after 300 ms with nothing read, reporting in its warnings
  // how many folders had been taken by then (by the main thread: it takes none itself).
  const observer = (): Worker => new Worker(`
    const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (request) => setTimeout(() => {
      const taken = Array.from(request.queue.taken).filter((flag) => flag !== 0).length;
      parentPort.postMessage({ id: request.id, scan: { files: [], warnings: ['taken ' + taken], dirs: [] } });
    }, 300));`, { eval: true });
  const logger = { warn: (m: string): void => void warnings.push(m) };

  it('waits for the work it was told to finish first, then reads what the workers left', async () => {
    await writeLogs();
    const pool = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1, observer);
    let finish = (): void => undefined;
    pool.joinAfter(new Promise<void>((resolve) => (finish = resolve)));
    const index = new SessionIndex({ projectsDir: home.projectsDir, workers: pool, workerThresholdBytes: 0, logger });
    const refreshed = index.refresh();
    // The stand-in worker answers (with what this thread had taken by then) while the work is pending.
    expect(await eventually(() => warnings.length > 0, 30_000)).toBe(true);
    finish();
    await refreshed;
    // Nothing was taken while the plans (here: `finish`) were pending, and everything after.
    expect(warnings).toEqual(['taken 0']);
    const reference = new SessionIndex({ projectsDir: home.projectsDir });
    await reference.refresh();
    expect(answers(index)).toEqual(answers(reference));
    await pool.close();
  });

  it('takes its share at once without such work, and never waits for work that does not settle once the workers are done', async () => {
    await writeLogs();
    const eager = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1, observer);
    await new SessionIndex({ projectsDir: home.projectsDir, workers: eager, workerThresholdBytes: 0, logger }).refresh();
    expect(warnings).toEqual([`taken ${FOLDERS.length}`]);
    await eager.close();

    const stuck = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1);
    stuck.joinAfter(new Promise(() => undefined));
    await expectSameAsMainThread(new SessionIndex({ projectsDir: home.projectsDir, workers: stuck, workerThresholdBytes: 0 }));
    await stuck.close();
  });
});

describe('a start-up scan of many logs', () => {
  /** More logs than a worker reads before posting a part, in several folders. */
  async function writeManyLogs(perFolder = PART_FILES): Promise<number> {
    for (let f = 0; f < 3; f++) {
      for (let k = 0; k < perFolder; k++) {
        const sid = `${String(f).padStart(8, '0')}-0000-4000-8000-${String(k).padStart(12, '0')}`;
        await home.write(`${FOLDERS[f]}/${sid}.jsonl`, conversationLine({ sessionId: sid, cwd: `/home/a/src/p${f}`, slug: `plan-${f}-${k}` }));
      }
    }
    return 3 * perFolder;
  }

  it('is taken in as the worker posts its parts, and indexes the same as the main thread', async () => {
    const total = await writeManyLogs();
    let parts = 0;
    const counting = (): Worker => {
      const worker = spawnScanWorker();
      worker.on('message', (message: object) => void (('part' in message) && parts++));
      return worker;
    };
    const pool = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1, counting, false);
    await expectSameAsMainThread(new SessionIndex({ projectsDir: home.projectsDir, workers: pool, workerThresholdBytes: 0 }));
    // Every PART_FILES files but the last ones, which come with the final response.
    expect(parts).toBe(Math.ceil(total / PART_FILES) - 1);
    expect(pool.filesRead).toBe(total);
    await pool.close();
  });

  it('folds a first scan in as its parts come, answering as a rebuild does where files share slugs and sessions', async () => {
    // Every slug and session in several files of several folders, with mtimes that make a different file
    // win each key than the order the files are read in: a part taken in later must not win by arriving later.
    const sids = [SID_A, SID_B, SID_C];
    let n = 0;
    for (let f = 0; f < FOLDERS.length; f++) {
      for (let k = 0; k < PART_FILES; k++) {
        const sid = sids[(f + k) % 3]!;
        const file = await home.write(
          `${FOLDERS[f]}/${String(k).padStart(8, '0')}-0000-4000-8000-00000000000${f}.jsonl`,
          conversationLine({ sessionId: sid, cwd: `/home/a/src/c${(k * 7 + f) % 5}`, slug: `shared-${k % 4}` }),
        );
        const seconds = 1_000_000 + ((n++ * 7919) % 1000);
        await utimes(file, seconds, seconds);
      }
    }
    const pool = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1, spawnScanWorker, true);
    const index = new SessionIndex({ projectsDir: home.projectsDir, workers: pool, workerThresholdBytes: 0 });
    await index.refresh();
    const reference = new SessionIndex({ projectsDir: home.projectsDir });
    await reference.refresh();
    const all = (i: SessionIndex): unknown => ({
      links: [0, 1, 2, 3].map((k) => i.linkForPlan(`shared-${k}.md`)),
      sessions: sids.map((sid) => i.cwdForSession(sid)),
      folders: i.projectFolders(),
      cwds: i.knownCwds(),
    });
    expect(all(index)).toEqual(all(reference));
    expect(warnings).toEqual([]);
    await pool.close();
  });

  it('indexes the same when the worker dies after posting a part (this thread then reads everything)', async () => {
    await writeManyLogs(PART_FILES * 8);
    // From its first part on the worker is as good as dead: what it posts after never arrives. Only asking
    // for its termination was a race: under load it finished first, and then nothing failed.
    const dying = (): Worker => {
      const worker = spawnScanWorker();
      const emit = worker.emit.bind(worker);
      let parted = false;
      worker.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
        if (event !== 'message') return emit(event, ...args);
        if (parted) return false;
        parted = 'part' in (args[0] as object);
        if (parted) void worker.terminate();
        return emit(event, ...args);
      }) as Worker['emit'];
      return worker;
    };
    const pool = new ScanWorkers({ warn: (m) => warnings.push(m) }, 1, dying, false);
    const index = new SessionIndex({ projectsDir: home.projectsDir, workers: pool, workerThresholdBytes: 0 });
    await expectSameAsMainThread(index);
    expect(index.linkForPlan('plan-2-5.md')?.cwd).toBe('/home/a/src/p2');
    expect(warnings, JSON.stringify(warnings)).toHaveLength(1);
    expect(warnings[0]).toMatch(/scan workers unavailable/);
    await pool.close();
  });
});

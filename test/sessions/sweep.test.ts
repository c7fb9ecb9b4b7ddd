// A restart of a large home learns what moved from the start-up sweep (one worker's walk and stats)
// instead of stat'ing on the main thread. Whatever changed while the viewer was down, the answers must
// be exactly those of a fresh scan, and only the files that moved may be read.
import { appendFile, lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKER_MIN_FOLDERS } from '../../src/domain/sessions/indexHelpers.js';
import { discoverLogs } from '../../src/domain/sessions/logFiles.js';
import { ScanWorkers } from '../../src/domain/sessions/scanWorkers.js';
import { sweepSync } from '../../src/domain/sessions/sweep.js';
import { Viewer } from '../../src/viewer.js';
import { conversationLine, encodeCwd, TempHome } from '../helpers/home.js';

let home: TempHome;
let cache: string;
let warnings: string[];
const FOLDERS = WORKER_MIN_FOLDERS + 1;
const sid = (i: number): string => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
const cwd = (i: number): string => `/work/project-${i}`;

beforeEach(async () => {
  home = await TempHome.create();
  cache = path.join(home.root, 'cache');
  warnings = [];
  for (let i = 0; i < FOLDERS; i++) {
    await home.session(cwd(i), sid(i), [null, `plan-number-${i}`]);
    await home.plan(`plan-number-${i}.md`, `# Plan ${i}\n\nsome words\n`);
  }
  await home.plan('orphan-plan.md', '# Nobody wrote me yet\n');
});

afterEach(async () => {
  await home.cleanup();
});

async function open(cacheDir: string | null, phases: string[] = []): Promise<Viewer> {
  return Viewer.open({
    claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir,
    trace: (phase) => phases.push(phase),
  });
}

function answers(viewer: Viewer): unknown {
  return { plans: viewer.plans.list(), folders: viewer.sessions.projectFolders(), cwds: viewer.sessions.knownCwds() };
}

const logOf = (i: number): string => path.join(home.claude, 'projects', encodeCwd(cwd(i)), `${sid(i)}.jsonl`);

describe('the start-up sweep', () => {
  it('restarts with exactly the answers of a fresh scan, reading only what moved', async () => {
    await (await open(cache)).close();

    // Everything that can happen while the viewer is down.
    const appended = `${conversationLine(cwd(0), sid(0), 'orphan-plan')}\n`;
    await appendFile(logOf(0), appended);
    await rm(logOf(1));
    await home.session('/work/brand-new', sid(90), ['plan-number-2']);
    await home.plan('plan-number-3.md', '# Plan three, rewritten\n\nwith more words than before\n', new Date('2026-02-01T00:00:00Z'));
    await rm(path.join(home.claude, 'plans', 'plan-number-4.md'));
    await home.plan('added-plan.md', '# Added while down\n');

    const phases: string[] = [];
    const restarted = await open(cache, phases);
    const fresh = await open(null);
    expect(phases).toContain('swept');
    expect(answers(restarted)).toEqual(answers(fresh));
    const byName = new Map(restarted.plans.list().map((p) => [p.filename, p]));
    expect(byName.get('orphan-plan.md')).toMatchObject({ sessionId: sid(0), project: 'project-0' });
    expect(byName.get('plan-number-1.md')).toMatchObject({ sessionId: null });
    expect(byName.get('plan-number-3.md')).toMatchObject({ title: 'Plan three, rewritten', wordCount: 9 });
    expect(byName.has('plan-number-4.md')).toBe(false);
    expect(byName.has('added-plan.md')).toBe(true);
    // The appended line (and the newline before it, which shows the file was not rewritten) and the
    // new log, nothing else.
    const newLog = path.join(home.claude, 'projects', encodeCwd('/work/brand-new'), `${sid(90)}.jsonl`);
    expect(restarted.sessions.scanStats().bytesRead).toBe(1 + Buffer.byteLength(appended) + (await lstat(newLog)).size);
    expect(warnings).toEqual([]);
    await restarted.close();
    await fresh.close();
  });

  it('is not taken on a first start: there is nothing to compare with', async () => {
    const phases: string[] = [];
    await (await open(cache, phases)).close();
    expect(phases).not.toContain('swept');
  });

  it('lists what a walk finds, with each file stat', async () => {
    const projectsDir = path.join(home.claude, 'projects');
    const plansDir = path.join(home.claude, 'plans');
    const sweep = sweepSync(projectsDir, [plansDir, path.join(home.root, 'no-such-folder')]);
    const walked = await discoverLogs(projectsDir, [], () => undefined);
    expect(sweep.logs.map(([file]) => file).sort()).toEqual([...walked.files].sort());
    expect(sweep.folders.sort()).toEqual([...walked.folders].sort());
    const st = await lstat(logOf(0));
    expect(sweep.logs.find(([file]) => file === logOf(0))?.[1]).toEqual({ regular: true, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
    expect(sweep.plans[0]![1].map(([file]) => path.basename(file)).sort()).toContain('orphan-plan.md');
    expect(sweep.plans[0]![1]).toHaveLength(FOLDERS + 1);
    expect(sweep.plans[1]).toEqual([path.join(home.root, 'no-such-folder'), []]);
  });

  it('is taken on the main thread, with the same result, when workers cannot run', async () => {
    const projectsDir = path.join(home.claude, 'projects');
    const broken = new ScanWorkers({ warn: (m) => warnings.push(m) }, 2,
      () => new Worker('throw new Error("no threads here")', { eval: true }));
    const sweep = await broken.sweep(projectsDir, [path.join(home.claude, 'plans')]);
    expect(sweep).toEqual(sweepSync(projectsDir, [path.join(home.claude, 'plans')]));
    expect(warnings).toHaveLength(1);
    await broken.close();
  });
});

// A restart of a large home (enough project folders for a first scan in worker threads) restores the
// persisted index and lstats the logs on the main thread. Whatever changed while the viewer was down,
// the answers must be exactly those of a fresh scan, and only the bytes that moved may be read.
import { appendFile, lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKER_MIN_FOLDERS } from '../../src/domain/sessions/indexHelpers.js';
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

async function open(cacheDir: string | null): Promise<Viewer> {
  return Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir });
}

function answers(viewer: Viewer): unknown {
  return { plans: viewer.plans.list(), folders: viewer.sessions.projectFolders(), cwds: viewer.sessions.knownCwds() };
}

const logOf = (i: number): string => path.join(home.claude, 'projects', encodeCwd(cwd(i)), `${sid(i)}.jsonl`);

describe('a restart from the persisted caches', () => {
  it('gives exactly the answers of a fresh scan, reading only what moved', async () => {
    await (await open(cache)).close();

    // Everything that can happen while the viewer is down.
    const appended = `${conversationLine(cwd(0), sid(0), 'orphan-plan')}\n`;
    await appendFile(logOf(0), appended);
    await rm(logOf(1));
    await home.session('/work/brand-new', sid(90), ['plan-number-2']);
    await home.plan('plan-number-3.md', '# Plan three, rewritten\n\nwith more words than before\n', new Date('2026-02-01T00:00:00Z'));
    await rm(path.join(home.claude, 'plans', 'plan-number-4.md'));
    await home.plan('added-plan.md', '# Added while down\n');

    const restarted = await open(cache);
    const fresh = await open(null);
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
});

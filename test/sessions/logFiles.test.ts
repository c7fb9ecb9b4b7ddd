import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { conversationLine, SID_A, SID_B, SID_C, tempHome, type TempHome } from './helpers.js';

const CWD = '/home/alice/src/webapp';
const FOLDER = '-home-alice-src-webapp';

let home: TempHome;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await home.cleanup();
});

const line = (slug: string): string => conversationLine({ sessionId: SID_A, cwd: CWD, slug });

describe('SessionIndex: which files are logs', () => {
  it('isSessionLog accepts session and subagent logs only', () => {
    const index = new SessionIndex({ projectsDir: home.projectsDir });
    const p = (rel: string): string => path.join(home.projectsDir, rel);
    const yes = [
      `${FOLDER}/${SID_A}.jsonl`,
      `${FOLDER}/${SID_A}/subagents/agent-a7b1cd4effbcbdebe.jsonl`,
      `${FOLDER}/${SID_A}/subagents/workflows/run-1/agent-a1.jsonl`,
      // Subagent logs of Claude Code before 2.1.2, beside the sessions.
      `${FOLDER}/agent-6c6a1b5e.jsonl`,
      `${FOLDER}/agent-a7b1cd4effbcbdebe.jsonl`,
    ];
    const no = [
      `${SID_A}.jsonl`,
      `${FOLDER}/${SID_A.toUpperCase()}.jsonl`,
      `${FOLDER}/notes.jsonl`,
      `${FOLDER}/${SID_A}.jsonl.superseded-1700000000000`,
      `${FOLDER}/${SID_A}.orphaned-1.jsonl`,
      `${FOLDER}/${SID_A}.jsonl.tmp.123.abcdef012345`,
      `${FOLDER}/${SID_A}.meta.json`,
      `${FOLDER}/memory/${SID_A}.jsonl`,
      `${FOLDER}/${SID_A}/tool-results/${SID_B}.jsonl`,
      `${FOLDER}/${SID_A}/subagents/memory/agent-1.jsonl`,
      `${FOLDER}/${SID_A}/subagents/tool-results/agent-1.jsonl`,
      `${FOLDER}/${SID_A}/subagents/.hidden/agent-1.jsonl`,
      `${FOLDER}/${SID_A}/subagents/.agent-1.jsonl`,
      `${FOLDER}/${SID_A}/subagents/agent-1.tmp.1.jsonl`,
      `${FOLDER}/${SID_A}/subagents/agent-1.orphaned-2.jsonl`,
      `${FOLDER}/${SID_A}/subagents/agent-1.meta.json`,
      `${FOLDER}/not-a-uuid/subagents/agent-1.jsonl`,
      `.hidden/${SID_A}.jsonl`,
      `${FOLDER}/${SID_A}/subagents/a/b/c/d/e/f/g/agent-1.jsonl`,
      `${FOLDER}/agent-.jsonl`,
      `${FOLDER}/agent-1.tmp.1.jsonl`,
      `${FOLDER}/agent-1.jsonl.tmp.123.abcdef012345`,
      `${FOLDER}/agent-1.orphaned-2.jsonl`,
      `${FOLDER}/agent-1.jsonl.superseded-1700000000000`,
      `${FOLDER}/agent-1.meta.json`,
      `${FOLDER}/.agent-1.jsonl`,
      `${FOLDER}/agent-1.JSONL`,
      `${FOLDER}/memory/agent-1.jsonl`,
      `${FOLDER}/tool-results/agent-1.jsonl`,
      `agent-1.jsonl`,
    ];
    for (const rel of yes) expect(index.isSessionLog(p(rel)), rel).toBe(true);
    for (const rel of no) expect(index.isSessionLog(p(rel)), rel).toBe(false);
    expect(index.isSessionLog(path.join(home.root, `${SID_A}.jsonl`))).toBe(false);
    expect(index.isSessionLog(home.projectsDir)).toBe(false);
  });

  it('reads no file that is not a session log, and follows no symlink', async () => {
    await home.write(`${FOLDER}/${SID_A}.jsonl`, line('real-slug'));
    const decoys = [
      `${FOLDER}/memory/${SID_B}.jsonl`,
      `${FOLDER}/${SID_A}/tool-results/${SID_B}.jsonl`,
      `${FOLDER}/${SID_B}.jsonl.superseded-1700000000000`,
      `${FOLDER}/${SID_B}.orphaned-1.jsonl`,
      `${FOLDER}/${SID_B}.jsonl.tmp.1.abcdef012345`,
      `${FOLDER}/${SID_B}.meta.json`,
      `${FOLDER}/.${SID_B}.jsonl`,
      `.dotfolder/${SID_B}.jsonl`,
      `${FOLDER}/notes.jsonl`,
    ];
    for (const rel of decoys) await home.write(rel, line('decoy-slug'));
    // A symlinked log and a symlinked directory (which loops back up) are not entered.
    const outside = path.join(home.root, 'outside.jsonl');
    await writeFile(outside, line('symlinked-slug'));
    await symlink(outside, path.join(home.projectsDir, FOLDER, `${SID_C}.jsonl`));
    const subagents = path.join(home.projectsDir, FOLDER, SID_A, 'subagents');
    await mkdir(subagents, { recursive: true });
    await symlink(path.join(home.projectsDir, FOLDER), path.join(subagents, 'loop'));
    await symlink(path.join(home.projectsDir, FOLDER), path.join(home.projectsDir, 'linked-folder'));

    const index = new SessionIndex({ projectsDir: home.projectsDir });
    await index.refresh();
    expect(index.linkForPlan('real-slug.md')?.sessionId).toBe(SID_A);
    expect(index.linkForPlan('decoy-slug.md')).toBeNull();
    expect(index.linkForPlan('symlinked-slug.md')).toBeNull();
    expect(index.scanStats().trackedFiles).toBe(1);
    // Neither the dot folder nor the symlinked folder is a project folder.
    expect(index.projectFolders().map((f) => f.key)).toEqual([FOLDER]);
    // A watcher reporting the symlinked log directly does not get it read either.
    expect(await index.updateFile(path.join(home.projectsDir, FOLDER, `${SID_C}.jsonl`))).toBe(false);
    expect(index.linkForPlan('symlinked-slug.md')).toBeNull();
  });

  it.skipIf(process.platform === 'win32')('never opens a FIFO named like a log (a read would block forever)', async () => {
    await home.write(`${FOLDER}/${SID_A}.jsonl`, line('beside-fifo'));
    const fifo = path.join(home.projectsDir, FOLDER, `${SID_B}.jsonl`);
    const nestedFifo = path.join(home.projectsDir, FOLDER, SID_A, 'subagents', 'agent-f1.jsonl');
    await mkdir(path.dirname(nestedFifo), { recursive: true });
    execFileSync('mkfifo', [fifo, nestedFifo]);
    const index = new SessionIndex({ projectsDir: home.projectsDir });
    // If either FIFO were opened for a blocking read, these would never settle and the test would time out.
    expect(await index.refresh()).toBe(true);
    expect(await index.updateFile(fifo)).toBe(false);
    expect(await index.updateFile(nestedFifo)).toBe(false);
    expect(index.scanStats().trackedFiles).toBe(1);
    expect(index.linkForPlan('beside-fifo.md')?.sessionId).toBe(SID_A);
  });
});

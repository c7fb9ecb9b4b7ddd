// The transcripts' plan and session facts saved with the session index and restored (as persisted.ts does
// between runs): the restored facts answer as the ones read from the logs, are parsed only when asked
// for, and what is not what this build saves is set aside and the log read again.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryIndex } from '../../src/domain/history/historyIndex.js';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { restOk, restPending } from '../../src/domain/transcripts/savedFacts.js';
import { TempHome, uuid } from '../helpers/home.js';
import { edit, meta, prompt, write } from './transcript.js';

let home: TempHome;
let projectsDir: string;
let plansDir: string;

beforeAll(async () => {
  home = await TempHome.create();
  projectsDir = path.join(home.claude, 'projects');
  plansDir = path.join(home.claude, 'plans');
  for (let i = 1; i <= 3; i++) {
    const sessionId = uuid(i);
    const plan = path.join(plansDir, `plan-${i}.md`);
    const ctx = (minute: number) => ({ cwd: '/work/app', sessionId, slug: `plan-${i}`, at: `2026-10-0${i}T10:0${minute}:00.000Z` });
    const log = path.join(projectsDir, '-work-app', `${sessionId}.jsonl`);
    await mkdir(path.dirname(log), { recursive: true });
    await writeFile(log, [prompt(ctx(0), `Plan number ${i}`), write(ctx(1), plan, `# Plan ${i}\n\nStep one.\n`), edit(ctx(2), plan, 'one', 'two'), meta.customTitle(sessionId, `Session ${i}`)].join('\n') + '\n');
  }
});

afterAll(async () => {
  await home.cleanup();
});

async function readIndex(): Promise<SessionIndex> {
  const index = new SessionIndex({ projectsDir });
  await index.refresh();
  return index;
}

function restore(saved: unknown): SessionIndex {
  const index = SessionIndex.fromJSON(JSON.parse(JSON.stringify(saved)), { projectsDir });
  if (index === null) throw new Error('not restored');
  return index;
}

describe('the transcripts\' facts saved with the session index', () => {
  it('answer after a restore as they did after reading the logs, parsed only once asked for', async () => {
    const read = new HistoryIndex(await readIndex(), plansDir);
    const sessions = restore((await readIndex()).toJSON());
    expect([...sessions.logs()].every(([, facts]) => restPending(facts))).toBe(true);
    const restored = new HistoryIndex(sessions, plansDir);
    expect([...restored.writtenFiles()]).toEqual([...read.writtenFiles()]);
    expect([...restored.allSessions()]).toEqual([...read.allSessions()]);
    expect(restored.writesTo(path.join(plansDir, 'plan-2.md')).map((w) => w.tool)).toEqual(['Write', 'Edit']);
    expect(restored.session(uuid(3))?.facts.customTitle).toBe('Session 3');
    // Only the parts asked for were parsed: the work after plans, which nothing here reads, is not.
    expect([...sessions.logs()].some(([, facts]) => restPending(facts, ['plans', 'cards']))).toBe(false);
    expect([...sessions.logs()].every(([, facts]) => restPending(facts, ['work']))).toBe(true);
    expect([...sessions.logs()].every(([, facts]) => restOk(facts) && !restPending(facts))).toBe(true);
  });

  it('know the log line each session title and prompt came from, through appends and a restore', async () => {
    const sessionId = uuid(9);
    const ctx = { cwd: '/work/app', sessionId, slug: 'plan-9', at: '2026-10-09T10:00:00.000Z' };
    const log = path.join(projectsDir, '-work-app', `${sessionId}.jsonl`);
    await writeFile(log, [meta.aiTitle(sessionId, 'Early title'), prompt(ctx, 'First words'), prompt(ctx, 'Later words')].join('\n') + '\n');
    const sessions = await readIndex();
    const index = new HistoryIndex(sessions, plansDir);
    expect(index.lineOf(sessionId, [log], 'First words')).toEqual({ log, line: 2 });
    expect(index.lineOf(sessionId, [log], 'Early title')).toEqual({ log, line: 1 });
    // Read again from where the first read stopped: the numbers go on from the lines before.
    await appendFile(log, [prompt(ctx, 'More'), meta.customTitle(sessionId, 'Named at last'), meta.lastPrompt(sessionId, 'Later words')].join('\n') + '\n');
    await sessions.updateFile(log);
    expect(index.lineOf(sessionId, [log], 'Named at last')).toEqual({ log, line: 5 });
    expect(index.lineOf(sessionId, [log], 'Later words')).toEqual({ log, line: 6 });
    expect(index.lineOf(sessionId, [log], 'More')).toBeNull(); // a prompt, but not the session's last any more
    expect(index.lineOf(uuid(8), [log], 'First words')).toBeNull();
    const restoredSessions = restore(sessions.toJSON());
    await appendFile(log, meta.customTitle(sessionId, 'Renamed') + '\n');
    await restoredSessions.updateFile(log);
    const restored = new HistoryIndex(restoredSessions, plansDir);
    expect(restored.lineOf(sessionId, [log], 'Renamed')).toEqual({ log, line: 7 });
    expect(restored.lineOf(sessionId, [log], 'First words')).toEqual({ log, line: 2 });
  });

  it('set aside saved facts of another shape, and the log is read again', async () => {
    const sessions = await readIndex();
    const saved = sessions.toJSON() as { files: unknown[] };
    const title = new HistoryIndex(sessions, plansDir).session(uuid(2))?.facts.customTitle;
    expect(title).toBe('Session 2');
    for (const bad of ['{"w":[["Write"]],"x":[],"m":[],"s":[],"n":[0,0]}', 'not json', '{}', `{"w":[],"x":[],"m":[],"s":[["${uuid(2)}",[],[]]],"n":[0,0]}`]) {
      const files = saved.files.map((value) => (typeof value === 'string' && value.startsWith('{"w"') ? bad : value));
      const restored = restore({ ...saved, files });
      await restored.completeRestore();
      expect(new HistoryIndex(restored, plansDir).session(uuid(2))?.facts.customTitle, bad).toBe('Session 2');
      expect(new HistoryIndex(restored, plansDir).writesTo(path.join(plansDir, 'plan-1.md')).length, bad).toBe(2);
    }
  });
});

// The history index saved and restored (as persisted.ts does between runs): the restored index answers as
// the one that read the logs, and anything not written by savedLines() of this version is refused whole.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryIndex } from '../../src/domain/history/historyIndex.js';
import { TempHome, uuid } from '../helpers/home.js';
import { edit, meta, prompt, write } from './transcript.js';

let home: TempHome;
const logs: string[] = [];

beforeAll(async () => {
  home = await TempHome.create();
  for (let i = 1; i <= 3; i++) {
    const sessionId = uuid(i);
    const plan = path.join(home.claude, 'plans', `plan-${i}.md`);
    const ctx = (minute: number) => ({ cwd: '/work/app', sessionId, slug: `plan-${i}`, at: `2026-10-0${i}T10:0${minute}:00.000Z` });
    const log = path.join(home.claude, 'projects', '-work-app', `${sessionId}.jsonl`);
    await mkdir(path.dirname(log), { recursive: true });
    await writeFile(log, [prompt(ctx(0), `Plan number ${i}`), write(ctx(1), plan, `# Plan ${i}\n\nStep one.\n`), edit(ctx(2), plan, 'one', 'two'), meta.customTitle(sessionId, `Session ${i}`)].join('\n') + '\n');
    logs.push(log);
  }
});

afterAll(async () => {
  await home.cleanup();
});

describe('HistoryIndex save and restore', () => {
  it('answers after a restore as it did after reading the logs', async () => {
    const read = new HistoryIndex(() => logs);
    await read.refresh();
    const saved = await read.savedLines();
    expect(saved.every((line) => !line.includes('\n'))).toBe(true);
    const restored = new HistoryIndex(() => logs);
    expect(await restored.restore(saved)).toBe(true);
    expect(restored.version).toBeGreaterThan(0);
    expect([...restored.writtenFiles()]).toEqual([...read.writtenFiles()]);
    expect([...restored.allSessions()]).toEqual([...read.allSessions()]);
    expect(restored.writesTo(path.join(home.claude, 'plans', 'plan-2.md')).map((w) => w.tool)).toEqual(['Write', 'Edit']);
    expect(restored.session(uuid(3))?.facts.customTitle).toBe('Session 3');
  });

  it('knows the log line each session title and prompt came from, through appends and a restore', async () => {
    const sessionId = uuid(9);
    const ctx = { cwd: '/work/app', sessionId, slug: 'plan-9', at: '2026-10-09T10:00:00.000Z' };
    const log = path.join(home.claude, 'projects', '-work-app', `${sessionId}.jsonl`);
    await writeFile(log, [meta.aiTitle(sessionId, 'Early title'), prompt(ctx, 'First words'), prompt(ctx, 'Later words')].join('\n') + '\n');
    const index = new HistoryIndex(() => [log]);
    await index.refresh();
    expect(index.lineOf(sessionId, [log], 'First words')).toEqual({ log, line: 2 });
    expect(index.lineOf(sessionId, [log], 'Early title')).toEqual({ log, line: 1 });
    // Read again from where the first read stopped: the numbers go on from the lines before.
    await appendFile(log, [prompt(ctx, 'More'), meta.customTitle(sessionId, 'Named at last'), meta.lastPrompt(sessionId, 'Later words')].join('\n') + '\n');
    await index.update(log);
    expect(index.lineOf(sessionId, [log], 'Named at last')).toEqual({ log, line: 5 });
    expect(index.lineOf(sessionId, [log], 'Later words')).toEqual({ log, line: 6 });
    expect(index.lineOf(sessionId, [log], 'More')).toBeNull(); // not a text the session keeps
    expect(index.lineOf(uuid(8), [log], 'First words')).toBeNull();
    const restored = new HistoryIndex(() => [log]);
    expect(await restored.restore(await index.savedLines())).toBe(true);
    await appendFile(log, meta.customTitle(sessionId, 'Renamed') + '\n');
    await restored.update(log);
    expect(restored.lineOf(sessionId, [log], 'Renamed')).toEqual({ log, line: 7 });
  });

  it('refuses another version, a torn entry or another shape, and keeps what it had', async () => {
    const read = new HistoryIndex(() => logs);
    await read.refresh();
    const [header, ...good] = await read.savedLines();
    const target = new HistoryIndex(() => logs);
    const saved = JSON.parse(header!) as { format: string; version: number };
    const other = JSON.stringify({ ...saved, version: saved.version + 1 });
    for (const bad of [
      [other, ...good],
      [header!, ...good.slice(1), good[0]!.slice(0, 20)],
      [header!, JSON.stringify(['/x.jsonl', { size: 'big' }])],
      [header!, ...good.map((text) => JSON.stringify(text))],
      good,
      [],
    ]) {
      expect(await target.restore(bad)).toBe(false);
      expect(target.version).toBe(0);
      expect(target.writtenFiles().size).toBe(0);
    }
  });
});

// The history.jsonl reader: facts per session from real files in a temp dir, bad and torn lines skipped and
// counted, secrets masked, appended lines read from where the last pass stopped, a replaced file read again.
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PromptHistory, PROMPT_CHARS } from '../../src/domain/promptHistory/promptHistory.js';

let dir: string;
let file: string;
const line = (o: Record<string, unknown>): string => JSON.stringify({ pastedContents: {}, ...o }) + '\n';
const T0 = Date.parse('2026-11-01T10:00:00Z');

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pmv-prompts-'));
  file = path.join(dir, 'history.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('PromptHistory', () => {
  it('gives each session its first and last prompt, count, times and project; lines without a session by project', async () => {
    await writeFile(file, [
      line({ display: 'old style prompt', timestamp: T0 - 5000, project: '/repos/legacy' }),
      line({ display: 'fix the login bug', timestamp: T0, project: '/repos/webapp', sessionId: 's-1' }),
      '{"display":"torn in the mid\n',
      'not json at all\n',
      line({ display: 'use token sk-ant-api03-' + 'a'.repeat(40) + ' please', timestamp: new Date(T0 + 60_000).toISOString(), project: '/repos/webapp', sessionId: 's-1' }),
      line({ display: 'x'.repeat(5000), timestamp: T0 + 1000, project: '/repos/api', sessionId: 's-2' }),
      line({ display: 'another old one', timestamp: T0 - 1000, project: '/repos/legacy' }),
    ].join(''));
    const h = new PromptHistory(file);
    await h.refresh();
    expect(h.badLines).toBe(2);
    const s1 = h.session('s-1')!;
    expect(s1).toMatchObject({
      sessionId: 's-1', project: '/repos/webapp', firstPrompt: 'fix the login bug', promptCount: 2,
      firstAt: new Date(T0).toISOString(), lastAt: new Date(T0 + 60_000).toISOString(),
    });
    expect(s1.lastPrompt).toMatch(/^use token •+ please$/);
    expect(h.session('s-2')!.firstPrompt).toHaveLength(PROMPT_CHARS + 1);
    expect(h.projects()).toEqual([{ project: '/repos/legacy', promptCount: 2, firstAt: new Date(T0 - 5000).toISOString(), lastAt: new Date(T0 - 1000).toISOString() }]);
    const prompts = await h.prompts('s-1');
    expect(prompts!.map((p) => p.display)).toEqual(['fix the login bug', s1.lastPrompt]);
    expect(await h.prompts('nope')).toBeNull();
  });

  it('reads only what was appended, waits for a line\'s newline, and reads a replaced file again', async () => {
    await writeFile(file, line({ display: 'one', timestamp: T0, project: '/p', sessionId: 's' }) + '{"display":"two","timestamp":');
    const h = new PromptHistory(file);
    await h.refresh();
    expect(h.session('s')!.promptCount).toBe(1);
    expect(h.badLines).toBe(0);
    await appendFile(file, `${T0 + 5},"project":"/p","sessionId":"s"}\n`);
    await h.refresh();
    expect(h.session('s')).toMatchObject({ promptCount: 2, lastPrompt: 'two' });
    expect(h.badLines).toBe(0);
    await writeFile(file, line({ display: 'fresh', timestamp: T0, project: '/q', sessionId: 't' }));
    await h.refresh();
    expect(h.session('s')).toBeNull();
    expect(h.session('t')!.firstPrompt).toBe('fresh');
  });

  it('answers nothing, and does not throw, when the file is missing, a FIFO or a directory', async () => {
    const h = new PromptHistory(path.join(dir, 'absent.jsonl'));
    await h.refresh();
    expect(h.sessions()).toEqual([]);
    execFileSync('mkfifo', [file]);
    const fifo = new PromptHistory(file);
    await fifo.refresh(); // a FIFO without a writer: an open() that waited would never return
    expect(fifo.sessions()).toEqual([]);
    const folder = path.join(dir, 'folder.jsonl');
    await mkdir(folder);
    const inFolder = new PromptHistory(folder);
    await inFolder.refresh();
    expect(await inFolder.prompts('s')).toBeNull();
  });
});

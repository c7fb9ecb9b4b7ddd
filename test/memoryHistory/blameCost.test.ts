// Blame of a 200-line MEMORY.md written by one Write and edited line by line over three sessions: each
// line's author as computed by hand, and a blame asked again answered from what the first one built, with
// no log read (the logs are emptied in between, unseen without a watcher, and the answer is the same).
import { mkdir, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlameLine } from '../../src/contract/memoryHistory.js';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { edit, prompt, write, type LineContext } from '../history/transcript.js';

let home: TempHome;
let server: Running;
let id: string;
const logs: string[] = [];
const SESSIONS = [uuid(0x201), uuid(0x202), uuid(0x203)];
const at = (hour: number, minute: number): string => new Date(Date.UTC(2026, 10, 19, hour, minute)).toISOString();
const line = (i: number): string => `- [Topic ${i}](topic-${i}.md) — hook ${i}`;

beforeAll(async () => {
  home = await TempHome.create('pmv-blamecost-');
  const repo = await home.repo('webapp');
  const key = encodeCwd(repo);
  const memDir = path.join(home.claude, 'projects', key, 'memory');
  await mkdir(memDir, { recursive: true });
  const file = path.join(memDir, 'MEMORY.md');
  let text = `${Array.from({ length: 200 }, (_, i) => line(i + 1)).join('\n')}\n`;
  for (const [s, sessionId] of SESSIONS.entries()) {
    const ctx = (minute: number): LineContext => ({ cwd: repo, sessionId, at: at(9 + s, minute) });
    const lines = [prompt(ctx(0), `Pass ${s}`)];
    if (s === 0) lines.push(write(ctx(1), file, text));
    // Session s rewrites lines s+1, s+4, s+7, … (1-based): 67 edits or so each.
    for (let i = s + 1, minute = 2; i <= 200; i += 3, minute++) {
      if (s === 0) continue;
      const next = `${line(i)} (pass ${s})`;
      lines.push(edit(ctx(minute % 60), file, `${line(i)}\n`, `${next}\n`));
      text = text.replace(`${line(i)}\n`, `${next}\n`);
    }
    const log = path.join(home.claude, 'projects', key, `${sessionId}.jsonl`);
    await writeFile(log, lines.join('\n') + '\n');
    logs.push(log);
  }
  await writeFile(file, text);
  await utimes(file, new Date(at(12, 0)), new Date(at(12, 0)));
  id = `${key}/MEMORY.md`;
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, cacheDir: path.join(home.root, 'cache') });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('blame of a 200-line MEMORY.md', () => {
  it('names each line\'s last writer, and is answered again without reading a log', async () => {
    const first = await server.json<{ lines: BlameLine[] }>(`/api/memory/blame?id=${encodeURIComponent(id)}`);
    expect(first.lines).toHaveLength(200);
    const expected = Array.from({ length: 200 }, (_, i) => {
      const n = i + 1;
      const pass = (n - 1) % 3; // 0: only the Write; 1, 2: that session's edit
      return { text: pass === 0 ? line(n) : `${line(n)} (pass ${pass})`, sessionId: SESSIONS[pass], prompt: `Pass ${pass}`, source: pass === 0 ? 'write' : 'edit' };
    });
    expect(first.lines.map((l) => ({ text: l.text, sessionId: l.sessionId, prompt: l.prompt, source: l.source }))).toEqual(expected);
    // The logs emptied: a blame that read them again would find no write.
    for (const log of logs) await truncate(log, 0);
    const again = await server.json<{ lines: BlameLine[] }>(`/api/memory/blame?id=${encodeURIComponent(id)}`);
    expect(again).toEqual(first);
  });
});

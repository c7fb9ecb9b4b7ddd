// What a session saw when its project's memory is a folder an autoMemoryDirectory setting names: the answer
// takes that folder (not the project's default one, which Claude Code no longer reads), a memory of it named
// in an attachment links to its listed entry, and its history names the session among those it was handed to.
import { mkdir, realpath, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/contract/shapes.js';
import type { SessionLoad } from '../../src/contract/memoryHistory.js';
import type { SessionMemoryBody } from '../../src/contract/sessionMemory.js';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { prompt, type LineContext } from '../history/transcript.js';

let home: TempHome;
let server: Running;
let repo: string;
let custom: string;

const S = uuid(0x52);
const at = (hour: number, minute = 0): string => new Date(Date.UTC(2026, 10, 21, hour, minute)).toISOString();

async function file(p: string, text: string, mtime: string): Promise<void> {
  await mkdir(path.dirname(p), { recursive: true });
  await writeFile(p, text);
  await utimes(p, new Date(mtime), new Date(mtime));
}

beforeAll(async () => {
  home = await TempHome.create('pmv-sessmem-folder-');
  repo = await home.repo('shop');
  custom = path.join(home.root, 'shared-memory');
  await file(path.join(repo, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryDirectory: custom }), at(6));
  await file(path.join(custom, 'MEMORY.md'), '# Shop memory\n- [Prices](prices.md)\n', at(7));
  await file(path.join(custom, 'prices.md'), '# Prices\nIn cents.\n', at(7));
  const project = path.join(home.claude, 'projects', encodeCwd(repo));
  // The default folder Claude Code no longer reads.
  await file(path.join(project, 'memory', 'MEMORY.md'), '# Old default\n', at(5));
  const s = (minute: number): LineContext => ({ cwd: repo, sessionId: S, at: at(9, minute) });
  await file(path.join(project, `${S}.jsonl`), [
    prompt(s(0), 'How are prices kept?'),
    JSON.stringify({
      type: 'attachment', timestamp: s(1).at, sessionId: S, cwd: repo,
      attachment: { type: 'relevant_memories', memories: [{ path: path.join(custom, 'prices.md'), content: '# Prices\nIn cents.\n' }] },
    }),
  ].join('\n') + '\n', at(9, 1));
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: false, cacheDir: path.join(home.root, 'cache') });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('a session whose memory folder an autoMemoryDirectory setting names', () => {
  it('answers from that folder, links the memory it was handed, and the file\'s history names the session', async () => {
    const { entries } = await server.json<{ entries: MemoryEntry[] }>('/api/memory');
    const dir = await realpath(custom);
    const index = entries.find((e) => e.filepath === path.join(dir, 'MEMORY.md'))!;
    const prices = entries.find((e) => e.filepath === path.join(dir, 'prices.md'))!;
    expect(index.sourceId).toMatch(/^custom-/);

    const body = await server.json<SessionMemoryBody>(`/api/sessions/${S}/memory`);
    expect(body.projectKey).toBe(encodeCwd(repo));
    expect(body.folder).toEqual({ sourceId: index.sourceId, dir, project: 'shop', chosenBy: 'attachments' });
    expect(body.atStart.index).toMatchObject({ id: index.id, file: 'MEMORY.md', at: at(7) });
    expect(body.atStart.index!.load).toMatchObject({ truncated: false, totalLines: 2 });
    expect(body.atStart.topics.map((t) => [t.id, t.at])).toEqual([[prices.id, at(7)]]);
    expect(body.attachments[0]!.items.map((i) => i.memoryId)).toEqual([prices.id]);

    const { loadedBy } = await server.json<{ loadedBy: SessionLoad[] }>(`/api/memory/history?id=${encodeURIComponent(prices.id)}`);
    expect(loadedBy).toEqual([{ sessionId: S, firstAt: at(9, 1), lastAt: at(9, 1), times: 1 }]);
  });
});

// memory_history and memory_blame through the real SDK client over POST /mcp: versions with their session
// and prompt, blame as runs and as lines, a hand edit blamed as outside Claude Code, and a secret a session
// wrote into memory (and typed into its prompt) masked in both answers.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { prompt, write, type LineContext } from '../history/transcript.js';

const TOKEN = `ghp_${'Zq7'.repeat(12)}`;
const S = uuid(0x51);
const at = (minute: number): string => new Date(Date.UTC(2026, 10, 19, 9, minute)).toISOString();
const WRITTEN = `# CI\nThe bot token is ${TOKEN}.\nDeploys run at noon.\n`;

let home: TempHome;
let server: Running;
let client: Client;
let id: string;

interface Answer { content: { type: string; text: string }[]; isError?: boolean }
async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const answer = (await client.callTool({ name, arguments: args })) as Answer;
  return { text: answer.content.map((c) => c.text).join(''), isError: answer.isError ?? false };
}

beforeAll(async () => {
  home = await TempHome.create('pmv-mcp-memhist-');
  const repo = await home.repo('webapp');
  const key = encodeCwd(repo);
  const memDir = path.join(home.claude, 'projects', key, 'memory');
  await mkdir(memDir, { recursive: true });
  const ctx = (minute: number): LineContext => ({ cwd: repo, sessionId: S, at: at(minute) });
  await writeFile(path.join(home.claude, 'projects', key, `${S}.jsonl`), [
    prompt(ctx(0), `Remember the CI token ${TOKEN}`),
    write(ctx(1), path.join(memDir, 'ci.md'), WRITTEN),
  ].join('\n') + '\n');
  // By hand, later: one more line.
  const file = path.join(memDir, 'ci.md');
  await writeFile(file, `${WRITTEN}Ask Bob first.\n`);
  await utimes(file, new Date(at(30)), new Date(at(30)));
  id = `${key}/ci.md`;
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, cacheDir: path.join(home.root, 'cache') });
  client = new Client({ name: 'pmv-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await home?.cleanup();
});

describe('memory_history and memory_blame', () => {
  it('memory_history lists the session\'s write with its prompt, masked, and the hand edit', async () => {
    const { text, isError } = await call('memory_history', { id });
    expect(isError).toBe(false);
    expect(text).not.toContain(TOKEN.slice(4, 16));
    const answer = JSON.parse(text) as { total: number; versions: { source: string; sessionId: string | null; at: string; prompt: string | null }[] };
    expect(answer.total).toBe(2);
    expect(answer.versions.map((v) => [v.source, v.sessionId, v.at])).toEqual([['write', S, at(1)], ['outside', null, at(30)]]);
    expect(answer.versions[0]!.prompt).toMatch(/^Remember the CI token •+$/);
  });

  it('memory_blame answers runs by default, and lines with masked text for a range', async () => {
    const runs = JSON.parse((await call('memory_blame', { id })).text) as { lineCount: number; runs: { lines: string; source: string; sessionId: string | null }[] };
    expect(runs.lineCount).toBe(4);
    expect(runs.runs.map((r) => [r.lines, r.source, r.sessionId])).toEqual([['1-3', 'write', S], ['4', 'outside', null]]);
    const { text } = await call('memory_blame', { id, from: 2, to: 4 });
    expect(text).not.toContain(TOKEN.slice(4, 16));
    const lines = JSON.parse(text) as { lines: { line: number; text: string; source: string; at: string }[] };
    expect(lines.lines.map((l) => [l.line, l.source, l.at])).toEqual([[2, 'write', at(1)], [3, 'write', at(1)], [4, 'outside', at(30)]]);
    expect(lines.lines[0]!.text).toMatch(/^The bot token is •+\.$/);
    expect(lines.lines[2]!.text).toBe('Ask Bob first.');
  });

  it('names the closest ids when one is unknown', async () => {
    const { text, isError } = await call('memory_blame', { id: id.replace('ci.md', 'cj.md') });
    expect(isError).toBe(true);
    expect(text).toContain(id);
  });
});

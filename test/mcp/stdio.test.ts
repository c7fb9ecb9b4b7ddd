// `plan-memory-viewer mcp`: the built CLI (dist/cli.js, `npm run build`) speaking MCP on stdio to the
// SDK's own client, on the API fixture home.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { buildFixture, type Fixture } from '../http/fixture.js';
import { checkBadArguments, checkEveryTool } from './toolChecks.js';

let fixture: Fixture;
let cache: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
const clientErrors: Error[] = [];

beforeAll(async () => {
  fixture = await buildFixture();
  cache = await mkdtemp(path.join(os.tmpdir(), 'pmv-mcp-cache-'));
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--claude-dir', fixture.home.claude],
    env: { ...process.env, HOME: fixture.home.root, XDG_CACHE_HOME: cache, NO_COLOR: '1' } as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'pmv-test', version: '1.0.0' });
  // Anything on stdout that is not a protocol message (a log line) surfaces here.
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await fixture?.home.cleanup();
  if (cache) await rm(cache, { recursive: true, force: true });
});

describe('plan-memory-viewer mcp (stdio)', () => {
  it('names itself and answers every tool', async () => {
    expect(client.getServerVersion()?.name).toBe('plan-memory-viewer');
    await checkEveryTool(client, fixture);
  });

  it('answers bad arguments as tool errors and keeps serving', async () => {
    await checkBadArguments(client, fixture);
  });

  it('writes nothing but protocol messages to stdout', () => {
    expect(clientErrors).toEqual([]);
    expect(stderr).not.toMatch(/error/i);
  });

  it('exits by itself, with status 0, when its stdin closes', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--claude-dir', fixture.home.claude], {
      env: { ...process.env, HOME: fixture.home.root, XDG_CACHE_HOME: cache }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect(out).toBe('');
  });

  it('refuses to stand in the demo for a missing home', async () => {
    const run = runCli(['mcp', '--claude-dir', path.join(fixture.home.root, 'absent')]);
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(/does not exist/);
    const missingDefault = runCli(['mcp'], { env: { ...process.env, HOME: path.join(fixture.home.root, 'nobody'), CLAUDE_CONFIG_DIR: '' } });
    expect(await missingDefault.exited).toBe(1);
    expect(missingDefault.stderr()).toMatch(/no Claude Code home/);
    expect(missingDefault.stdout()).toBe('');
  });
});

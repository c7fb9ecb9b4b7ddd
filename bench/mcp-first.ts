// What an agent waits for: Claude Code starts `plan-memory-viewer mcp` afresh in every session, so a fresh
// process's first complete `search` (the tool waits for the index's first build) is timed from spawn to
// answer, over the real MCP SDK client on stdio: once with an empty cache directory, then `rounds` times
// with the cache the earlier runs left (warm). Timings are reported, never asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO } from './options.js';
import { round } from './measure.js';

/** Two words of the generator's vocabulary: thousands of hits on the heavy home, and a page of snippets. */
export const MCP_QUERY = 'cache migration';

export interface McpFirstSearch {
  /** Spawn to the first search's answer with an empty cache directory. */
  coldMs: number;
  /** The same with the cache a previous process left: each run, and their median. */
  warmMs: number;
  warmRunsMs: number[];
  /** Results of the warm runs' search (the same in each, or the run says so). */
  total: number;
}

/** One fresh process: spawn, connect, one `search`, close. */
async function firstSearch(home: string, cacheDir: string, query: string): Promise<{ ms: number; total: number }> {
  const t0 = performance.now();
  const client = new Client({ name: 'pmv-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, 'dist', 'cli.js'), 'mcp', '--claude-dir', home],
    env: { ...process.env, XDG_CACHE_HOME: cacheDir, CLAUDE_CONFIG_DIR: home, NO_COLOR: '1' } as Record<string, string>,
    stderr: 'ignore',
  }));
  try {
    const answer = await client.callTool({ name: 'search', arguments: { query, limit: 10 } }, undefined, { timeout: 300_000 });
    const ms = performance.now() - t0;
    const content = answer.content as { type: string; text?: string }[];
    const parsed = JSON.parse(content.find((c) => c.type === 'text')?.text ?? '{}') as { total?: number };
    return { ms, total: parsed.total ?? -1 };
  } finally {
    await client.close();
  }
}

export async function measureMcpFirstSearch(home: string, query: string, rounds = 3): Promise<McpFirstSearch> {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'pmv-bench-mcp-'));
  try {
    const cold = await firstSearch(home, cacheDir, query);
    // The cold process saves its caches as it goes; one more run settles any it left for later.
    await firstSearch(home, cacheDir, query);
    const runs: { ms: number; total: number }[] = [];
    for (let i = 0; i < rounds; i++) runs.push(await firstSearch(home, cacheDir, query));
    const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
    const totals = new Set(runs.map((r) => r.total));
    if (totals.size !== 1 || !totals.has(cold.total)) throw new Error(`the first searches disagree: ${[cold.total, ...runs.map((r) => r.total)].join(', ')} results`);
    return {
      coldMs: round(cold.ms, 0), warmMs: round(sorted[Math.floor(sorted.length / 2)]!, 0),
      warmRunsMs: runs.map((r) => round(r.ms, 0)), total: cold.total,
    };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

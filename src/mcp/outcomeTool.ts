// The plan_outcome tool: what happened after a plan was approved (domain/outcome/). Small by default (the
// totals, and the files that changed most), everything with `detail`.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { PlanOutcome } from '../contract/outcome.js';
import type { Viewer } from '../viewer.js';

/** Files listed in the short answer. */
const TOP_FILES = 10;

export function registerOutcomeTool(server: McpServer, viewer: Viewer): void {
  server.registerTool('plan_outcome', {
    description: 'What happened after a plan was approved, from the session transcripts: files changed (lines added and removed), ' +
      'tests and builds run and whether they passed, commits, pull requests, the last task list, time and token cost. A summary ' +
      'by default; `detail: true` lists every file and command.',
    inputSchema: {
      filename: z.string().min(1).max(1024).describe('The plan\'s file name, listed or archived'),
      detail: z.boolean().optional().describe('Every file and command instead of the summary (default false)'),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, async ({ filename, detail }): Promise<CallToolResult> => {
    const outcome = await viewer.answers.planOutcome(filename);
    if (outcome === null) return { content: [{ type: 'text', text: `No plan named ${filename}, listed or archived` }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify(detail === true ? outcome : summary(outcome)) }] };
  });
}

export function summary(o: PlanOutcome): Record<string, unknown> {
  const lines = o.files.reduce((n, f) => ({ added: n.added + f.added, removed: n.removed + f.removed }), { added: 0, removed: 0 });
  return {
    filename: o.filename,
    status: o.status,
    approvals: o.windows.length,
    files: { count: o.files.length, ...lines, top: o.files.slice(0, TOP_FILES).map((f) => ({ path: f.path, added: f.added, removed: f.removed, userModified: f.userModified })) },
    commands: o.commands.length,
    tests: o.tests,
    builds: o.builds,
    commits: o.commits,
    pullRequests: o.pullRequests,
    tasks: { total: o.tasks.length, completed: o.tasks.filter((t) => t.status === 'completed').length, open: o.tasks.filter((t) => t.status !== 'completed').map((t) => t.content) },
    subagents: o.subagents,
    time: o.time,
    costUsd: Math.round(o.tokens.costUsd * 10_000) / 10_000,
    unpricedTokens: o.tokens.unpricedTokens,
    ...(o.files.length > TOP_FILES || o.commands.length > 0 ? { note: 'Call again with detail: true for every file and command.' } : {}),
  };
}

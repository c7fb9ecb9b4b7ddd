// The memory_changes tool: the bulk changes outside Claude Code the viewer saw (Auto Dream and the like,
// which leave no transcript record): per change its folder, time and each file changed, created, deleted or
// merged into another. File names and times only, no memory text. Read-only: restoring one is the
// person's call, in the UI or through POST /api/memory/changes/{id}/restore.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Viewer } from '../viewer.js';

const DEFAULT_CHANGES = 10;
const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

export function registerMemoryChangesTool(server: McpServer, viewer: Viewer): void {
  server.registerTool('memory_changes', {
    description: 'Bulk changes to auto memory made outside Claude Code (Auto Dream consolidation, a script, a sync), newest first: ' +
      'many files of one memory folder changed at once with no session\'s Write/Edit behind them. Each lists its files: changed, ' +
      'created, deleted, or merged into another file; `current` says whether the file is still as the change left it. ' +
      'Use memory_history with a file\'s id for its versions.',
    inputSchema: {
      project: z.string().max(1024).optional().describe('Only this project\'s memory (its name, any case)'),
      limit: z.number().int().min(1).max(100).optional().describe(`Newest changes to return (default ${DEFAULT_CHANGES})`),
    },
    annotations: readOnly,
  }, async ({ project, limit }): Promise<CallToolResult> => {
    await viewer.transcriptsReady;
    const changes = await viewer.memoryHistory.bulkChanges(project);
    const shown = changes.slice(0, limit ?? DEFAULT_CHANGES).map((c) => ({
      id: c.id, project: c.project, dir: c.dir, firstAt: c.firstAt, lastAt: c.lastAt,
      files: c.files.map((f) => ({ file: f.file, id: f.id, change: f.change, mergedInto: f.mergedInto, current: f.current })),
    }));
    return { content: [{ type: 'text', text: JSON.stringify({ total: changes.length, changes: shown }) }] };
  });
}

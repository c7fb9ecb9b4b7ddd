// The session_transcript tool: a session's conversation, a page at a time (domain/transcripts/sessionTranscript.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Viewer } from '../viewer.js';

export function registerTranscriptTool(server: McpServer, viewer: Viewer): void {
  server.registerTool('session_transcript', {
    description: 'A Claude Code session\'s conversation, paged: prompts, answers, each tool call and result on one entry (cut at ' +
      '2,000 characters), plan-mode events and compactions. Pass nextCursor back as cursor for the next page; `agent` reads a subagent\'s log.',
    inputSchema: {
      sessionId: z.string().min(1).max(200).describe('A full session id (get_session, get_plan)'),
      cursor: z.number().int().min(0).optional().describe('Byte offset to start from (default 0; nextCursor of the previous page)'),
      limit: z.number().int().min(1).max(500).optional().describe('Log lines to read (default 100)'),
      agent: z.string().min(1).max(200).optional().describe('A subagent id from subagents, for its own log'),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, async ({ sessionId, cursor, limit, agent }): Promise<CallToolResult> => {
    const page = await viewer.answers.sessionTranscript(sessionId, agent ?? null, cursor ?? 0, limit ?? 100);
    if (page === null) return { content: [{ type: 'text', text: `No transcript of session ${sessionId}${agent ? ` (subagent ${agent})` : ''}` }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify(page) }] };
  });
}

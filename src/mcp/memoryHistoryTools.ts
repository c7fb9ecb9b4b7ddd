// The memory_history and memory_blame tools: a memory file's versions and who last wrote each line, with
// the prompt each write answered ("who wrote this line and why"). Small answers: the newest versions, and
// blame as runs of lines by one version unless a range of lines is asked for. Texts from memory files and
// prompts go through the secret masking get_memory uses (masking.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { BlameLine } from '../contract/memoryHistory.js';
import type { Viewer } from '../viewer.js';
import { masked, maskedOrNull } from './masking.js';
import { notFound } from './resolve.js';

/** Characters of a prompt an answer carries. */
const PROMPT_CHARS = 300;
const DEFAULT_VERSIONS = 20;
/** Runs of lines (or lines, for a range) in one blame answer. */
const MAX_BLAME_ROWS = 200;

const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const json = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
const toolError = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });
const memoryId = z.string().min(1).max(2048).describe('The memory entry id, <sourceId>/<filename>, as search or get_memory give it (an archived one too)');

function shortPrompt(prompt: string | null): string | null {
  const cut = prompt !== null && prompt.length > PROMPT_CHARS ? `${prompt.slice(0, PROMPT_CHARS)}…` : prompt;
  return maskedOrNull(cut);
}

export function registerMemoryHistoryTools(server: McpServer, viewer: Viewer): void {
  const missing = async (id: string): Promise<CallToolResult> => {
    const ids = [...(await viewer.memory.list()).entries.map((e) => e.id), ...(await viewer.memoryHistory.archive()).map((f) => f.id)];
    return toolError(notFound('memory file', id, ids, 'search or get_memory give ids'));
  };

  server.registerTool('memory_history', {
    description: 'Versions of an auto-memory file, oldest first: each Write/Edit by a session (with its time and the prompt it was answering) ' +
      'and each change made outside Claude Code (a hand edit, Auto Dream) with the time the viewer saw it. The newest `limit` versions.',
    inputSchema: { id: memoryId, limit: z.number().int().min(1).max(200).optional().describe(`Newest versions to return (default ${DEFAULT_VERSIONS})`) },
    annotations: readOnly,
  }, async ({ id, limit }) => {
    await viewer.transcriptsReady;
    const history = await viewer.memoryHistory.history(id);
    if (history === null) return missing(id);
    const shown = history.versions.slice(-(limit ?? DEFAULT_VERSIONS));
    return json({
      id, onDisk: history.onDisk, total: history.versions.length,
      versions: shown.map((v) => ({ id: v.id, at: v.at, source: v.source, sessionId: v.sessionId, agentId: v.agentId, prompt: shortPrompt(v.prompt), lineCount: v.lineCount })),
    });
  });

  server.registerTool('memory_blame', {
    description: 'Who last wrote each line of an auto-memory file, and why: the session, time and prompt of the write, or "outside" ' +
      '(changed outside Claude Code) with the time the viewer saw it. By default runs of lines by one version, without their text; ' +
      'give from/to (1-based line numbers) for those lines with their text.',
    inputSchema: {
      id: memoryId,
      from: z.number().int().min(1).optional().describe('First line to show with its text'),
      to: z.number().int().min(1).optional().describe('Last line to show with its text (default: from, or from + 49)'),
    },
    annotations: readOnly,
  }, async ({ id, from, to }) => {
    await viewer.transcriptsReady;
    const blame = await viewer.memoryHistory.blame(id);
    if (blame === null) return missing(id);
    const who = (l: BlameLine): Record<string, unknown> => ({ versionId: l.versionId, source: l.source, at: l.at, sessionId: l.sessionId, prompt: shortPrompt(l.prompt) });
    if (from !== undefined || to !== undefined) {
      const first = from ?? 1;
      const last = Math.min(to ?? first + 49, first + MAX_BLAME_ROWS - 1);
      const lines = blame.lines.filter((l) => l.line >= first && l.line <= last).map((l) => ({ line: l.line, text: masked(l.text), ...who(l) }));
      return json({ id, versionId: blame.versionId, lineCount: blame.lines.length, lines });
    }
    const runs: Record<string, unknown>[] = [];
    for (let i = 0; i < blame.lines.length && runs.length < MAX_BLAME_ROWS;) {
      let j = i;
      while (j + 1 < blame.lines.length && blame.lines[j + 1]!.versionId === blame.lines[i]!.versionId) j++;
      runs.push({ lines: i === j ? `${i + 1}` : `${i + 1}-${j + 1}`, ...who(blame.lines[i]!) });
      i = j + 1;
    }
    return json({ id, versionId: blame.versionId, lineCount: blame.lines.length, runs });
  });
}

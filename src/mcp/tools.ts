// The MCP server: read-only tools over a Viewer, the same stores the HTTP service answers from. Search
// first, then fetch: `search` and `list_plans` answer small records, the get_* tools one thing in full.
// Every answer is one JSON text; a missing thing or a bad argument is a tool error (isError), which the
// model can read and correct, never a protocol error or a crash.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { openedFileWindow, textWindow, type ContentWindow } from '../domain/contentWindow.js';
import type { ArchivedPlan } from '../domain/types.js';
import type { Viewer } from '../viewer.js';
import { DEFAULT_WINDOW_BYTES, MAX_WINDOW_BYTES, MIN_WINDOW_BYTES } from './limits.js';
import { masked, maskedOrNull, maskedWindow } from './masking.js';
import { healthAnswer, memoryHealth } from './memoryHealth.js';
import { PROBLEM_KINDS } from '../contract/memoryCare.js';
import { registerOutcomeTool } from './outcomeTool.js';
import { registerMemoryHistoryTools } from './memoryHistoryTools.js';
import { registerMemoryChangesTool } from './memoryChangesTool.js';
import { registerTranscriptTool } from './transcriptTool.js';
import { searchEverything } from './searchTool.js';
import { notFound, planName, uniqueMatch } from './resolve.js';
import { isFindQueryError } from '../domain/find/finder.js';

const json = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
const toolError = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * A content as a get_* tool answers it: a window of at most maxBytes (a model's context is finite, and no
 * call reads or holds more of a 200 MB plan: docs/security.md, rule 21), said to be cut when it is, with
 * where the next window starts.
 */
function windowed(w: ContentWindow): Record<string, unknown> {
  const truncated = w.offset > 0 || w.nextOffset !== null;
  const end = w.nextOffset ?? w.totalBytes;
  return {
    content: w.content, truncated, offset: w.offset, nextOffset: w.nextOffset, totalBytes: w.totalBytes,
    ...(truncated ? { note: `Bytes ${w.offset} to ${end} of ${w.totalBytes}` + (w.nextOffset === null ? '.' : `; call again with offset ${w.nextOffset} for more.`) } : {}),
  };
}

/** The arguments that choose a window of a content. */
const windowArguments = {
  offset: z.number().int().min(0).optional().describe('Byte offset in the content to start from (default 0; nextOffset of the previous answer)'),
  maxBytes: z.number().int().min(MIN_WINDOW_BYTES).max(MAX_WINDOW_BYTES).optional()
    .describe(`Most bytes of content to return (default ${DEFAULT_WINDOW_BYTES}, at most ${MAX_WINDOW_BYTES})`),
};

/** Findings memory_health lists when asked for details and no limit. */
const HEALTH_LIMIT = 50;

const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/** A date or date-time Date.parse understands, as milliseconds. */
const since = z.string().max(40).refine((value) => !Number.isNaN(Date.parse(value)), { message: 'expected a date such as 2026-11-01 or an ISO date-time' });

/** Every plan name get_plan and plan_history serve: listed, then archived. */
function planNames(viewer: Viewer): string[] {
  return [...viewer.plans.list().map((p) => p.filename), ...viewer.history.stories.archive().map((p) => p.filename)];
}

export function createMcpServer(viewer: Viewer, version: string): McpServer {
  const server = new McpServer({ name: 'plan-memory-viewer', version }, {
    instructions: 'Claude Code\'s plans, auto memory and sessions on this machine, read-only. Call search first, then get_plan, ' +
      'get_memory or get_session with an id from its results.',
  });

  server.registerTool('search', {
    description: 'Ranked search over plans (also plans deleted from disk), memory entries and sessions. All words must match ' +
      '(the last as a prefix; one typo forgiven in words of 5+ letters); "a phrase"; filters project:NAME, type:feedback, ' +
      'in:plans|memory|sessions, after:YYYY-MM-DD, before:YYYY-MM-DD. Returns ids, titles, file paths and up to 3 matching ' +
      'lines each, best first; fetch one with get_plan (kind plan), get_memory (kind memory) or get_session (kind session).',
    inputSchema: {
      query: z.string().min(1).max(500).describe('Words, "phrases" and filters'),
      limit: z.number().int().min(1).max(50).optional().describe('Most results to return (default 10)'),
    },
    annotations: readOnly,
  }, async ({ query, limit }) => {
    try {
      return json(await searchEverything(viewer, query, limit ?? 10));
    } catch (err) {
      if (isFindQueryError(err)) return toolError(err.message);
      throw err;
    }
  });

  server.registerTool('list_plans', {
    description: 'Plans, newest first: file name, title, project, dates, session. Filters narrow the list.',
    inputSchema: {
      project: z.string().max(500).optional().describe('Only plans of this project (as listed in a plan\'s project field)'),
      since: since.optional().describe('Only plans modified at or after this date (YYYY-MM-DD or ISO date-time)'),
      limit: z.number().int().min(1).max(500).optional().describe('Most plans to return (default 50)'),
    },
    annotations: readOnly,
  }, ({ project, since: after, limit }) => {
    const from = after === undefined ? null : Date.parse(after);
    const plans = viewer.plans.list().filter((plan) =>
      (project === undefined || plan.project === project) && (from === null || Date.parse(plan.modified) >= from));
    return json({
      total: plans.length,
      plans: plans.slice(0, limit ?? 50).map((p) => ({
        filename: p.filename, title: p.title, project: p.project, modified: p.modified, created: p.created, sessionId: p.sessionId, path: p.filepath,
      })),
    });
  });

  server.registerTool('get_plan', {
    description: 'One plan: its metadata, its content (or that of an earlier version, by an id from plan_history) and the card ' +
      'of the session that wrote it. A plan gone from disk (search finds those too) is served from the archive: archived is true, ' +
      'the content is its last version and version names it. A long content comes in windows: truncated is true, and nextOffset says where the next starts.',
    inputSchema: {
      filename: z.string().min(1).max(1024).describe('The plan\'s file name, e.g. jolly-juggling-penguin.md (.md may be left out)'),
      version: z.string().min(1).max(200).optional().describe('A version id from plan_history'),
      ...windowArguments,
    },
    annotations: readOnly,
  }, async ({ filename: typed, version, offset, maxBytes }) => {
    await viewer.transcriptsReady;
    const filename = planName(typed, (name) => viewer.plans.find(name) !== undefined || viewer.history.stories.archive().some((p) => p.filename === name));
    const listed = viewer.plans.find(filename) ?? null;
    const at = offset ?? 0;
    const most = maxBytes ?? DEFAULT_WINDOW_BYTES;
    let window: ContentWindow | null;
    // search finds plans gone from disk too: those are served from the archive, their last version unless asked another.
    let archived: ArchivedPlan | null = null;
    if (listed === null) {
      await viewer.transcriptsReady;
      archived = viewer.history.stories.archive().find((p) => p.filename === filename) ?? null;
      if (archived !== null && version === undefined) version = (await viewer.history.stories.story(filename))?.versions.at(-1)?.id;
      if (archived !== null && version === undefined) return toolError(`Plan ${filename} is archived, but no version of it can be read`);
    }
    const metadata = listed ?? archived;
    if (version !== undefined) {
      await viewer.transcriptsReady;
      const found = await viewer.history.stories.version(filename, version);
      if (found === null) return toolError(`No version ${version} of plan ${filename} (see plan_history for its versions)`);
      window = 'text' in found ? textWindow(found.text, at, most) : await openedFileWindow(found.file, at, most);
      if (window === null) return toolError(`Version ${version} of plan ${filename} can no longer be read`);
    } else {
      if (metadata === null) return toolError(notFound('plan named', typed, planNames(viewer), 'list_plans or search name them'));
      const opened = await viewer.openPlan(filename);
      window = opened && (await openedFileWindow(opened, at, most));
      if (window === null) return toolError(`Plan ${filename} can no longer be read`);
    }
    await viewer.transcriptsReady;
    const session = metadata?.sessionId ? viewer.history.stories.session(metadata.sessionId) : null;
    return json({ metadata, archived: archived !== null, version: version ?? null, ...windowed(window), session });
  });

  server.registerTool('plan_history', {
    description: 'Every version of a plan (from the session transcripts and the disk) and its plan-mode events, oldest first.',
    inputSchema: { filename: z.string().min(1).max(1024).describe('The plan\'s file name, listed or archived') },
    annotations: readOnly,
  }, async ({ filename: typed }) => {
    await viewer.transcriptsReady;
    const filename = planName(typed, (name) => planNames(viewer).includes(name));
    const story = await viewer.history.stories.story(filename);
    if (story === null) return toolError(notFound('plan named', typed, planNames(viewer), 'listed or archived'));
    return json({
      filename, versions: story.versions, events: story.events, sessions: story.sessions,
      unreadLines: viewer.history.index.unreadLines(story.sessions), retention: viewer.history.stories.retention(filename),
    });
  });

  server.registerTool('get_memory', {
    description: 'One auto-memory entry: its metadata, content and links (the entries it links to and those linking to it). A long ' +
      'content comes in windows, as get_plan\'s.',
    inputSchema: {
      id: z.string().min(1).max(2048).describe('The entry id, <sourceId>/<filename>, as search or memory_health give it'),
      ...windowArguments,
    },
    annotations: readOnly,
  }, async ({ id, offset, maxBytes }) => {
    const listing = await viewer.memory.list();
    const entry = listing.entries.find((e) => e.id === id);
    const opened = entry ? await viewer.memory.open(id) : null;
    const window = opened && (await openedFileWindow(opened, offset ?? 0, maxBytes ?? DEFAULT_WINDOW_BYTES));
    if (!entry || window === null) return toolError(notFound('memory entry', id, listing.entries.map((e) => e.id), 'search or memory_health give ids'));
    const { links, linkedFrom, ...metadata } = entry;
    // Secrets masked (masking.ts): what a memory file says is handed to the model, its credentials are not.
    const shown = { ...metadata, name: masked(metadata.name), description: maskedOrNull(metadata.description) };
    return json({ metadata: shown, ...windowed(await maskedWindow(viewer, id, window)), links, linkedFrom });
  });

  server.registerTool('memory_health', {
    description: 'Per memory source: MEMORY.md against its limits (Claude Code loads only its first 200 lines and about 25,000 characters), links ' +
      'that point nowhere, topic files the index does not link, whether Claude Code still reads the folder, and the findings of ' +
      'the memory-care checks (stale, duplicate, secret, cut frontmatter values…) with the fix the viewer offers for each. By default ' +
      'a summary: counts per source and per finding kind, and the totals; ask detail: true (or a kind) for the findings themselves.',
    inputSchema: {
      source: z.string().min(1).max(1024).optional().describe('Only this source: its id, or its project name (any case)'),
      detail: z.boolean().optional().describe('true: list the findings, orphans and dangling links (at most limit each) instead of counting them (default false)'),
      kind: z.enum(PROBLEM_KINDS).optional().describe(`Only findings of this kind, listed (implies detail): ${PROBLEM_KINDS.join(', ')}`),
      limit: z.number().int().min(1).max(1000).optional()
        .describe(`With detail: most findings in all, and most orphans and dangling links per source (default ${HEALTH_LIMIT}); omitted says how many were left out`),
    },
    annotations: readOnly,
  }, async ({ source, detail, kind, limit }) => {
    const all = memoryHealth(await viewer.memory.list(), await viewer.care.health());
    const chosen = source === undefined ? undefined : uniqueMatch(source, all.map((s) => s.id), (id) => all.find((s) => s.id === id)?.project ?? null);
    if (source !== undefined && chosen === null) {
      return toolError(notFound('memory source', source, all.flatMap((s) => [s.id, s.project]), 'a source id or its project name'));
    }
    const sources = all.filter((s) => chosen === undefined || s.id === chosen);
    return json(healthAnswer(sources, { detail: detail ?? false, kind, limit: limit ?? HEALTH_LIMIT }));
  });

  server.registerTool('get_session', {
    description: 'A Claude Code session\'s card: title, first and last prompt, project, branch, dates, cost, subagents, its plans, ' +
      'and the command that resumes it. A session whose transcript Claude Code deleted is answered from ~/.claude/history.jsonl ' +
      '(source: prompt-history: its prompts, times and directory; the rest null).',
    inputSchema: { sessionId: z.string().min(1).max(200).describe('A session id, e.g. from get_plan or a plan\'s sessionId, or its first 8 characters as the viewer shows it') },
    annotations: readOnly,
  }, async ({ sessionId }) => {
    await viewer.transcriptsReady;
    await viewer.prompts.refresh();
    const ids = [...new Set([...viewer.history.index.sessionIds(), ...viewer.prompts.sessions().map((s) => s.sessionId)])];
    const full = uniqueMatch(sessionId, ids);
    const card = full === null ? null : await viewer.answers.sessionCard(full);
    return card === null ? toolError(notFound('session', sessionId, ids, 'a full id, or the first 8 characters the viewer shows')) : json(card);
  });

  registerOutcomeTool(server, viewer);
  registerMemoryHistoryTools(server, viewer);
  registerMemoryChangesTool(server, viewer);
  registerTranscriptTool(server, viewer);
  return server;
}

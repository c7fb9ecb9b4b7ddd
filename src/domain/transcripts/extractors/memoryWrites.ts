// What a memory file's history needs from a transcript: the model's Write, Edit and MultiEdit calls on
// files of a project's auto-memory folder (`<home>/projects/<key>/memory/**.md`), each with the last prompt
// the person typed before it (what the write was answering). Like a plan's writes, the call's input is
// read from its line when a history is built; only where the line is is kept here.
import { isSessionId } from '../../sessions/values.js';
import { isCount, isSpan, isText, readRows, type Extractor } from '../extractor.js';
import type { Key, LineView, NodeView, Span } from '../lineView.js';
import { K } from './keys.js';
import { contentItems, type LineHead } from './lineHead.js';
import { typedPrompt } from './sessionCards.js';
import type { WriteTool } from './planEvents.js';

export interface MemoryWrite {
  tool: WriteTool;
  /** The path as the call wrote it (a copied home names the other machine's). */
  filePath: string;
  /** The project folder the memory folder is in, and the file's path inside the memory folder. */
  key: string;
  file: string;
  at: string | null;
  sessionId: string | null;
  agentId: string | null;
  line: Span;
  /** The last prompt the person typed in this log before the call (cut to MAX_PROMPT_CHARS), or null. */
  prompt: string | null;
}

export interface MemoryWriteFacts {
  writes: MemoryWrite[];
  /** The last typed prompt so far: a log read on from where it stopped goes on with it. */
  prompt: string | null;
}

const MAX_PATH_CHARS = 4096;
export const MAX_PROMPT_CHARS = 2000;

/**
 * Where a path names a memory file: `…/.claude/projects/<key>/memory/<file>.md` in any home (a transcript
 * copied from another machine names that machine's), matched by folder and file name. Null for any other path.
 */
export function memoryPathParts(filePath: string): { key: string; file: string } | null {
  const match = /[\\/]projects[\\/]([^\\/]+)[\\/]memory[\\/](.+\.md)$/.exec(filePath);
  if (match === null) return null;
  const file = match[2]!.replace(/\\/g, '/');
  // No step out of the folder, nor hidden segments (Claude Code loads neither).
  if (file.split('/').some((part) => part === '' || part === '..' || part.startsWith('.'))) return null;
  return { key: match[1]!, file };
}

export const memoryWrites: Extractor<MemoryWriteFacts> = {
  empty: () => ({ writes: [], prompt: null }),
  line: memoryLine,
  save: ({ writes, prompt }) => ({
    w: writes.map((w) => [w.tool, w.filePath, w.at, w.sessionId, w.agentId, w.line.start, w.line.end, w.prompt]),
    p: prompt,
  }),
  restore(saved) {
    if (typeof saved !== 'object' || saved === null) return null;
    const { w, p } = saved as Record<string, unknown>;
    const writes = readRows(w, readWrite);
    return writes !== null && isText(p) ? { writes, prompt: p } : null;
  },
};

function memoryLine(facts: MemoryWriteFacts, line: LineView, head: LineHead): void {
  if (head.type === 'user') {
    const prompt = typedPrompt(line);
    if (prompt !== null) facts.prompt = prompt.length > MAX_PROMPT_CHARS ? `${prompt.slice(0, MAX_PROMPT_CHARS)}…` : prompt;
    return;
  }
  if (head.type !== 'assistant') return;
  for (const item of contentItems(line)) {
    if (member(item, K.type) !== 'tool_use') continue;
    const name = member(item, K.name);
    if (name !== 'Write' && name !== 'Edit' && name !== 'MultiEdit') continue;
    const filePath = member(item.get(K.input), K.file_path);
    const parts = filePath === null ? null : memoryPathParts(filePath);
    if (filePath === null || parts === null) continue;
    facts.writes.push({
      tool: name, filePath, ...parts, at: head.at, sessionId: head.sessionId, agentId: head.agentId, line: head.line, prompt: facts.prompt,
    });
  }
}

function member(node: NodeView | null, key: Key): string | null {
  const text = node?.get(key)?.str(MAX_PATH_CHARS + 1) ?? null;
  return text === null || text === '' || text.length > MAX_PATH_CHARS ? null : text;
}

function readWrite([tool, filePath, at, sessionId, agentId, start, end, prompt]: unknown[]): MemoryWrite | null {
  if (tool !== 'Write' && tool !== 'Edit' && tool !== 'MultiEdit') return null;
  if (typeof filePath !== 'string' || !isText(at) || !isText(agentId) || !isText(prompt) || !isSpan(start, end)) return null;
  if (sessionId !== null && (typeof sessionId !== 'string' || !isSessionId(sessionId))) return null;
  const parts = memoryPathParts(filePath);
  if (parts === null || !isCount(start)) return null;
  return { tool, filePath, ...parts, at, sessionId, agentId, line: { start: start as number, end: end as number }, prompt };
}

// What a session saw of memory: its auto-memory folder as it was when the session started (MEMORY.md and the
// topics, each the version of its history at or before the session's first line, the index with what the
// load budget kept of that version), the memory attachments it was handed (read again from their lines,
// where the memoryReads facts say they are; secrets masked), and the memory files it wrote (the memoryWrites
// facts, each with the version it made).
import type {
  FileAtStart, LoadCut, SessionMemoryAttachment, SessionMemoryBody, SessionMemoryWrite,
} from '../../../contract/sessionMemory.js';
import type { MemoryVersion } from '../../../contract/memoryHistory.js';
import type { MemorySource } from '../../types.js';
import { compareTimes } from '../../history/historyIndex.js';
import { maskSecrets } from '../care/secrets.js';
import { loadBudget } from '../loadBudget.js';
import { encodeProjectPath, gitRootOf } from '../projectKey.js';
import { ALL_PROJECTS } from '../sources.js';
import type { MemoryStore } from '../memoryStore.js';
import type { LogFacts } from '../../transcripts/extractors/index.js';
import { memoryPathParts } from '../../transcripts/extractors/memoryWrites.js';
import { readLineJsonAt } from '../../transcripts/lineReads.js';
import { logOwner } from '../../transcripts/transcriptReader.js';
import type { MemoryFileHistory, MemoryHistory } from './memoryHistory.js';
import { writeVersionId } from './memoryStory.js';

/** Characters of an attachment's text in the answer; the rest is in the log. */
export const MAX_ATTACHMENT_CHARS = 4000;
export const MAX_ATTACHMENTS = 200;
const INDEX_FILE = 'MEMORY.md';

export interface SessionMemorySources {
  /** The session's first timestamp and working directory (its card), or null when no log names it. */
  session: { firstAt: string | null; cwd: string | null } | null;
  logs: () => Iterable<[string, LogFacts]>;
  memory: Pick<MemoryStore, 'list'>;
  history: Pick<MemoryHistory, 'history' | 'archive'>;
}

export async function sessionMemory(sessionId: string, o: SessionMemorySources): Promise<SessionMemoryBody | null> {
  if (o.session === null) return null;
  const { firstAt, cwd } = o.session;
  const mine: { log: string; facts: LogFacts }[] = [];
  for (const [log, facts] of o.logs()) {
    if (logOwner(log).sessionId === sessionId || facts.cards.sessions.has(sessionId)) mine.push({ log, facts });
  }
  const mainLog = mine.find(({ log }) => logOwner(log).main)?.log ?? mine[0]?.log ?? null;
  const root = cwd === null ? null : gitRootOf(cwd);
  const projectKey = root !== null ? encodeProjectPath(root) : mainLog === null ? null : logOwner(mainLog).folder;
  const { sources } = await o.memory.list();
  const folder = folderRead(sources, projectKey, cwd, root);
  const histories = new Map<string, MemoryFileHistory | null>();
  const historyOf = async (id: string): Promise<MemoryFileHistory | null> => {
    if (!histories.has(id)) histories.set(id, await o.history.history(id));
    return histories.get(id) ?? null;
  };
  return {
    sessionId,
    startedAt: firstAt,
    cwd,
    projectKey,
    folder: folder === null ? null : { sourceId: folder.id, dir: folder.dir, project: folder.project },
    atStart: folder === null ? { index: null, topics: [] } : await atStart(folder.id, firstAt, o, historyOf),
    ...attachmentsOf(sessionId, mine, await listedIds(o)),
    wrote: await writesOf(sessionId, mine, historyOf),
    incomplete: mine.some(({ facts }) => facts.counts.oversized > 0),
  };
}

/**
 * The one auto-memory folder Claude Code reads for the session, as the settings say now: a repository's
 * autoMemoryDirectory, else the user's, else the git root's default folder.
 */
function folderRead(sources: readonly MemorySource[], key: string | null, cwd: string | null, root: string | null): MemorySource | null {
  const readers = sources.filter((s) => s.kind === 'custom' && s.active);
  const own = readers.find((s) => s.cwd !== null && (s.cwd === cwd || s.cwd === root) && !isAgentFolder(s));
  const shared = readers.find((s) => s.project === ALL_PROJECTS);
  const byDefault = sources.find((s) => s.kind === 'project' && s.id === key && s.active);
  return own ?? shared ?? byDefault ?? null;
}

/** A subagent's own memory folder (sources.ts names those `<repo> agent: <name>`): not the session's. */
function isAgentFolder(source: MemorySource): boolean {
  return source.project.includes('agent: ') || /[\\/]agent-memory(-local)?[\\/]/.test(source.dir);
}

async function atStart(
  sourceId: string, firstAt: string | null, o: SessionMemorySources, historyOf: (id: string) => Promise<MemoryFileHistory | null>,
): Promise<SessionMemoryBody['atStart']> {
  const { entries } = await o.memory.list();
  const files = new Map<string, string>();
  for (const entry of entries) if (entry.sourceId === sourceId) files.set(entry.filename, entry.id);
  for (const archived of await o.history.archive()) {
    if (archived.id.startsWith(`${sourceId}/`) && !files.has(archived.filename)) files.set(archived.filename, archived.id);
  }
  let index: SessionMemoryBody['atStart']['index'] = null;
  const topics: FileAtStart[] = [];
  for (const [file, id] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const history = await historyOf(id);
    const versions = history?.versions ?? [];
    const version = versionAt(versions, firstAt);
    if (version === null && createdAfter(versions, firstAt)) continue;
    const at: FileAtStart = { id, file, versionId: version?.id ?? null, at: version?.at ?? null };
    if (file !== INDEX_FILE) {
      topics.push(at);
      continue;
    }
    const text = version === null ? undefined : history?.contents.get(version.id);
    index = { ...at, load: text === undefined ? null : loadCut(text) };
  }
  return { index, topics };
}

/** The last version written or seen at or before `time`; null when none is known to be. */
export function versionAt(versions: readonly MemoryVersion[], time: string | null): MemoryVersion | null {
  if (time === null) return null;
  let found: MemoryVersion | null = null;
  for (const v of versions) if (v.at !== null && compareTimes(v.at, time) <= 0) found = v;
  return found;
}

/** The file's history starts with a Write after `time`: it did not exist then. A file with no known version may have. */
function createdAfter(versions: readonly MemoryVersion[], time: string | null): boolean {
  const first = versions[0];
  return first !== undefined && time !== null && first.source === 'write' && !first.gapBefore && compareTimes(first.at, time) > 0;
}

function loadCut(text: string): LoadCut {
  const b = loadBudget(text);
  return {
    truncated: b.truncated, reason: b.reason, totalLines: b.totalLines, keptLines: b.keptLines, totalChars: b.totalChars,
    keptChars: b.keptChars, keptStart: b.keptStart, keptEnd: b.keptEnd, firstUnreadLine: b.firstUnreadLine,
  };
}

/** Listed memory files by path: a memory an attachment names in any folder links to its entry. */
async function listedIds(o: SessionMemorySources): Promise<Map<string, string>> {
  return new Map((await o.memory.list()).entries.map((e) => [e.filepath, e.id]));
}

function attachmentsOf(
  sessionId: string, mine: readonly { log: string; facts: LogFacts }[], listed: ReadonlyMap<string, string>,
): Pick<SessionMemoryBody, 'attachments' | 'omittedAttachments'> {
  const found = mine.flatMap(({ log, facts }) => facts.memoryReads.reads.filter((r) => r.sessionId === sessionId).map((read) => ({ log, read })));
  found.sort((a, b) => compareTimes(a.read.at, b.read.at) || (a.log < b.log ? -1 : a.log > b.log ? 1 : 0) || a.read.line.start - b.read.line.start);
  const attachments = found.slice(0, MAX_ATTACHMENTS).map(({ log, read }): SessionMemoryAttachment => ({
    kind: read.kind, at: read.at, agentId: read.agentId, line: read.number,
    items: attachmentItems(readLineJsonAt(log, read.line.start, read.line.end), read.kind, listed),
  }));
  return { attachments, omittedAttachments: found.length - attachments.length };
}

/** What an attachment line handed over: one item for a nested_memory, one per memory for relevant_memories. */
function attachmentItems(line: unknown, kind: SessionMemoryAttachment['kind'], listed: ReadonlyMap<string, string>): SessionMemoryAttachment['items'] {
  const attachment = objectOf(objectOf(line)?.attachment);
  if (attachment === null) return [];
  const raw = kind === 'nested_memory' ? [attachment] : Array.isArray(attachment.memories) ? attachment.memories.map(objectOf) : [];
  return raw.filter((m): m is Record<string, unknown> => m !== null).map((m) => {
    const named = [m.path, m.filePath, m.file].find((p): p is string => typeof p === 'string' && p !== '') ?? null;
    const content = typeof m.content === 'string' ? m.content : '';
    const cut = content.length > MAX_ATTACHMENT_CHARS;
    const parts = named === null ? null : memoryPathParts(named);
    const memoryId = (named === null ? undefined : listed.get(named)) ?? (parts === null ? null : `${parts.key}/${parts.file}`);
    return {
      path: named, memoryId, chars: content.length,
      // Masked whole, then cut: a token cut in two would no longer be recognised.
      text: maskSecrets(content).text.slice(0, MAX_ATTACHMENT_CHARS), cut,
    };
  });
}

async function writesOf(
  sessionId: string, mine: readonly { log: string; facts: LogFacts }[], historyOf: (id: string) => Promise<MemoryFileHistory | null>,
): Promise<SessionMemoryWrite[]> {
  const writes = mine.flatMap(({ log, facts }) => facts.memory.writes.filter((w) => w.sessionId === sessionId).map((write) => ({ ...write, log })));
  writes.sort((a, b) => compareTimes(a.at, b.at) || (a.log < b.log ? -1 : a.log > b.log ? 1 : 0) || a.line.start - b.line.start);
  const out: SessionMemoryWrite[] = [];
  for (const write of writes) {
    const id = `${write.key}/${write.file}`;
    const made = writeVersionId(write);
    const versions = (await historyOf(id))?.versions ?? [];
    out.push({
      id, file: write.file, tool: write.tool, at: write.at, agentId: write.agentId,
      versionId: versions.some((v) => v.id === made) ? made : null,
    });
  }
  return out;
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : null;
}

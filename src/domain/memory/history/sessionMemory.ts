// What a session saw of memory: its auto-memory folder (the one its own writes or attachments show, else the
// one the settings name now) as it was when the session started (MEMORY.md and the topics, each the version of
// its history at or before the session's first line, the index with what the load budget kept of that
// version), the memory attachments it was handed (sessionAttachments.ts), and the memory files it wrote (the
// memoryWrites facts, each with the version it made).
import path from 'node:path';
import type { FileAtStart, LoadCut, SessionMemoryBody, SessionMemoryWrite } from '../../../contract/sessionMemory.js';
import type { MemoryVersion } from '../../../contract/memoryHistory.js';
import type { MemorySource } from '../../types.js';
import { compareTimes } from '../../history/historyIndex.js';
import { loadBudget } from '../loadBudget.js';
import { encodeProjectPath, gitRootOf } from '../projectKey.js';
import { ALL_PROJECTS } from '../sources.js';
import type { MemoryStore } from '../memoryStore.js';
import type { LogFacts } from '../../transcripts/extractors/index.js';
import { logOwner } from '../../transcripts/transcriptReader.js';
import type { MemoryFileHistory, MemoryHistory } from './memoryHistory.js';
import { writeVersionId } from './memoryStory.js';
import { sessionAttachments } from './sessionAttachments.js';

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
  const folder = folderUsed(sources, sessionId, mine) ?? settingsFolder(sources, projectKey, cwd, root);
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
    folder: folder === null ? null : { sourceId: folder.source.id, dir: folder.source.dir, project: folder.source.project, chosenBy: folder.by },
    atStart: folder === null ? { index: null, topics: [] } : await atStart(folder.source.id, firstAt, o, historyOf),
    ...sessionAttachments(sessionId, mine, await listedIds(o)),
    wrote: await writesOf(sessionId, mine, historyOf),
    incomplete: mine.some(({ facts }) => facts.counts.oversized > 0),
  };
}

type ChosenFolder = { source: MemorySource; by: 'writes' | 'attachments' | 'settings' };

/**
 * The auto-memory folder the session itself shows it used: the listed folder its main thread wrote memory
 * files in, else the one holding the memories its relevant_memories attachments named (subagents' own memory
 * folders aside). The settings may have moved the folder since the session ran; what it did cannot have.
 */
function folderUsed(sources: readonly MemorySource[], sessionId: string, mine: readonly { facts: LogFacts }[]): ChosenFolder | null {
  const folders = sources.filter((s) => !isAgentFolder(s));
  const holding = (filePath: string): MemorySource | undefined =>
    folders.find((s) => filePath.startsWith(s.dir.endsWith(path.sep) ? s.dir : s.dir + path.sep));
  for (const { facts } of mine) {
    for (const write of facts.memory.writes) {
      if (write.sessionId !== sessionId || write.agentId !== null) continue;
      const source = folders.find((s) => s.kind === 'project' && s.id === write.key) ?? holding(write.filePath);
      if (source !== undefined) return { source, by: 'writes' };
    }
  }
  for (const { facts } of mine) {
    for (const read of facts.memoryReads.reads) {
      if (read.kind !== 'relevant_memories' || read.agentId !== null) continue;
      for (const file of read.paths) {
        const source = holding(file);
        if (source !== undefined) return { source, by: 'attachments' };
      }
    }
  }
  return null;
}

/**
 * The one auto-memory folder Claude Code reads for the session, as the settings say now: a repository's
 * autoMemoryDirectory, else the user's, else the git root's default folder.
 */
function settingsFolder(sources: readonly MemorySource[], key: string | null, cwd: string | null, root: string | null): ChosenFolder | null {
  const readers = sources.filter((s) => s.kind === 'custom' && s.active);
  const own = readers.find((s) => s.cwd !== null && (s.cwd === cwd || s.cwd === root) && !isAgentFolder(s));
  const shared = readers.find((s) => s.project === ALL_PROJECTS);
  const byDefault = sources.find((s) => s.kind === 'project' && s.id === key && s.active);
  const source = own ?? shared ?? byDefault ?? null;
  return source === null ? null : { source, by: 'settings' };
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

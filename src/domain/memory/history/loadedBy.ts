// Which sessions were handed a memory file: the relevant_memories attachments (the memoryReads facts) that
// named it, by file. Built once per state of the logs' facts.
import type { SessionLoad } from '../../../contract/memoryHistory.js';
import { compareTimes } from '../../history/historyIndex.js';
import type { LogFacts } from '../../transcripts/extractors/index.js';
import { memoryPathParts } from '../../transcripts/extractors/memoryWrites.js';

/** Sessions listed for one file: the newest. */
export const MAX_LOADED_BY = 100;

export class LoadedBy {
  private kept: { version: number; byFile: Map<string, SessionLoad[]> } | null = null;

  constructor(private readonly facts: { readonly factsVersion: number; logs(): Iterable<[string, LogFacts]> }) {}

  /** The sessions a relevant_memories attachment handed the memory file at `filepath` to, newest first. */
  of(filepath: string): SessionLoad[] {
    return this.byFile().get(fileKey(filepath)) ?? [];
  }

  private byFile(): Map<string, SessionLoad[]> {
    const version = this.facts.factsVersion;
    if (this.kept?.version === version) return this.kept.byFile;
    const bySession = new Map<string, Map<string, SessionLoad>>();
    for (const [, facts] of this.facts.logs()) {
      for (const read of facts.memoryReads.reads) {
        if (read.kind !== 'relevant_memories' || read.sessionId === null) continue;
        for (const named of new Set(read.paths)) {
          const file = fileKey(named);
          const sessions = bySession.get(file) ?? new Map<string, SessionLoad>();
          bySession.set(file, sessions);
          const known = sessions.get(read.sessionId);
          if (known === undefined) sessions.set(read.sessionId, { sessionId: read.sessionId, firstAt: read.at, lastAt: read.at, times: 1 });
          else {
            known.times += 1;
            if (compareTimes(read.at, known.firstAt) < 0) known.firstAt = read.at;
            if (compareTimes(read.at, known.lastAt) > 0) known.lastAt = read.at;
          }
        }
      }
    }
    const byFile = new Map<string, SessionLoad[]>();
    for (const [file, sessions] of bySession) {
      const list = [...sessions.values()].sort((a, b) => compareTimes(b.lastAt, a.lastAt) || (a.sessionId < b.sessionId ? -1 : 1));
      byFile.set(file, list.slice(0, MAX_LOADED_BY));
    }
    this.kept = { version, byFile };
    return byFile;
  }
}

/**
 * A project's memory file by its folder and name (a transcript copied from another machine names that
 * machine's home); a file of another folder (an autoMemoryDirectory) by its path.
 */
function fileKey(filepath: string): string {
  const parts = memoryPathParts(filepath);
  return parts === null ? filepath : `${parts.key}\0${parts.file}`;
}

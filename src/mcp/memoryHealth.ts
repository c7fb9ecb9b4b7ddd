// The `memory_health` tool's answer, from what the memory listing knows of each source: MEMORY.md against
// the limits Claude Code loads it within, its dangling links, the topics it does not link, and whether
// Claude Code still reads the folder.
import type { MemoryListing } from '../domain/types.js';

export interface SourceHealth {
  id: string;
  project: string;
  dir: string;
  active: boolean;
  entryCount: number;
  index: {
    lines: number; lineLimit: number; bytes: number; byteLimit: number;
    /** Past a limit, Claude Code does not load the rest of MEMORY.md. */
    overLineLimit: boolean; overByteLimit: boolean;
    danglingLinks: string[];
  } | null;
  orphans: string[];
  /** What needs care, in words; empty when nothing does. */
  problems: string[];
}

export function memoryHealth(listing: MemoryListing): SourceHealth[] {
  return listing.sources.map((source) => {
    const index = source.index && {
      ...source.index,
      overLineLimit: source.index.lines > source.index.lineLimit,
      overByteLimit: source.index.bytes > source.index.byteLimit,
    };
    const problems: string[] = [];
    if (!source.active) problems.push('Claude Code no longer reads this folder (an autoMemoryDirectory setting points elsewhere)');
    if (index === null) {
      if (source.entryCount > 0) problems.push('no MEMORY.md: no index of these topics is loaded at session start');
    } else {
      if (index.overLineLimit) problems.push(`MEMORY.md has ${index.lines} lines; Claude Code loads the first ${index.lineLimit}`);
      if (index.overByteLimit) problems.push(`MEMORY.md has ${index.bytes} bytes; Claude Code cuts it near ${index.byteLimit} characters`);
      if (index.danglingLinks.length > 0) problems.push(`${index.danglingLinks.length} link(s) in MEMORY.md point to no entry`);
    }
    if (source.orphans.length > 0) problems.push(`${source.orphans.length} topic file(s) not linked from MEMORY.md`);
    return {
      id: source.id, project: source.project, dir: source.dir, active: source.active, entryCount: source.entryCount,
      index, orphans: source.orphans, problems,
    };
  });
}

// The `memory_health` tool's answer: per source, MEMORY.md against the limits Claude Code loads it within,
// its dangling links, the topics it does not link, whether Claude Code still reads the folder, and every
// problem the memory-care checks find in it (GET /api/memory/health's findings, with the fix each offers).
import type { MemoryHealth, MemoryProblem } from '../contract/memoryCare.js';
import type { MemoryListing } from '../domain/types.js';
import { masked } from './masking.js';

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
  /** Each problem the memory-care checks found: kind, file and line, message, and the fix the viewer offers. */
  findings: Pick<MemoryProblem, 'kind' | 'file' | 'line' | 'message' | 'fix'>[];
}

export function memoryHealth(listing: MemoryListing, care: MemoryHealth): SourceHealth[] {
  const findings = new Map(care.sources.map((s) => [s.sourceId, s.problems.map(({ kind, file, line, message, fix }) => ({ kind, file, line, message: masked(message), fix }))]));
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
    // `orphans` stays the literal list; the count in words is the orphan findings' (orphans.ts), as the UI shows.
    const orphans = (findings.get(source.id) ?? []).filter((f) => f.kind === 'orphan').length;
    if (orphans > 0) problems.push(`${orphans} topic file(s) Claude Code learns of only by listing the folder (not linked from MEMORY.md)`);
    return {
      id: source.id, project: source.project, dir: source.dir, active: source.active, entryCount: source.entryCount,
      index, orphans: source.orphans, problems, findings: findings.get(source.id) ?? [],
    };
  });
}

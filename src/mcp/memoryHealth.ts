// The `memory_health` tool's answer: per source, MEMORY.md against the limits Claude Code loads it within,
// its dangling links, the topics it does not link, whether Claude Code still reads the folder, and every
// problem the memory-care checks find in it (GET /api/memory/health's findings, with the fix each offers).
import type { MemoryHealth, MemoryProblem, ProblemKind } from '../contract/memoryCare.js';
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

/** What memory_health is asked: details only on request, and then at most `limit` of each list. */
export interface HealthQuery {
  detail: boolean;
  kind?: ProblemKind;
  limit: number;
}

/** A source as the summary gives it: counts where the details give lists. */
export interface SourceSummary extends Omit<SourceHealth, 'index' | 'orphans' | 'findings'> {
  index: (Omit<NonNullable<SourceHealth['index']>, 'danglingLinks'> & { danglingLinkCount: number }) | null;
  orphanCount: number;
  findingCount: number;
  findingsByKind: Partial<Record<ProblemKind, number>>;
}

function countByKind(findings: readonly { kind: ProblemKind }[]): Partial<Record<ProblemKind, number>> {
  const counts: Partial<Record<ProblemKind, number>> = {};
  for (const f of findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return counts;
}

/**
 * The answer of memory_health. A heavy home has thousands of findings (126k characters of them), more than
 * a model should read to learn whether anything is wrong: by default counts per source and per kind; with
 * `detail` (or a `kind`) the findings themselves, at most `limit` in all, and as many orphans and dangling
 * links per source, with how many were left out.
 */
export function healthAnswer(sources: SourceHealth[], query: HealthQuery): Record<string, unknown> {
  const all = sources.flatMap((s) => s.findings);
  const totals = { sources: sources.length, findings: all.length, findingsByKind: countByKind(all) };
  if (!query.detail && query.kind === undefined) {
    const summaries: SourceSummary[] = sources.map(({ index, orphans, findings, ...rest }) => {
      const shortIndex = index && (({ danglingLinks, ...i }) => ({ ...i, danglingLinkCount: danglingLinks.length }))(index);
      return { ...rest, index: shortIndex, orphanCount: orphans.length, findingCount: findings.length, findingsByKind: countByKind(findings) };
    });
    return {
      ...totals, sources: summaries,
      note: 'Counts only. Call again with detail: true (or kind, or source) for the findings, orphans and dangling links themselves.',
    };
  }
  let room = query.limit;
  const omitted = { findings: 0, orphans: 0, danglingLinks: 0 };
  const detailed = sources.map((s) => {
    const matching = query.kind === undefined ? s.findings : s.findings.filter((f) => f.kind === query.kind);
    const findings = matching.slice(0, Math.max(room, 0));
    room -= findings.length;
    omitted.findings += matching.length - findings.length;
    omitted.orphans += Math.max(s.orphans.length - query.limit, 0);
    const dangling = s.index?.danglingLinks ?? [];
    omitted.danglingLinks += Math.max(dangling.length - query.limit, 0);
    return {
      ...s, index: s.index && { ...s.index, danglingLinks: dangling.slice(0, query.limit) },
      orphans: s.orphans.slice(0, query.limit), findings,
    };
  });
  const cut = omitted.findings + omitted.orphans + omitted.danglingLinks > 0;
  return {
    ...totals, sources: detailed, omitted,
    ...(cut ? { note: `At most ${query.limit} findings in all, and ${query.limit} orphans and dangling links per source; narrow with kind or source, or raise limit.` } : {}),
  };
}

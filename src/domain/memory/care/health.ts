// The health of every memory source (GET /api/memory/health): each detector (detectors/, one file per
// kind of problem) reads the listing and the facts each file's parse already holds (fileFacts.ts), so a
// check reads no file again; only the split-brain detector looks at the disk (whether working
// directories still exist, and repositories' worktree records).
import type { MemoryHealthSource, MemoryProblem } from '../../../contract/memoryCare.js';
import type { MemoryEntry, MemoryListing } from '../../types.js';
import { INDEX_CHAR_LIMIT, INDEX_LINE_LIMIT } from '../loadBudget.js';
import type { ScannedFile } from '../scan.js';
import { type SourceContext, sourceContext } from './context.js';
import { budgetProblems } from './detectors/budget.js';
import { crossSourceDuplicates, duplicateProblems } from './detectors/duplicates.js';
import { frontmatterProblems } from './detectors/frontmatter.js';
import { linkProblems } from './detectors/links.js';
import { secretProblems } from './detectors/secrets.js';
import { splitBrainProblems } from './detectors/splitBrain.js';
import { type StaleOptions, staleProblems } from './detectors/stale.js';
import { compareProblems } from './kinds.js';

export interface HealthInput extends StaleOptions {
  listing: MemoryListing;
  files: ReadonlyMap<string, readonly ScannedFile[]>;
  /** Whether a path exists (split-brain); the file system by default. */
  exists?: (p: string) => boolean;
}

export function memoryHealth(input: HealthInput): MemoryHealthSource[] {
  const entriesBySource = new Map<string, MemoryEntry[]>();
  for (const entry of input.listing.entries) {
    const list = entriesBySource.get(entry.sourceId);
    if (list) list.push(entry);
    else entriesBySource.set(entry.sourceId, [entry]);
  }
  const contexts: SourceContext[] = input.listing.sources.map((source) =>
    sourceContext(source, entriesBySource.get(source.id) ?? [], input.files.get(source.id) ?? []));
  const across = crossSourceDuplicates(contexts);
  const split = splitBrainProblems(input.listing.sources, input.exists);
  return contexts.map((ctx) => {
    const problems: MemoryProblem[] = [
      ...budgetProblems(ctx),
      ...linkProblems(ctx),
      ...frontmatterProblems(ctx),
      ...staleProblems(ctx, input),
      ...duplicateProblems(ctx),
      ...(across.get(ctx.source.id) ?? []),
      ...(split.get(ctx.source.id) ?? []),
      ...secretProblems(ctx),
    ].sort(compareProblems);
    return { sourceId: ctx.source.id, load: loadStats(ctx), pinned: pinnedFiles(ctx), problems };
  });
}

function loadStats(ctx: SourceContext): MemoryHealthSource['load'] {
  const facts = ctx.index?.file.parsed.facts.index;
  if (!facts) return null;
  return {
    lines: facts.totalLines,
    chars: facts.totalChars,
    lineLimit: INDEX_LINE_LIMIT,
    charLimit: INDEX_CHAR_LIMIT,
    keptLines: facts.keptLines,
    keptChars: facts.keptChars,
    truncated: facts.truncated,
    firstUnreadLine: facts.firstUnreadLine,
  };
}

function pinnedFiles(ctx: SourceContext): string[] {
  return [...ctx.byFile.values()].filter((t) => !t.entry.isIndex && t.file.parsed.facts.pinned).map((t) => t.entry.filename);
}

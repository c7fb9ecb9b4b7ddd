// What every detector of the health check works from: one source with its entries, its scanned files
// (and their parses' facts), and the link resolver the listing used.
import type { MemoryProblem } from '../../../contract/memoryCare.js';
import type { MemoryEntry, MemorySource } from '../../types.js';
import { INDEX_FILE, type ScannedFile } from '../scan.js';
import { LinkResolver } from '../linkResolver.js';

export interface SourceContext {
  source: MemorySource;
  /** MEMORY.md first, then topics by file name (listing order). */
  entries: MemoryEntry[];
  byFile: Map<string, { entry: MemoryEntry; file: ScannedFile }>;
  index: { entry: MemoryEntry; file: ScannedFile } | null;
  resolver: LinkResolver<MemoryEntry>;
}

export function sourceContext(source: MemorySource, entries: MemoryEntry[], files: readonly ScannedFile[]): SourceContext {
  const byName = new Map(files.map((f) => [f.filename, f]));
  const byFile = new Map<string, { entry: MemoryEntry; file: ScannedFile }>();
  for (const entry of entries) {
    const file = byName.get(entry.filename);
    if (file) byFile.set(entry.filename, { entry, file });
  }
  return { source, entries, byFile, index: byFile.get(INDEX_FILE) ?? null, resolver: new LinkResolver(entries) };
}

/** Topics only: every entry but MEMORY.md, with its file. */
export function topics(ctx: SourceContext): { entry: MemoryEntry; file: ScannedFile }[] {
  return [...ctx.byFile.values()].filter((t) => !t.entry.isIndex);
}

export type ProblemInit = Omit<MemoryProblem, 'target' | 'related' | 'fix' | 'line'> &
  Partial<Pick<MemoryProblem, 'target' | 'related' | 'fix' | 'line'>>;

export function problem(init: ProblemInit): MemoryProblem {
  return { line: null, fix: null, target: null, related: [], ...init };
}

/** "a, b and 3 more": names in a message without letting one source's message grow without bound. */
export function listNames(names: readonly string[], max = 5): string {
  if (names.length <= max) return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

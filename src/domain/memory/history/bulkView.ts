// A bulk change as GET /api/memory/changes shows it: its folder's source and project, and for each file
// its memory id (listed, or the archive's for a file gone), the versions of its history holding its text
// before and after (GET /api/memory/versions), and whether it is still as the change left it.
import { contentHash } from '../../history/observedVersions.js';
import { memoryPathParts } from '../../transcripts/extractors/memoryWrites.js';
import type { MemoryListing } from '../../types.js';
import type { BulkChange, BulkChangeFile } from '../../../contract/memoryChanges.js';
import type { BulkGroup } from './bulkChanges.js';
import type { MemoryFileHistory } from './memoryHistory.js';

export interface BulkViewSources {
  listing: MemoryListing;
  /** Only the changes of this project's folders (any case). */
  project?: string | undefined;
  /** The content the viewer last saw of the file on disk, or null (never, or gone). */
  lastSeen(filepath: string): string | null;
  history(id: string): Promise<MemoryFileHistory | null>;
  /** Whether a content is still kept (not pruned). */
  kept(sha: string): boolean;
}

export async function describeBulk(groups: readonly BulkGroup[], s: BulkViewSources): Promise<BulkChange[]> {
  const sources = new Map(s.listing.sources.map((source) => [source.dir, source]));
  const ids = new Map(s.listing.entries.map((e) => [e.filepath, e.id]));
  const wanted = s.project?.toLowerCase();
  const out: BulkChange[] = [];
  for (const group of groups) {
    const source = sources.get(group.dir) ?? null;
    if (wanted !== undefined && source?.project.toLowerCase() !== wanted) continue;
    const files: BulkChangeFile[] = [];
    for (const f of group.files) {
      const parts = memoryPathParts(f.path);
      const id = ids.get(f.path) ?? (parts === null ? null : `${parts.key}/${parts.file}`);
      const history = id === null ? null : await s.history(id);
      files.push({
        file: f.file, id: history === null ? null : id, change: f.change, mergedInto: f.mergedInto,
        beforeVersionId: versionOf(history, f.before, group.firstAt, 'before'),
        afterVersionId: versionOf(history, f.after, group.firstAt, 'after'),
        current: s.lastSeen(f.path) === f.after,
        restorable: f.before === null || s.kept(f.before),
      });
    }
    out.push({ id: group.id, dir: group.dir, sourceId: source?.id ?? null, project: source?.project ?? null, firstAt: group.firstAt, lastAt: group.lastAt, files });
  }
  return out;
}

/** The version of the history holding `sha`: the last one before the change, or the first from it on. */
function versionOf(history: MemoryFileHistory | null, sha: string | null, at: string, side: 'before' | 'after'): string | null {
  if (history === null || sha === null) return null;
  const matching = history.versions.filter((v) => {
    const text = history.contents.get(v.id);
    return text !== undefined && contentHash(text) === sha;
  });
  const t = Date.parse(at);
  const when = (v: { at: string | null }): number => (v.at === null ? Number.NaN : Date.parse(v.at));
  if (side === 'before') return (matching.filter((v) => !(when(v) >= t)).at(-1) ?? matching.at(-1))?.id ?? null;
  return (matching.find((v) => when(v) >= t) ?? matching.at(-1))?.id ?? null;
}

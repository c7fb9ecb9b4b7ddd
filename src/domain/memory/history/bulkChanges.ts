// Bulk changes: the changes the viewer saw of memory files (observedVersions' change records) that no
// session explains, grouped per memory folder into bursts. Auto Dream rewrites, merges and deletes many
// files at once and leaves no transcript record (claude-code-formats.md, memory); a session's own writes
// are in its transcript. "No session explains it": no Write or Edit of that file in any transcript within
// SESSION_SLACK_MS of the change (a session's write leaves the file's mtime at the call's time). What the
// viewer wrote itself (memory care's fixes, restores and undos) is no change outside either.
import { contentHash, type ObservedChange } from '../../history/observedVersions.js';
import type { BulkChangeKind } from '../../../contract/memoryChanges.js';

/** Changes of one folder closer than this belong to one burst. */
export const BULK_GAP_MS = 2 * 60_000;
/** A burst is a bulk change from this many files on. */
export const BULK_MIN_FILES = 3;
/** A session's write of the file this close to a change explains it. */
export const SESSION_SLACK_MS = 3 * 60_000;

export interface BulkFileChange {
  path: string;
  file: string;
  change: BulkChangeKind;
  /** The content before (null: created) and after (null: deleted). */
  before: string | null;
  after: string | null;
  mergedInto: string | null;
}

export interface BulkGroup {
  id: string;
  dir: string;
  firstAt: string;
  lastAt: string;
  files: BulkFileChange[];
}

export interface BulkSources {
  changes: readonly ObservedChange[];
  /** The times (ms) of the transcripts' writes of the file at `path`. */
  writeTimes(path: string): readonly number[];
  /** A kept content's text, or null (pruned). */
  content(sha: string): string | null;
}

/** The bulk changes, newest first. */
export function bulkGroups(sources: BulkSources): BulkGroup[] {
  const outside = sources.changes.filter((c) => {
    if (c.viewer === true) return false;
    const at = Date.parse(c.at);
    return !sources.writeTimes(c.path).some((t) => Math.abs(t - at) <= SESSION_SLACK_MS);
  });
  const byDir = new Map<string, ObservedChange[]>();
  for (const change of outside) {
    const list = byDir.get(change.dir) ?? [];
    list.push(change);
    byDir.set(change.dir, list);
  }
  const groups: BulkGroup[] = [];
  for (const [dir, list] of byDir) {
    // Stable: changes of one time stay in the order they were seen.
    const sorted = list.map((c, i) => ({ c, i, t: Date.parse(c.at) })).sort((a, b) => a.t - b.t || a.i - b.i);
    let burst: ObservedChange[] = [];
    let last = -Infinity;
    for (const { c, t } of sorted) {
      if (t - last > BULK_GAP_MS && burst.length > 0) {
        pushGroup(groups, dir, burst, sources.content);
        burst = [];
      }
      burst.push(c);
      last = t;
    }
    if (burst.length > 0) pushGroup(groups, dir, burst, sources.content);
  }
  return groups.sort((a, b) => Date.parse(b.lastAt) - Date.parse(a.lastAt) || (a.id < b.id ? -1 : 1));
}

function pushGroup(groups: BulkGroup[], dir: string, burst: ObservedChange[], content: (sha: string) => string | null): void {
  // Per file: its content before the burst's first change of it, and after its last.
  const byPath = new Map<string, { file: string; before: string | null; after: string | null }>();
  for (const c of burst) {
    const known = byPath.get(c.path);
    if (known === undefined) byPath.set(c.path, { file: c.file, before: c.before, after: c.after });
    else known.after = c.after;
  }
  const files: BulkFileChange[] = [];
  for (const [path, f] of byPath) {
    if (f.before === f.after) continue; // changed and changed back
    const change: BulkChangeKind = f.before === null ? 'created' : f.after === null ? 'deleted' : 'changed';
    files.push({ path, file: f.file, change, before: f.before, after: f.after, mergedInto: null });
  }
  if (files.length < BULK_MIN_FILES) return;
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const f of files) if (f.change === 'deleted') f.mergedInto = mergedInto(f, files, content);
  const id = `b${contentHash(JSON.stringify([dir, burst.map((c) => [c.path, c.before, c.after, c.at])])).slice(0, 16)}`;
  groups.push({ id, dir, firstAt: burst[0]!.at, lastAt: burst.at(-1)!.at, files });
}

/** The changed or created file of the burst that holds most (over half) of a deleted file's non-blank lines, or null. */
function mergedInto(deleted: BulkFileChange, files: readonly BulkFileChange[], content: (sha: string) => string | null): string | null {
  const text = deleted.before === null ? null : content(deleted.before);
  if (text === null) return null;
  const lines = nonBlank(text);
  if (lines.size === 0) return null;
  let best: { file: string; shared: number } | null = null;
  for (const f of files) {
    if (f.after === null) continue;
    const into = content(f.after);
    if (into === null) continue;
    const there = nonBlank(into);
    let shared = 0;
    for (const line of lines) if (there.has(line)) shared++;
    if (shared * 2 > lines.size && (best === null || shared > best.shared)) best = { file: f.file, shared };
  }
  return best?.file ?? null;
}

function nonBlank(text: string): Set<string> {
  return new Set(text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 3)); // not "---" nor a bullet
}

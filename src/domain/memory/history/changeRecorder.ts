// The change records of memory files (observedVersions' ObservedChange), made as the viewer observes them:
// a new content (at the file's mtime) and a file gone (at the mtime of the folder it was in when the
// viewer noticed: when the folder's entries last changed, capped at the notice). A file seen for the first
// time counts as created only in a folder the viewer had already seen: the first look at a home, or at a
// new folder, is no change.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ObservedVersions } from '../../history/observedVersions.js';
import type { MemoryListing } from '../../types.js';

export class ChangeRecorder {
  /** Folders (and their ancestors) of every observed file; built at first use. */
  private known: Set<string> | null = null;
  /** What the viewer itself wrote and has not seen yet: `<path>\0<sha or ->`, oldest first. */
  private readonly own = new Set<string>();

  constructor(private readonly observed: ObservedVersions) {}

  /**
   * The content last seen of the file while it was on disk, or null (never seen, or gone). Asked before a
   * content is observed: the folders seen so far are taken then, before the first observed file adds its own.
   */
  lastSeen(filepath: string): string | null {
    this.knownDirs();
    const seen = this.observed.of(filepath);
    return seen === undefined || seen.goneAt !== null ? null : seen.versions.at(-1)?.sha ?? null;
  }

  /** The viewer wrote these files (a fix, a restore, an undo): the change it sees next of each is marked its own. */
  expect(files: readonly { path: string; after: string | null }[]): void {
    for (const f of files) {
      this.own.delete(ownKey(f.path, f.after));
      this.own.add(ownKey(f.path, f.after));
    }
    for (const key of this.own) {
      if (this.own.size <= MAX_OWN) break;
      this.own.delete(key);
    }
  }

  /** The file `filepath` of `listing` now holds `sha` (kept already), where it held `before`. */
  seen(listing: MemoryListing, filepath: string, before: string | null, sha: string, mtimeMs: number): void {
    if (before === sha) return;
    const place = placeOf(listing, filepath);
    if (place === null) return;
    if (before === null && !this.knownDirs().has(place.dir)) return;
    this.observed.recordChange({ path: filepath, ...place, before, after: sha, at: new Date(mtimeMs).toISOString(), ...this.ownWrite(filepath, sha) });
  }

  /** The file is gone (first noticed now); `before` its last content. */
  async gone(listing: MemoryListing, filepath: string, before: string | null, now = Date.now()): Promise<void> {
    if (before === null) return;
    const place = placeOf(listing, filepath);
    if (place === null) return;
    let at = now;
    for (const folder of [path.dirname(filepath), place.dir]) {
      const mtime = await stat(folder).then((s) => s.mtimeMs, () => null);
      if (mtime !== null) {
        at = Math.min(mtime, now);
        break;
      }
    }
    this.observed.recordChange({ path: filepath, ...place, before, after: null, at: new Date(at).toISOString(), ...this.ownWrite(filepath, null) });
  }

  /** Every listed folder's files have been observed: new files there are changes from now on. */
  passDone(listing: MemoryListing): void {
    const known = this.knownDirs();
    for (const source of listing.sources) known.add(source.dir);
  }

  private ownWrite(filepath: string, after: string | null): { viewer?: true } {
    return this.own.delete(ownKey(filepath, after)) ? { viewer: true } : {};
  }

  private knownDirs(): Set<string> {
    if (this.known === null) {
      this.known = new Set();
      for (const filepath of this.observed.paths()) {
        for (let dir = path.dirname(filepath); !this.known.has(dir); dir = path.dirname(dir)) {
          this.known.add(dir);
          if (path.dirname(dir) === dir) break;
        }
      }
    }
    return this.known;
  }
}

/** Writes of the viewer's own not seen yet that are remembered. */
const MAX_OWN = 10_000;

const ownKey = (filepath: string, after: string | null): string => `${filepath}\0${after ?? '-'}`;

/** The memory folder holding `filepath` (the listed source deepest above it) and its name there, or null. */
function placeOf(listing: MemoryListing, filepath: string): { dir: string; file: string } | null {
  let best: string | null = null;
  for (const source of listing.sources) {
    if (filepath.startsWith(source.dir + path.sep) && (best === null || source.dir.length > best.length)) best = source.dir;
  }
  return best === null ? null : { dir: best, file: path.relative(best, filepath).split(path.sep).join('/') };
}

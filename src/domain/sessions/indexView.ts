// The answers the session index serves, folded from every file's facts. Rebuilt after updates rather
// than patched: it is linear in sessions and slugs (small), and rebuilding cannot drift from the files.
import type { TrackedLog } from './logReader.js';

export interface TrackedFile {
  /** The project folder (first segment below the projects dir). */
  folder: string;
  log: TrackedLog;
}

export interface IndexView {
  /** slug -> sessionId */
  slugs: Map<string, string>;
  /** sessionId -> cwd */
  sessions: Map<string, string>;
  /** project folder key -> absolute dir */
  folders: Map<string, string>;
  /** project folder key -> last cwd seen in its logs */
  folderCwds: Map<string, string>;
  /** Distinct cwds, sorted. */
  cwds: string[];
}

/**
 * Across files the most recently modified one wins (ties: the larger path), so every map is filled
 * from the files in that order and later entries overwrite earlier ones.
 */
export function buildView(files: ReadonlyMap<string, TrackedFile>, folders: ReadonlyMap<string, string>): IndexView {
  const ordered = [...files].sort(([pathA, a], [pathB, b]) =>
    a.log.mtimeMs !== b.log.mtimeMs ? a.log.mtimeMs - b.log.mtimeMs : pathA < pathB ? -1 : pathA > pathB ? 1 : 0,
  );
  const view: IndexView = { slugs: new Map(), sessions: new Map(), folders: new Map(folders), folderCwds: new Map(), cwds: [] };
  for (const [, file] of ordered) {
    const { facts } = file.log;
    for (const [slug, sessionId] of facts.slugs) view.slugs.set(slug, sessionId);
    for (const [sessionId, cwd] of facts.sessions) view.sessions.set(sessionId, cwd);
    if (facts.lastCwd !== null) view.folderCwds.set(file.folder, facts.lastCwd);
  }
  const cwds = new Set([...view.sessions.values(), ...view.folderCwds.values()]);
  view.cwds = [...cwds].sort();
  return view;
}

function sameMap(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

export function sameView(a: IndexView, b: IndexView): boolean {
  return (
    sameMap(a.slugs, b.slugs) && sameMap(a.sessions, b.sessions) &&
    sameMap(a.folders, b.folders) && sameMap(a.folderCwds, b.folderCwds)
  );
}

/** Whether `later` still says everything `earlier` said (a log that only grew). */
export function extendsFacts(later: TrackedLog['facts'], earlier: TrackedLog['facts']): boolean {
  for (const slug of earlier.slugs.keys()) if (!later.slugs.has(slug)) return false;
  for (const sessionId of earlier.sessions.keys()) if (!later.sessions.has(sessionId)) return false;
  return earlier.lastCwd === null || later.lastCwd !== null;
}

/**
 * Applies one file's facts on top of the view, as buildView() would with that file last in its order (it
 * must be: the most recently modified, see the caller). Returns whether any answer changed. A log being
 * appended to is the common change, and a full rebuild (a sort of every tracked file) cost ~15 ms each.
 */
export function patchView(view: IndexView, file: TrackedFile): boolean {
  const { facts } = file.log;
  let changed = false;
  let cwdsMoved = false;
  for (const [slug, sessionId] of facts.slugs) {
    if (view.slugs.get(slug) !== sessionId) {
      view.slugs.set(slug, sessionId);
      changed = true;
    }
  }
  for (const [sessionId, cwd] of facts.sessions) {
    const before = view.sessions.get(sessionId);
    if (before !== cwd) {
      view.sessions.set(sessionId, cwd);
      changed = true;
      cwdsMoved = true;
    }
  }
  if (facts.lastCwd !== null && view.folderCwds.get(file.folder) !== facts.lastCwd) {
    view.folderCwds.set(file.folder, facts.lastCwd);
    changed = true;
    cwdsMoved = true;
  }
  if (cwdsMoved) view.cwds = [...new Set([...view.sessions.values(), ...view.folderCwds.values()])].sort();
  return changed;
}

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

/** The order of buildView(): by mtime, ties by path. */
export function viewOrder(a: [string, TrackedFile], b: [string, TrackedFile]): number {
  const d = a[1].log.mtimeMs - b[1].log.mtimeMs;
  return d !== 0 ? d : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

type Entry = [path: string, file: TrackedFile];

/**
 * Files folded into the answers one at a time, in any order. Across files the most recently modified one
 * wins (ties: the larger path): each map holds, for each key, the value of the last file in viewOrder
 * that has the key, so a key keeps the latest file seen so far and nothing is sorted.
 */
class ViewFold {
  /** Files added so far. */
  count = 0;
  private readonly slugs = new Map<string, string>();
  private readonly sessions = new Map<string, string>();
  private readonly folderCwds = new Map<string, string>();
  // Which file each key's value came from.
  private readonly slugFrom = new Map<string, Entry>();
  private readonly sessionFrom = new Map<string, Entry>();
  private readonly folderFrom = new Map<string, Entry>();
  private entry: Entry | null = null;
  // Callbacks made once, forEach rather than for-of (no iterator per map): this runs mostly in the interpreter.
  private readonly setSlug = (sessionId: string, slug: string): void => {
    if (this.latest(this.slugFrom, slug)) this.slugs.set(slug, sessionId);
  };
  private readonly setSession = (cwd: string, sessionId: string): void => {
    if (this.latest(this.sessionFrom, sessionId)) this.sessions.set(sessionId, cwd);
  };

  add(filepath: string, file: TrackedFile): void {
    this.entry = [filepath, file];
    this.count++;
    const facts = file.log.facts;
    facts.slugs.forEach(this.setSlug);
    facts.sessions.forEach(this.setSession);
    if (facts.lastCwd !== null && this.latest(this.folderFrom, file.folder)) this.folderCwds.set(file.folder, facts.lastCwd);
  }

  /** The view of the files added, with these project folders. It holds the fold's maps: add no more files. */
  view(folders: ReadonlyMap<string, string>): IndexView {
    const view: IndexView = { slugs: this.slugs, sessions: this.sessions, folders: new Map(folders), folderCwds: this.folderCwds, cwds: [] };
    view.cwds = distinctCwds(view);
    return view;
  }

  /** Whether the file being added is later (viewOrder) than the one `key` holds now; if so it holds it. */
  private latest(from: Map<string, Entry>, key: string): boolean {
    const current = from.get(key);
    if (current !== undefined && viewOrder(current, this.entry!) > 0) return false;
    from.set(key, this.entry!);
    return true;
  }
}

/** The answers for these files (see ViewFold). */
export function buildView(files: ReadonlyMap<string, TrackedFile>, folders: ReadonlyMap<string, string>): IndexView {
  const fold = new ViewFold();
  files.forEach((file, filepath) => fold.add(filepath, file));
  return fold.view(folders);
}

function distinctCwds(view: IndexView): string[] {
  const cwds = new Set<string>();
  view.sessions.forEach((cwd) => cwds.add(cwd));
  view.folderCwds.forEach((cwd) => cwds.add(cwd));
  return [...cwds].sort();
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
  if (cwdsMoved) view.cwds = distinctCwds(view);
  return changed;
}

// The answers the session index serves, folded from every file's link facts (transcripts/extractors/links.ts).
// Rebuilt after updates rather than patched: it is linear in sessions and slugs (small), and rebuilding
// cannot drift from the files.
import type { LinkFacts, SessionCwd } from '../transcripts/logFacts.js';
import type { TrackedLog } from '../transcripts/transcriptReader.js';

export interface TrackedFile {
  /** The project folder (first segment below the projects dir). */
  folder: string;
  log: TrackedLog;
}

export interface IndexView {
  /** slug -> sessionId */
  slugs: Map<string, string>;
  /** sessionId -> the cwd it started in, and how sure that is */
  sessions: Map<string, SessionCwd>;
  /** project folder key -> absolute dir */
  folders: Map<string, string>;
  /** project folder key -> the cwd it stands for (see LinkFacts.folderCwd) */
  folderCwds: Map<string, SessionCwd>;
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
 * that has the key, so a key keeps the latest file seen so far and nothing is sorted. A session's cwd is
 * the surest one (see CwdRank), the latest file's among equally sure ones.
 */
class ViewFold {
  /** Files added so far. */
  count = 0;
  private readonly slugs = new Map<string, string>();
  private readonly sessions = new Map<string, SessionCwd>();
  private readonly folderCwds = new Map<string, SessionCwd>();
  // Which file each key's value came from.
  private readonly slugFrom = new Map<string, Entry>();
  private readonly sessionFrom = new Map<string, Entry>();
  private readonly folderFrom = new Map<string, Entry>();
  private entry: Entry | null = null;
  // Callbacks made once, forEach rather than for-of (no iterator per map): this runs mostly in the interpreter.
  private readonly setSlug = (sessionId: string, slug: string): void => {
    if (this.latest(this.slugFrom, slug)) this.slugs.set(slug, sessionId);
  };
  private readonly setSession = (cwd: SessionCwd, sessionId: string): void => {
    if (this.surest(this.sessions, this.sessionFrom, sessionId, cwd)) this.sessions.set(sessionId, cwd);
  };

  add(filepath: string, file: TrackedFile): void {
    this.entry = [filepath, file];
    this.count++;
    const facts = file.log.facts.links;
    facts.slugs.forEach(this.setSlug);
    facts.sessions.forEach(this.setSession);
    if (facts.folderCwd !== null && this.surest(this.folderCwds, this.folderFrom, file.folder, facts.folderCwd)) {
      this.folderCwds.set(file.folder, facts.folderCwd);
    }
  }

  /** The view of the files added, with these project folders. It holds the fold's maps: add no more files. */
  view(folders: ReadonlyMap<string, string>): IndexView {
    const view: IndexView = {
      slugs: this.slugs, sessions: this.sessions, folders: new Map(folders), folderCwds: this.folderCwds, cwds: [],
    };
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

  /** Whether `next` is surer than what `key` holds, or as sure and from a later file; if so it holds it. */
  private surest(values: Map<string, SessionCwd>, from: Map<string, Entry>, key: string, next: SessionCwd): boolean {
    const known = values.get(key);
    if (known !== undefined && known.rank !== next.rank) {
      if (known.rank > next.rank) return false;
      from.set(key, this.entry!);
      return true;
    }
    return this.latest(from, key);
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
  view.sessions.forEach(({ cwd }) => cwds.add(cwd));
  view.folderCwds.forEach(({ cwd }) => cwds.add(cwd));
  return [...cwds].sort();
}

function sameMap(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

/** Same cwds (how sure each is does not change an answer). */
function sameCwds(a: ReadonlyMap<string, SessionCwd>, b: ReadonlyMap<string, SessionCwd>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key)?.cwd !== value.cwd) return false;
  return true;
}

export function sameView(a: IndexView, b: IndexView): boolean {
  return (
    sameMap(a.slugs, b.slugs) && sameCwds(a.sessions, b.sessions) &&
    sameMap(a.folders, b.folders) && sameCwds(a.folderCwds, b.folderCwds)
  );
}

/** Whether `later` still says everything `earlier` said (a log that only grew). */
export function extendsFacts(later: LinkFacts, earlier: LinkFacts): boolean {
  for (const slug of earlier.slugs.keys()) if (!later.slugs.has(slug)) return false;
  for (const [sessionId, cwd] of earlier.sessions) if (later.sessions.get(sessionId)?.cwd !== cwd.cwd) return false;
  return earlier.folderCwd === null || later.folderCwd?.cwd === earlier.folderCwd.cwd;
}

/**
 * Applies one file's facts on top of the view, as buildView() would with that file last in its order (it
 * must be: the most recently modified, see the caller); a cwd replaces one at least as sure (see
 * ViewFold). Returns whether any answer changed. A log being appended to is the common change, and a full rebuild (a sort of every tracked file)
 * cost ~15 ms each.
 */
export function patchView(view: IndexView, file: TrackedFile): boolean {
  const facts = file.log.facts.links;
  let changed = false;
  let cwdsMoved = false;
  for (const [slug, sessionId] of facts.slugs) {
    if (view.slugs.get(slug) !== sessionId) {
      view.slugs.set(slug, sessionId);
      changed = true;
    }
  }
  for (const [sessionId, cwd] of facts.sessions) {
    const known = view.sessions.get(sessionId);
    if (known === undefined || (cwd.rank >= known.rank && known.cwd !== cwd.cwd)) {
      view.sessions.set(sessionId, cwd);
      changed = true;
      cwdsMoved = true;
    } else if (cwd.rank >= known.rank) {
      view.sessions.set(sessionId, cwd);
    }
  }
  const folderCwd = facts.folderCwd;
  const knownFolder = view.folderCwds.get(file.folder);
  if (folderCwd !== null && (knownFolder === undefined || folderCwd.rank >= knownFolder.rank)) {
    if (knownFolder?.cwd !== folderCwd.cwd) {
      changed = true;
      cwdsMoved = true;
    }
    view.folderCwds.set(file.folder, folderCwd);
  }
  if (cwdsMoved) view.cwds = distinctCwds(view);
  return changed;
}

// One non-recursive fs.watch (one inotify watch) per directory of a tree, down to a depth. Nothing is
// kept per file: the kernel says which entry changed, and an entry is lstat'ed only when it could be a
// directory that needs watching. A chokidar-style crawl (an lstat per file, per-file bookkeeping) cost
// ~140 MB and seconds of CPU on a home with 8,700 logs, and stalled the event loop on mass deletions.
import { EventEmitter } from 'node:events';
import { watch, type FSWatcher, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { lstatOrNull } from '../domain/files.js';
import { TimeSlicer } from '../domain/timeSlicer.js';

export interface DirWatchHandlers {
  /** Entries never watched nor reported (transient names, the owner's ignore list). */
  skip(absPath: string, name: string): boolean;
  /** Any event the kernel delivered (the burst heuristic counts them). */
  raw(): void;
  /** A non-directory entry was added, changed or removed. */
  file(absPath: string): void;
  /** Entries may have changed without a file event for each (a subtree moved out, a lost event). */
  lost(): void;
  /** The root directory itself was removed, moved or replaced: check it. */
  rootEvent(): void;
}

interface Entry {
  readonly path: string;
  readonly level: number;
  readonly parent: Entry | null;
  readonly children: Map<string, Entry>;
  fsw: FSWatcher | null;
  closed: boolean;
}

// A new directory (mv of a populated folder into the tree) is reported file by file up to this many files;
// beyond, one rescan is cheaper for the owner than thousands of single-file updates.
const NEW_DIR_MAX_FILES = 200;
// Directories read at once during a crawl: enough to keep libuv's 4 threads busy, few enough that the
// server's own file reads are not queued behind hundreds of readdirs.
const CRAWL_PARALLEL = 8;
// Benign: the directory went away while being set up (ENOENT, ENOTDIR), is a symlink loop (ELOOP), or is
// unreadable by us (EACCES), in which case nothing in it could be served anyway.
const BENIGN = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES']);

/**
 * Emits 'error' for a watch that could not be set up for a reason that loses events (ENOSPC, EMFILE,
 * EPERM...). Exposes getWatched() and close() with the shape chokidar had, which the tests rely on.
 */
export class DirWatchSet extends EventEmitter {
  private root: Entry | null = null;
  private closed = false;

  constructor(
    private readonly rootPath: string,
    private readonly depth: number,
    private readonly handlers: DirWatchHandlers,
  ) {
    super();
  }

  /** (Re)watches the root from scratch; resolves when every directory within the depth is watched. */
  start(): Promise<void> {
    this.clear();
    if (this.closed) return Promise.resolve();
    this.root = this.watch(this.rootPath, null);
    return this.root ? this.crawl(this.root, null) : Promise.resolve();
  }

  /** Drops every watch (the root vanished); start() may be called again. */
  clear(): void {
    if (this.root) this.unwatch(this.root);
    this.root = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clear();
  }

  /** Watched directory -> its watched subdirectory names. */
  getWatched(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    const visit = (e: Entry): void => {
      out[e.path] = [...e.children.keys()];
      for (const child of e.children.values()) visit(child);
    };
    if (this.root) visit(this.root);
    return out;
  }

  private watch(dir: string, parent: Entry | null): Entry | null {
    if (this.closed || parent?.closed) return null;
    const name = path.basename(dir);
    if (parent?.children.has(name)) return null;
    const entry: Entry = { path: dir, level: parent ? parent.level + 1 : 0, parent, children: new Map(), fsw: null, closed: false };
    try {
      entry.fsw = watch(dir, { persistent: false }, (type, filename) => this.onEvent(entry, type, filename));
    } catch (error) {
      this.failed(error);
      return null;
    }
    entry.fsw.on('error', (error) => {
      this.unwatch(entry);
      this.failed(error);
    });
    parent?.children.set(name, entry);
    return entry;
  }

  private unwatch(entry: Entry): void {
    if (entry.closed) return;
    entry.closed = true;
    entry.fsw?.close();
    entry.fsw = null;
    for (const child of entry.children.values()) this.unwatch(child);
    entry.children.clear();
    if (entry.parent?.children.get(path.basename(entry.path)) === entry) entry.parent.children.delete(path.basename(entry.path));
  }

  /**
   * Watches every directory below `from` within the depth, breadth first. Each directory is watched
   * before it is listed, so an entry created meanwhile is either listed or reported by the watch.
   * With `found`, the files seen are collected (up to one past NEW_DIR_MAX_FILES).
   */
  private async crawl(from: Entry, found: string[] | null): Promise<void> {
    // Setting up a watch costs ~50 us: the projects dir of a heavy home (300 folders) took 15-20 ms in
    // one piece right after start, when the first requests come.
    const slicer = new TimeSlicer();
    let level = [from];
    while (level.length > 0 && !from.closed) {
      const next: Entry[] = [];
      for (let i = 0; i < level.length; i += CRAWL_PARALLEL) {
        await Promise.all(level.slice(i, i + CRAWL_PARALLEL).map((e) => this.expand(e, next, found, slicer)));
      }
      level = next;
    }
  }

  private async expand(entry: Entry, next: Entry[], found: string[] | null, slicer: TimeSlicer): Promise<void> {
    if (entry.closed) return;
    let dirents;
    try {
      dirents = await readdir(entry.path, { withFileTypes: true });
    } catch (error) {
      return this.failed(error);
    }
    for (const d of dirents) {
      // Not an await per entry: the plans folder alone has thousands.
      if (slicer.due()) await slicer.pause();
      if (entry.closed) return;
      // readdir's file type is the entry's own: a symlink to a directory is a symlink, never descended
      // (one `memory/x -> /` once meant tens of thousands of watches and minutes of crawling).
      const dir = d.isDirectory();
      // Files matter only when reported: the initial crawl does not even build their paths.
      if (dir ? entry.level >= this.depth : !found || found.length > NEW_DIR_MAX_FILES) continue;
      const p = path.join(entry.path, d.name);
      if (this.handlers.skip(p, d.name)) continue;
      if (!dir) found!.push(p);
      else {
        const child = this.watch(p, entry);
        if (child) next.push(child);
      }
    }
  }

  private onEvent(entry: Entry, type: string, filename: string | null): void {
    if (entry.closed || this.closed) return;
    this.handlers.raw();
    if (filename === null) return this.relist(entry);
    // The watched directory itself going (deleted, moved) is reported under its own name, like an entry.
    if (filename === path.basename(entry.path)) {
      if (entry === this.root) this.handlers.rootEvent();
      else if (!isDir(lstatOrNull(entry.path))) return; // its parent's watch reports the removal
      if (entry.closed) return;
    }
    const p = path.join(entry.path, filename);
    if (this.handlers.skip(p, filename)) return;
    const child = entry.children.get(filename);
    // 'change' is a write or an attribute change: nothing appeared or vanished, no lstat needed (the
    // path taken by every append to a session log).
    if (type === 'change') return child ? undefined : this.handlers.file(p);
    // At the depth limit a new directory would not be watched anyway: report without an lstat.
    if (entry.level >= this.depth) return this.handlers.file(p);
    const stats = lstatOrNull(p);
    if (child) {
      // Whatever happened to a watched directory (removed, moved away, replaced), its old watches are
      // dead or now watch another place; the files it held are not known one by one.
      this.unwatch(child);
      this.handlers.lost();
    }
    if (isDir(stats)) this.watchNew(p, entry);
    else if (!child) this.handlers.file(p);
  }

  /** A directory appeared (mkdir, or mv of a populated folder): watch it and report what it holds. */
  private watchNew(dir: string, parent: Entry): void {
    const entry = this.watch(dir, parent);
    if (!entry) return;
    const found: string[] = [];
    void this.crawl(entry, found).then(() => {
      if (entry.closed) return;
      if (found.length > NEW_DIR_MAX_FILES) this.handlers.lost();
      else for (const file of found) this.handlers.file(file);
    });
  }

  /** The kernel named no entry: re-sync the subdirectories and let the owner re-list. */
  private relist(entry: Entry): void {
    this.handlers.lost();
    if (entry.level >= this.depth) return;
    void readdir(entry.path, { withFileTypes: true }).then((dirents) => {
      if (entry.closed) return;
      const dirs = new Set<string>();
      for (const d of dirents) {
        if (!d.isDirectory() || this.handlers.skip(path.join(entry.path, d.name), d.name)) continue;
        dirs.add(d.name);
        if (!entry.children.has(d.name)) this.watchNew(path.join(entry.path, d.name), entry);
      }
      for (const [name, child] of entry.children) if (!dirs.has(name)) this.unwatch(child);
    }, (error: unknown) => this.failed(error));
  }

  private failed(error: unknown): void {
    if (this.closed) return;
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code && BENIGN.has(code)) return;
    this.emit('error', error instanceof Error ? error : new Error(String(error)));
  }
}

function isDir(stats: Stats | null): boolean {
  return stats?.isDirectory() ?? false;
}

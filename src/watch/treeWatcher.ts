// A chokidar watch on one folder that keeps working when the folder is missing at start, deleted, or
// recreated (chokidar reports the folder appearing but does not watch inside it until re-added).
import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '../domain/types.js';

export type TreeEvent =
  | { kind: 'file'; path: string }
  | { kind: 'root-appeared' }
  | { kind: 'root-vanished' }
  /** Events may have been lost (a burst overflowed the kernel's queue): re-list the whole tree. */
  | { kind: 'rescan' };

export interface TreeWatchOptions {
  depth: number;
  /** Paths to skip entirely (never stat'ed further, never reported). */
  ignore?: (absPath: string, stats?: Stats) => boolean;
  /** A burst of events for one path within this window is delivered once. */
  debounceMs?: number;
  onEvent: (event: TreeEvent) => void;
  /** The watch itself failed (ENOSPC, EMFILE, EPERM): the owner falls back to periodic rescans. */
  onError: (error: Error) => void;
  logger?: Logger;
}

/** Dotfiles and in-flight atomic writes are never of interest to any watcher here. */
export function isTransientName(name: string): boolean {
  return name.startsWith('.') || name.includes('.tmp.');
}

// chokidar cannot watch a folder whose parent is missing either; a missing root is polled for instead.
const ROOT_POLL_MS = 250;
// A root deleted and recreated within a few milliseconds can slip past chokidar, whose watch then sits on
// the dead inode and never reports again: the root's identity is re-checked this often, and after removals.
const ROOT_CHECK_MS = 1000;
// inotify drops events silently once its queue (16,384 by default) overflows, as it does when thousands of
// files change at once; chokidar notices only at the next event in that folder. After a burst of this
// many events, the owner re-lists the tree once it has been quiet for BURST_QUIET_MS.
const BURST_EVENTS = 500;
const BURST_QUIET_MS = 300;
// chokidar reports at most one change per file every 50 ms and drops the rest (no trailing edge): after
// each delivery the file is looked at again this much later, and delivered again if it moved meanwhile.
const TRAILING_MS = 75;

export class TreeWatcher {
  private readonly watcher: FSWatcher;
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly trailing = new Map<string, NodeJS.Timeout>();
  private closed = false;
  private rootExists: boolean;
  private rootPoll: NodeJS.Timeout | null = null;
  /** Identity of the root directory being watched (see dirId); null while it is missing. */
  private rootId: string | null;
  private readonly rootCheck: NodeJS.Timeout;
  private checking = false;
  private burst = 0;
  private burstTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly root: string,
    private readonly options: TreeWatchOptions,
  ) {
    this.watcher = watch(root, {
      ignoreInitial: true,
      depth: options.depth,
      ignored: (p: string, stats?: Stats) => p !== root &&
        (isTransientName(path.basename(p)) || isSymlinkToDir(p, stats) || (options.ignore?.(p, stats) ?? false)),
    });
    this.rootId = dirId(root);
    this.rootExists = this.rootId !== null;
    if (!this.rootExists) this.pollForRoot();
    this.rootCheck = setInterval(() => void this.checkRoot(), ROOT_CHECK_MS);
    this.rootCheck.unref();
    this.watcher.on('all', (event, p) => this.handle(event, p));
    this.watcher.on('error', (error: unknown) => {
      if (this.closed) return;
      // A symlink loop is not a file (security rule 10): nothing is lost by not watching it, so it must
      // not switch the whole viewer to periodic rescans.
      if ((error as NodeJS.ErrnoException | null)?.code === 'ELOOP') return;
      options.onError(error instanceof Error ? error : new Error(String(error)));
    });
  }

  /** Resolves once the initial crawl is done, so events after it are not missed. */
  ready(): Promise<void> {
    return new Promise((resolve) => this.watcher.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.rootPoll) clearInterval(this.rootPoll);
    clearInterval(this.rootCheck);
    if (this.burstTimer) clearTimeout(this.burstTimer);
    for (const timer of this.pending.values()) clearTimeout(timer);
    for (const timer of this.trailing.values()) clearTimeout(timer);
    this.pending.clear();
    this.trailing.clear();
    await this.watcher.close();
  }

  private rootAppeared(): void {
    if (this.rootExists || this.closed) return;
    this.rootExists = true;
    this.rootId = dirId(this.root);
    if (this.rootPoll) clearInterval(this.rootPoll);
    this.rootPoll = null;
    this.watcher.unwatch(this.root);
    this.watcher.add(this.root);
    this.options.onEvent({ kind: 'root-appeared' });
  }

  private rootVanished(): void {
    if (!this.rootExists || this.closed) return;
    this.rootExists = false;
    this.options.onEvent({ kind: 'root-vanished' });
    this.pollForRoot();
  }

  /** Notices a root that vanished, or was replaced by a new directory, without chokidar saying so. */
  private async checkRoot(): Promise<void> {
    if (this.closed || !this.rootExists || this.checking) return;
    this.checking = true;
    const s = await stat(this.root).catch(() => null);
    this.checking = false;
    if (this.closed || !this.rootExists) return;
    if (!s?.isDirectory()) return this.rootVanished();
    if (identity(s) !== this.rootId) {
      // Re-watch the new directory and let the owner re-list it.
      this.rootExists = false;
      this.rootAppeared();
    }
  }

  private pollForRoot(): void {
    if (this.rootPoll) return;
    this.rootPoll = setInterval(() => {
      void stat(this.root).then((s) => s.isDirectory() && this.rootAppeared(), () => undefined);
    }, ROOT_POLL_MS);
    this.rootPoll.unref();
  }

  private handle(event: string, p: string): void {
    if (this.closed) return;
    if (p === this.root) {
      if (event === 'addDir') this.rootAppeared();
      else if (event === 'unlinkDir') this.rootVanished();
      return;
    }
    this.countBurst();
    // A removal may be the root itself going (rm -r reports the files first): check it now.
    if (event === 'unlink' || event === 'unlinkDir') void this.checkRoot();
    // Subfolders: chokidar crawls new ones itself and reports their files one by one.
    if (event === 'addDir' || event === 'unlinkDir') return;
    const delay = this.options.debounceMs ?? 20;
    const existing = this.pending.get(p);
    if (existing) clearTimeout(existing);
    this.pending.set(p, setTimeout(() => {
      this.pending.delete(p);
      this.deliver(p);
    }, delay));
  }

  private deliver(p: string): void {
    if (this.closed) return;
    this.options.onEvent({ kind: 'file', path: p });
    void this.checkLater(p);
  }

  /**
   * The last append to a session log, or the last of two quick saves of a plan, can fall in chokidar's
   * 50 ms throttle and never be reported: it would stay unread until some later change to that file.
   */
  private async checkLater(p: string): Promise<void> {
    const before = await signature(p);
    if (this.closed) return;
    const existing = this.trailing.get(p);
    if (existing) clearTimeout(existing);
    this.trailing.set(p, setTimeout(() => {
      this.trailing.delete(p);
      void signature(p).then((after) => {
        if (after !== before && !this.pending.has(p)) this.deliver(p);
      });
    }, TRAILING_MS));
  }

  private countBurst(): void {
    this.burst++;
    if (this.burstTimer) clearTimeout(this.burstTimer);
    this.burstTimer = setTimeout(() => {
      const events = this.burst;
      this.burst = 0;
      this.burstTimer = null;
      if (events >= BURST_EVENTS && !this.closed) this.options.onEvent({ kind: 'rescan' });
    }, BURST_QUIET_MS);
  }
}

/**
 * Symlinked directories below the root are not followed: chokidar would crawl and watch whatever they
 * point to, and one `memory/x -> /` (a repository can ship it) meant tens of thousands of inotify watches
 * and minutes of crawling. The root itself may be a symlink, and symlinked files are still watched.
 * chokidar passes lstat results while listing a directory, so a link shows up here as a link.
 */
function isSymlinkToDir(p: string, stats?: Stats): boolean {
  if (!stats?.isSymbolicLink()) return false;
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** What a change to a file moves: its inode (atomic saves), size or modification time. */
async function signature(p: string): Promise<string> {
  try {
    const s = await stat(p);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'gone';
  }
}

/** A recreated directory often gets the freed inode number back; its birth time tells it apart. */
function identity(s: Stats): string {
  return `${s.dev}:${s.ino}:${s.birthtimeMs}`;
}

function dirId(p: string): string | null {
  try {
    const s = statSync(p);
    return s.isDirectory() ? identity(s) : null;
  } catch {
    return null;
  }
}

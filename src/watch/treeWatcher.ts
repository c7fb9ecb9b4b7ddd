// A watch on one folder tree that keeps working when the folder is missing at start, deleted, or
// recreated, built on one plain fs.watch per directory (see dirWatches.ts).
import { statSync, type Stats } from 'node:fs';
import type { Logger } from '../domain/types.js';
import { KeyedDebouncer } from './debounce.js';
import { DirWatchSet } from './dirWatches.js';

export type TreeEvent =
  | { kind: 'file'; path: string }
  | { kind: 'root-appeared' }
  | { kind: 'root-vanished' }
  /** Events may have been lost (a burst overflowed the kernel's queue): re-list the whole tree. */
  | { kind: 'rescan' };

export interface TreeWatchOptions {
  depth: number;
  /** Paths to skip entirely (never descended, never reported). Called with no stat at all. */
  ignore?: (absPath: string) => boolean;
  /** Changes to one path closer together than this are delivered once, after the last one. */
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

// inotify cannot watch a folder that does not exist yet: a missing root is polled for instead.
const ROOT_POLL_MS = 250;
// A root that is a symlink can be repointed without any event on the directory it pointed to, so the
// root's identity is also re-checked this often (deletions and moves of the root are reported at once).
const ROOT_CHECK_MS = 1000;
// inotify drops events silently once its queue (16,384 by default) overflows, as it does when thousands of
// files change at once. After a burst of this many events, the owner re-lists the tree once it has been
// quiet for BURST_QUIET_MS.
const BURST_EVENTS = 500;
const BURST_QUIET_MS = 300;
// The writers here make one event per logical change (plans are renamed into place, a log line is one
// append), so the debounce only has to merge the few syscalls of one write (truncate + write of an
// in-place save), which land microseconds apart. Short, so a new log line is read within a few ms.
const DEFAULT_DEBOUNCE_MS = 5;
// A log appended to without pause is still delivered this often, not only once it goes quiet.
const MAX_WAIT_MS = 50;
// Owners handle a file event with synchronous reads chained on a promise queue, so events delivered
// together are handled without the event loop getting a turn: 10,000 plans written at once stalled it
// for a second. At most this many file events are delivered per turn of the loop.
const DELIVER_SLICE = 32;
// Subtrees vanishing one after another (rm -r of a project) ask for one rescan, not one each.
const RESCAN_DEBOUNCE_MS = 100;

export class TreeWatcher {
  /** The per-directory watches (tests reach into it). */
  readonly watcher: DirWatchSet;
  private readonly files: KeyedDebouncer;
  private readonly started: Promise<void>;
  private closed = false;
  private rootExists = false;
  private rootPoll: NodeJS.Timeout | null = null;
  /** Identity of the root directory being watched (see identity); null while it is missing. */
  private rootId: string | null = null;
  private readonly rootCheck: NodeJS.Timeout;
  private burst = 0;
  private burstTimer: NodeJS.Timeout | null = null;
  private rescanTimer: NodeJS.Timeout | null = null;
  /** Debounced paths waiting for their turn (see DELIVER_SLICE). */
  private readonly due = new Set<string>();
  private drain: NodeJS.Immediate | null = null;

  constructor(
    readonly root: string,
    private readonly options: TreeWatchOptions,
  ) {
    const { ignore } = options;
    this.files = new KeyedDebouncer(options.debounceMs ?? DEFAULT_DEBOUNCE_MS, MAX_WAIT_MS, (p) => this.fileDue(p));
    this.watcher = new DirWatchSet(root, options.depth, {
      skip: (p, name) => isTransientName(name) || (ignore?.(p) ?? false),
      raw: () => this.countBurst(),
      file: (p) => {
        if (!this.closed) this.files.touch(p);
      },
      lost: () => this.rescanSoon(),
      rootEvent: () => this.checkRoot(),
    });
    this.watcher.on('error', (error: Error) => {
      if (this.closed) return;
      // A symlink loop is not a file (security rule 10): nothing is lost by not watching it, so it must
      // not switch the whole viewer to periodic rescans.
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') return;
      options.onError(error);
    });
    this.rootId = dirId(root);
    this.rootExists = this.rootId !== null;
    this.started = this.rootExists ? this.watcher.start() : Promise.resolve();
    if (!this.rootExists) this.pollForRoot();
    this.rootCheck = setInterval(() => this.checkRoot(), ROOT_CHECK_MS);
    this.rootCheck.unref();
  }

  /** Resolves once every directory of the initial crawl is watched, so later changes are not missed. */
  ready(): Promise<void> {
    return this.started;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.rootPoll) clearInterval(this.rootPoll);
    clearInterval(this.rootCheck);
    if (this.burstTimer) clearTimeout(this.burstTimer);
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    if (this.drain) clearImmediate(this.drain);
    this.files.clear();
    this.due.clear();
    await this.watcher.close();
  }

  private deliver(event: TreeEvent): void {
    if (!this.closed) this.options.onEvent(event);
  }

  private fileDue(p: string): void {
    this.due.add(p);
    this.drain ??= setImmediate(() => this.deliverDue());
  }

  private deliverDue(): void {
    this.drain = null;
    let n = 0;
    for (const p of this.due) {
      if (n++ === DELIVER_SLICE) {
        this.drain = setImmediate(() => this.deliverDue());
        return;
      }
      this.due.delete(p);
      this.deliver({ kind: 'file', path: p });
    }
  }

  private rootAppeared(): void {
    if (this.rootExists || this.closed) return;
    this.rootExists = true;
    this.rootId = dirId(this.root);
    if (this.rootPoll) clearInterval(this.rootPoll);
    this.rootPoll = null;
    // Announced once the new tree is watched, so the owner's re-list cannot miss what comes after it.
    void this.watcher.start().then(() => {
      if (this.rootExists) this.deliver({ kind: 'root-appeared' });
    });
  }

  private rootVanished(): void {
    if (!this.rootExists || this.closed) return;
    this.rootExists = false;
    this.rootId = null;
    this.watcher.clear();
    this.deliver({ kind: 'root-vanished' });
    this.pollForRoot();
  }

  /**
   * Notices a root that vanished, or was replaced by a new directory (deleted and recreated within
   * milliseconds, or a symlink repointed): the old watch sits on a dead inode and would never report again.
   */
  private checkRoot(): void {
    if (this.closed || !this.rootExists) return;
    const id = dirId(this.root);
    if (id === null) return this.rootVanished();
    if (id !== this.rootId) {
      this.rootExists = false;
      this.rootAppeared();
    }
  }

  private pollForRoot(): void {
    if (this.rootPoll) return;
    this.rootPoll = setInterval(() => {
      if (dirId(this.root) !== null) this.rootAppeared();
    }, ROOT_POLL_MS);
    this.rootPoll.unref();
  }

  private rescanSoon(): void {
    if (this.closed) return;
    if (this.rescanTimer) return void this.rescanTimer.refresh();
    this.rescanTimer = setTimeout(() => {
      this.rescanTimer = null;
      this.deliver({ kind: 'rescan' });
    }, RESCAN_DEBOUNCE_MS);
  }

  private countBurst(): void {
    this.burst++;
    if (this.burstTimer) return void this.burstTimer.refresh();
    this.burstTimer = setTimeout(() => {
      const events = this.burst;
      this.burst = 0;
      this.burstTimer = null;
      if (events >= BURST_EVENTS) this.deliver({ kind: 'rescan' });
    }, BURST_QUIET_MS);
  }
}

/** A recreated directory often gets the freed inode number back; its birth time tells it apart. */
function identity(s: Stats): string {
  return `${s.dev}:${s.ino}:${s.birthtimeMs}`;
}

function dirId(p: string): string | null {
  try {
    const s = statSync(p, { throwIfNoEntry: false });
    return s?.isDirectory() ? identity(s) : null;
  } catch {
    return null;
  }
}

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
  | { kind: 'root-vanished' };

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

export class TreeWatcher {
  private readonly watcher: FSWatcher;
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private closed = false;
  private rootExists: boolean;
  private rootPoll: NodeJS.Timeout | null = null;

  constructor(
    readonly root: string,
    private readonly options: TreeWatchOptions,
  ) {
    this.watcher = watch(root, {
      ignoreInitial: true,
      depth: options.depth,
      ignored: (p: string, stats?: Stats) => p !== root && (isTransientName(path.basename(p)) || (options.ignore?.(p, stats) ?? false)),
    });
    this.rootExists = isDir(root);
    if (!this.rootExists) this.pollForRoot();
    this.watcher.on('all', (event, p) => this.handle(event, p));
    this.watcher.on('error', (error: unknown) => {
      if (!this.closed) options.onError(error instanceof Error ? error : new Error(String(error)));
    });
  }

  /** Resolves once the initial crawl is done, so events after it are not missed. */
  ready(): Promise<void> {
    return new Promise((resolve) => this.watcher.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.rootPoll) clearInterval(this.rootPoll);
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await this.watcher.close();
  }

  private rootAppeared(): void {
    if (this.rootExists || this.closed) return;
    this.rootExists = true;
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
    // Subfolders: chokidar crawls new ones itself and reports their files one by one.
    if (event === 'addDir' || event === 'unlinkDir') return;
    const delay = this.options.debounceMs ?? 20;
    const existing = this.pending.get(p);
    if (existing) clearTimeout(existing);
    this.pending.set(p, setTimeout(() => {
      this.pending.delete(p);
      if (!this.closed) this.options.onEvent({ kind: 'file', path: p });
    }, delay));
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

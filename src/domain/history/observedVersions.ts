// Every distinct content the viewer has seen of each plan, so that hand edits and tools that leave no
// tool call have a history too, and a plan deleted from disk stays readable. Content-addressed (one file
// per SHA-256 under the viewer's cache dir, never under the Claude Code home), deduplicated, and bounded:
// past the limit the oldest observed versions are dropped first.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readCacheFileSync, TOO_LARGE } from '../files.js';

/** The default bound of what is kept; `--history-limit` changes it. */
export const DEFAULT_HISTORY_LIMIT_BYTES = 200 * 1024 * 1024;
const FORMAT = 'plan-memory-viewer/observed';
/** A kept content's name: its SHA-256 in hex, and nothing else (a name read back is checked to be one). */
const SHA = /^[0-9a-f]{64}$/;
/** The index lists paths and hashes: far smaller than this, unless it is not ours. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

export interface ObservedVersion {
  sha: string;
  size: number;
  /** The file's mtime when this content was seen (ISO). */
  at: string;
}

export interface ObservedPlan {
  versions: ObservedVersion[];
  /** When the viewer found the file gone (ISO), or null while it is on disk. */
  goneAt: string | null;
}

/**
 * One change the viewer saw of a file: its content before (null: it did not exist) and after (null: it
 * was deleted), and when (a change: the file's mtime; a deletion: its folder's mtime when noticed).
 */
export interface ObservedChange {
  path: string;
  /** The folder the file belongs to (a memory folder), and the file's name inside it. */
  dir: string;
  file: string;
  before: string | null;
  after: string | null;
  at: string;
  /** The viewer itself made it (a memory fix, a restore, an undo). */
  viewer?: true;
}

/** The changes kept: the last ones. */
export const MAX_CHANGES = 2000;

export function contentHash(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class ObservedVersions {
  /** By plan path; read from the cache dir at first use (not at start-up, where nothing needs it yet). */
  private loaded: { plans: Map<string, ObservedPlan>; changes: ObservedChange[] } | null = null;
  private readonly objects: string;
  private readonly indexFile: string;
  private dirty = false;

  /** `dir`: this home's folder under the cache dir; null keeps nothing (the demo, tests without a cache). */
  constructor(private readonly dir: string | null, private readonly limitBytes = DEFAULT_HISTORY_LIMIT_BYTES) {
    this.objects = dir === null ? '' : path.join(dir, 'objects');
    this.indexFile = dir === null ? '' : path.join(dir, 'index.json');
  }

  private get plans(): Map<string, ObservedPlan> {
    return this.state.plans;
  }

  private get state(): { plans: Map<string, ObservedPlan>; changes: ObservedChange[] } {
    this.loaded ??= this.dir === null ? { plans: new Map(), changes: [] } : this.load();
    return this.loaded;
  }

  /** Records a change seen (the last MAX_CHANGES are kept, with the index). */
  recordChange(change: ObservedChange): void {
    if (!this.keeping) return;
    const changes = this.state.changes;
    changes.push(change);
    if (changes.length > MAX_CHANGES) changes.splice(0, changes.length - MAX_CHANGES);
    this.dirty = true;
  }

  /** The changes recorded, oldest recorded first. */
  changes(): readonly ObservedChange[] {
    return this.state.changes;
  }

  /** Whether anything is kept at all (not for the demo home, nor without a cache dir). */
  get keeping(): boolean {
    return this.dir !== null && this.limitBytes > 0;
  }

  /** Bumped on every change of what is kept: what is derived from it (the archive) keys on it. */
  version = 0;

  /** Records this content of the plan at `filepath` when it differs from the last one seen. */
  observe(filepath: string, bytes: Buffer, mtimeMs: number): boolean {
    if (!this.keeping) return false;
    const sha = contentHash(bytes);
    const plan = this.plans.get(filepath) ?? { versions: [], goneAt: null };
    if (plan.goneAt !== null) this.version++;
    plan.goneAt = null;
    if (plan.versions.at(-1)?.sha === sha) {
      this.plans.set(filepath, plan);
      return false;
    }
    try {
      mkdirSync(this.objects, { recursive: true });
      const object = path.join(this.objects, sha);
      const tmp = `${object}.tmp.${process.pid}`;
      writeFileSync(tmp, bytes);
      renameSync(tmp, object);
    } catch {
      return false; // an unwritable cache dir: no history kept, nothing else lost
    }
    plan.versions.push({ sha, size: bytes.length, at: new Date(mtimeMs).toISOString() });
    this.plans.set(filepath, plan);
    this.version++;
    this.prune();
    this.dirty = true;
    return true;
  }

  /** The plan's file is gone from disk (first noticed now). */
  gone(filepath: string, at = new Date()): boolean {
    const plan = this.plans.get(filepath);
    if (plan === undefined || plan.goneAt !== null) return false;
    plan.goneAt = at.toISOString();
    this.version++;
    this.dirty = true;
    return true;
  }

  of(filepath: string): ObservedPlan | undefined {
    return this.plans.get(filepath);
  }

  paths(): string[] {
    return [...this.plans.keys()];
  }

  /** The bytes of a kept version, or null when they are gone (pruned, or the cache was cleared). */
  content(sha: string): Buffer | null {
    if (this.dir === null || !SHA.test(sha)) return null;
    const bytes = readCacheFileSync(path.join(this.objects, sha), Number.MAX_SAFE_INTEGER);
    return bytes === TOO_LARGE ? null : bytes;
  }

  get totalBytes(): number {
    const seen = new Map<string, number>();
    for (const plan of this.plans.values()) for (const v of plan.versions) seen.set(v.sha, v.size);
    let total = 0;
    for (const size of seen.values()) total += size;
    return total;
  }

  /** Writes the index when it changed (the objects are written as they come). */
  save(): void {
    if (this.dir === null || !this.dirty) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const tmp = `${this.indexFile}.tmp.${process.pid}`;
      writeFileSync(tmp, JSON.stringify({ format: FORMAT, plans: [...this.plans], changes: this.state.changes }));
      renameSync(tmp, this.indexFile);
      this.dirty = false;
    } catch {
      // Kept in memory; the next save tries again.
    }
  }

  /** Drops the oldest versions (over all plans) until what is kept fits the limit. */
  private prune(): void {
    let total = this.totalBytes;
    if (total <= this.limitBytes) return;
    const all = [...this.plans].flatMap(([filepath, plan]) => plan.versions.map((v) => ({ filepath, v })))
      .sort((a, b) => (a.v.at < b.v.at ? -1 : a.v.at > b.v.at ? 1 : 0));
    for (const { filepath, v } of all) {
      if (total <= this.limitBytes) break;
      const plan = this.plans.get(filepath)!;
      plan.versions = plan.versions.filter((x) => x !== v);
      if (plan.versions.length === 0) this.plans.delete(filepath);
      if (!this.referenced(v.sha)) {
        total -= v.size;
        // Only a name load() checked, or one this run made: a hash, inside the objects folder.
        if (SHA.test(v.sha)) rmSync(path.join(this.objects, v.sha), { force: true });
      }
    }
  }

  private referenced(sha: string): boolean {
    for (const plan of this.plans.values()) if (plan.versions.some((v) => v.sha === sha)) return true;
    return false;
  }

  /**
   * The index as saved, each entry checked: a path that is absolute, versions named by a SHA-256 (so that
   * pruning one never removes a file outside the objects folder), sizes and times of their types. Anything
   * else is left out; a file that is not a regular one is not read.
   */
  private load(): { plans: Map<string, ObservedPlan>; changes: ObservedChange[] } {
    const plans = new Map<string, ObservedPlan>();
    const empty = { plans, changes: [] };
    const bytes = readCacheFileSync(this.indexFile, MAX_INDEX_BYTES);
    if (bytes === null || bytes === TOO_LARGE) return empty;
    let doc: { format?: unknown; plans?: unknown; changes?: unknown };
    try {
      doc = JSON.parse(bytes.toString('utf8')) as typeof doc;
    } catch {
      return empty;
    }
    if (typeof doc !== 'object' || doc === null || doc.format !== FORMAT || !Array.isArray(doc.plans)) return empty;
    for (const entry of doc.plans as unknown[]) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !path.isAbsolute(entry[0])) continue;
      const plan = entry[1] as Partial<ObservedPlan> | null;
      if (typeof plan !== 'object' || plan === null || !Array.isArray(plan.versions)) continue;
      const versions = (plan.versions as unknown[]).filter((v): v is ObservedVersion => {
        const x = v as Partial<ObservedVersion> | null;
        return typeof x === 'object' && x !== null && typeof x.sha === 'string' && SHA.test(x.sha) &&
          typeof x.size === 'number' && Number.isSafeInteger(x.size) && x.size >= 0 && typeof x.at === 'string';
      }).map(({ sha, size, at }) => ({ sha, size, at }));
      if (versions.length > 0) plans.set(entry[0], { versions, goneAt: typeof plan.goneAt === 'string' ? plan.goneAt : null });
    }
    const changes = Array.isArray(doc.changes) ? (doc.changes as unknown[]).map(validChange).filter((c) => c !== null).slice(-MAX_CHANGES) : [];
    return { plans, changes };
  }
}

/** A saved change rebuilt field by field: absolute paths, hashes or null, a time; else null. */
function validChange(value: unknown): ObservedChange | null {
  const c = value as Partial<Record<keyof ObservedChange, unknown>> | null;
  if (typeof c !== 'object' || c === null) return null;
  const sha = (v: unknown): v is string | null => v === null || (typeof v === 'string' && SHA.test(v));
  if (typeof c.path !== 'string' || !path.isAbsolute(c.path) || typeof c.dir !== 'string' || !path.isAbsolute(c.dir) ||
      typeof c.file !== 'string' || !sha(c.before) || !sha(c.after) || c.before === c.after ||
      typeof c.at !== 'string' || Number.isNaN(Date.parse(c.at)) || (c.viewer !== undefined && c.viewer !== true)) {
    return null;
  }
  const change: ObservedChange = { path: c.path, dir: c.dir, file: c.file, before: c.before, after: c.after, at: c.at };
  if (c.viewer === true) change.viewer = true;
  return change;
}

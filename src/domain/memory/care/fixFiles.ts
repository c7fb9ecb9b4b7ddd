// The files of a fix as the fix found them, and what MemoryCare does with them: the check before each
// write (same bytes, same file, same kind of name), the preview's diff, the content hash a preview is
// applied with, putting a recorded change back, and the clean-up of temporary files a killed fix left.
import { lstatSync, realpathSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { unifiedDiff } from './diff.js';
import type { FileChange } from './fixes/types.js';
import { type PendingMarker, type RecordedChange, sha256 } from './undoStore.js';
import { type FileRead, type Resolved, removeName, resolveInside, restoreLink, writeAtomically } from './writer.js';

/** One file as a fix found it: where its name leads, and its bytes and identity (null: no such file). */
export interface FileState {
  resolved: Resolved;
  read: FileRead | null;
}

/** The order a fix writes in: new files, then rewrites, then removals. */
export function step(change: FileChange): number {
  return change.before === null ? 0 : change.after === null ? 2 : 1;
}

/** The same bytes, in the same file (device, inode), behind the same name (a link to the same place, or none). */
export function sameFile(seen: FileState, target: Resolved, now: FileRead | null): boolean {
  if (target.real !== seen.resolved.real || target.link !== seen.resolved.link) return false;
  if (now === null || seen.read === null) return now === seen.read;
  return now.dev === seen.read.dev && now.ino === seen.read.ino && now.bytes.equals(seen.read.bytes);
}

/** The preview of one change; a symlinked name says so, and what it leads to. */
export function diffOf(change: FileChange, state: FileState): string {
  const { link, real, root } = state.resolved;
  if (link === null) return unifiedDiff(change.file, change.before, change.after);
  const target = path.relative(root, real).split(path.sep).join('/');
  // Its removal takes the link: shown as git shows a symlink, its text as its content.
  if (change.after === null) return unifiedDiff(change.file, link, null, `(symlink to ${target})`);
  return unifiedDiff(change.file, change.before, change.after, `(symlink to ${target}: the change is written there)`);
}

/**
 * The state a fix was computed from: the request, every file it read (bytes and identity: a link or a
 * file in its place, another inode), and what it would write.
 */
export function contentHash(key: unknown[], states: Map<string, FileState>, changes: FileChange[]): string {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(key))];
  for (const [file, identity] of [...identities(states)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    parts.push(Buffer.from(`\0${file}\0${identity}`));
  }
  for (const c of changes) parts.push(Buffer.from(`\0${c.file}\0${c.after === null ? 'removed' : sha256(Buffer.from(c.after, 'utf8'))}`));
  return sha256(Buffer.concat(parts));
}

/** Each file a fix read, as its bytes and identity: a link or a file in its place, another inode. */
export function identities(states: Map<string, FileState>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [file, { resolved, read }] of states) {
    out.set(file, read === null ? 'missing' : `${sha256(read.bytes)}\0${read.dev}:${read.ino}\0${resolved.link === null ? 'file' : `link:${resolved.link}`}`);
  }
  return out;
}

/** Where restoring a change writes its bytes (its temporary file goes beside it). */
export function undoTarget(dir: string, change: RecordedChange): string {
  return resolveInside(dir, change.file).real;
}

/** Puts one change back as it was before the fix. */
export function restoreChange(dir: string, change: RecordedChange, token: string): void {
  const target = resolveInside(dir, change.file);
  if (change.before === null) removeName(target);
  else if (change.link !== undefined) restoreLink(target.name, change.link);
  else writeAtomically(target.real, Buffer.from(change.before, 'base64'), change.after === null, token);
}

/** The temporary files a marker names, each checked to be one of its own inside the record's folder. */
export function removeTemps(dir: string, marker: PendingMarker): void {
  let root: string;
  try {
    root = realpathSync.native(dir);
  } catch {
    return;
  }
  const suffix = `.md.tmp.${marker.pid}.${marker.token}`;
  for (const temp of marker.temps) {
    const rel = path.relative(root, temp);
    if (!temp.endsWith(suffix) || rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    try {
      if (lstatSync(temp).isFile()) unlinkSync(temp);
    } catch {
      // Never written, or renamed into place.
    }
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

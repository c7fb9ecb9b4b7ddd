// The only place the viewer writes to a user's memory files. A write lands only inside a listed memory
// folder: the path is built from a file name the listing gave (never from request text), and its real
// path must stay inside the folder's real path, with no dot-segment below it and a `.md` name (the rule
// symlinks follow, linkPolicy.ts). A symlinked topic's bytes are rewritten at its target (the preview
// names that file), but a removal takes the name itself: a link goes as a link, never the file it points
// to (docs/security.md, rule 23). Writes are atomic as Claude Code's are: a temporary
// `<file>.tmp.<pid>.<12 hex>` in the same folder, then a rename; a new file is linked into place, so it
// never replaces one that appeared meanwhile. The hex is the fix's token, kept in its pending marker
// (undoStore.ts), so the next start can tell the viewer's own leftovers from a running Claude Code's.
import { randomBytes } from 'node:crypto';
import {
  type Stats, closeSync, constants, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readFileSync, readlinkSync, realpathSync,
  renameSync, statSync, symlinkSync, unlinkSync, writeSync,
} from 'node:fs';
import path from 'node:path';
import { refusedLinkTarget } from '../../linkPolicy.js';

/** A name that is not a file of the folder the fix may touch: the request's fault (400, or 404 before). */
export class UnsafePath extends Error {}

/** A file of the folder that cannot be read now (permissions, a FIFO): not the request's fault (409). */
export class Unreadable extends Error {}

/** Longest name a request may name (the contract's MAX_NAME_CHARS), and longest path segment (NAME_MAX, in bytes). */
const MAX_NAME_CHARS = 4096;
const MAX_SEGMENT_BYTES = 255;

/** A file of a memory folder, resolved for writing. */
export interface Resolved {
  /** Where the bytes live (the target of a symlinked topic). */
  real: string;
  /** The name itself inside the folder's real path (the link, for a symlinked topic). */
  name: string;
  /** The folder's real path. */
  root: string;
  exists: boolean;
  /** The link's own text when the name is a symlink, else null. */
  link: string | null;
  /** A folder on the way to the name is a symlink: the name is not where the file lives. */
  viaLinkedFolder: boolean;
}

/** `rel` (a `/`-separated name inside the folder) resolved under `dir`, or UnsafePath. */
export function resolveInside(dir: string, rel: string): Resolved {
  const parts = rel.split('/');
  if (rel === '' || rel.length > MAX_NAME_CHARS || rel.includes('\0') || rel.includes('\\') || !rel.endsWith('.md') ||
      parts.some((p) => p === '' || p === '.' || p === '..' || p.startsWith('.') || Buffer.byteLength(p) > MAX_SEGMENT_BYTES)) {
    throw new UnsafePath(`not a memory file name: ${shortName(rel)}`);
  }
  let root: string;
  try {
    root = realpathSync.native(dir);
  } catch {
    throw new UnsafePath(`the memory folder ${dir} is gone`);
  }
  const name = path.join(root, ...parts);
  const lexicalParent = path.dirname(name);
  let own: Stats | null;
  try {
    own = lstatSync(name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UnsafePath(`not a memory file name: ${shortName(rel)}`);
    own = null;
  }
  let parent: string;
  try {
    parent = realpathSync.native(lexicalParent);
  } catch {
    throw new UnsafePath(`the folder of ${rel} does not exist`);
  }
  if (!statSync(parent).isDirectory()) throw new UnsafePath(`not a memory file name: ${shortName(rel)}`);
  let real: string;
  let link: string | null = null;
  if (own !== null) {
    try {
      real = realpathSync.native(name);
      if (own.isSymbolicLink()) link = readlinkSync(name);
    } catch {
      throw new UnsafePath(`${rel} points to nothing`);
    }
    if (!statSync(real).isFile()) throw new UnsafePath(`${rel} is not a regular file`);
  } else {
    real = path.join(parent, path.basename(name));
  }
  const refused = refusedLinkTarget(real, root, 'file');
  if (refused) throw new UnsafePath(`${rel}: ${refused}`);
  return { real, name, root, exists: own !== null, link, viaLinkedFolder: parent !== lexicalParent };
}

function shortName(rel: string): string {
  return rel.length > 80 ? `${rel.slice(0, 60)}… (${rel.length} characters)` : rel;
}

/** A file's bytes and identity (device and inode of what was read). */
export interface FileRead {
  bytes: Buffer;
  dev: number;
  ino: number;
}

/**
 * The bytes of `real` (a real path, as resolveInside gives) and the identity of the file they came from,
 * or null when there is none. Opened so that a FIFO does not block and a link put in its place is refused.
 */
export function readFile(real: string): FileRead | null {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP' || code === 'EMLINK') throw new Unreadable(`${path.basename(real)} turned into a link`);
    throw new Unreadable(`${path.basename(real)} cannot be read (${code ?? 'error'})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Unreadable(`${path.basename(real)} is not a regular file`);
    return { bytes: readFileSync(fd), dev: stats.dev, ino: stats.ino };
  } catch (error) {
    if (error instanceof Unreadable) throw error;
    throw new Unreadable(`${path.basename(real)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    closeSync(fd);
  }
}

/** A fix's token: the hex of every temporary file it (and its rollback or undo) writes. */
export function newToken(): string {
  return randomBytes(6).toString('hex');
}

/** The temporary file a write of `file` with `token` uses. */
export function tempPath(file: string, token: string, pid = process.pid): string {
  return `${file}.tmp.${pid}.${token}`;
}

function writeTemp(file: string, bytes: Buffer, mode: number, token: string): string {
  const tmp = tempPath(file, token);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(tmp);
    throw error;
  }
  closeSync(fd);
  return tmp;
}

/** Replaces an existing file's bytes (keeping its permissions), or creates a file that must not exist yet. */
export function writeAtomically(file: string, bytes: Buffer, create: boolean, token: string): void {
  const mode = create ? 0o644 : statSync(file).mode & 0o777;
  const tmp = writeTemp(file, bytes, mode, token);
  try {
    if (create) {
      // link(2) fails with EEXIST instead of replacing a file that appeared since the preview.
      linkSync(tmp, file);
      unlinkSync(tmp);
    } else {
      renameSync(tmp, file);
    }
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // Already renamed or never made: nothing left behind.
    }
    throw error;
  }
}

/** Removes the name itself: a symlinked topic loses its link, the file it points to stays. */
export function removeName(target: Resolved): void {
  if (target.viaLinkedFolder) throw new UnsafePath(`${path.basename(target.name)} is reached through a symlinked folder`);
  unlinkSync(target.name);
}

/** Puts a removed link back with its own text; fails with EEXIST when something took the name meanwhile. */
export function restoreLink(name: string, text: string): void {
  symlinkSync(text, name);
}

/** Whether anything (a file, a link, even a dangling one, a folder) has the name `rel` in the folder now. */
export function nameTaken(dir: string, rel: string): boolean {
  try {
    lstatSync(path.join(realpathSync.native(dir), ...rel.split('/')));
    return true;
  } catch {
    return false;
  }
}

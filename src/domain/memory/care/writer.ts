// The only place the viewer writes to a user's memory files. A write lands only inside a listed memory
// folder: the path is built from a file name the listing gave (never from request text), and its real
// path must stay inside the folder's real path, with no dot-segment below it and a `.md` name (the rule
// symlinks follow, linkPolicy.ts; a symlinked topic is written at its target, the link stays). Writes
// are atomic as Claude Code's are: a temporary `<file>.tmp.<pid>.<hex>` in the same folder, then a
// rename; a new file is linked into place, so it never replaces one that appeared meanwhile.
import { randomBytes } from 'node:crypto';
import {
  closeSync, constants, fsyncSync, linkSync, lstatSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { refusedLinkTarget } from '../../linkPolicy.js';

export class UnsafePath extends Error {}

/** A file of a memory folder, resolved for writing. */
export interface Resolved {
  /** Where the bytes live (the target of a symlinked topic). */
  real: string;
  exists: boolean;
}

/** `rel` (a `/`-separated name inside the folder) resolved under `dir`, or UnsafePath. */
export function resolveInside(dir: string, rel: string): Resolved {
  const parts = rel.split('/');
  if (rel === '' || rel.includes('\0') || rel.includes('\\') || !rel.endsWith('.md') ||
      parts.some((p) => p === '' || p === '.' || p === '..' || p.startsWith('.'))) {
    throw new UnsafePath(`not a memory file name: ${rel}`);
  }
  let root: string;
  try {
    root = realpathSync.native(dir);
  } catch {
    throw new UnsafePath(`the memory folder ${dir} is gone`);
  }
  const abs = path.join(root, ...parts);
  let exists = true;
  try {
    lstatSync(abs);
  } catch {
    exists = false;
  }
  let real: string;
  if (exists) {
    try {
      real = realpathSync.native(abs);
    } catch {
      throw new UnsafePath(`${rel} points to nothing`);
    }
    if (!statSync(real).isFile()) throw new UnsafePath(`${rel} is not a regular file`);
  } else {
    let parent: string;
    try {
      parent = realpathSync.native(path.dirname(abs));
    } catch {
      throw new UnsafePath(`the folder of ${rel} does not exist`);
    }
    real = path.join(parent, path.basename(abs));
  }
  const refused = refusedLinkTarget(real, root, 'file');
  if (refused) throw new UnsafePath(`${rel}: ${refused}`);
  return { real, exists };
}

/** The file's bytes, or null when it does not exist. */
export function readBytes(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function tempName(file: string): string {
  return `${file}.tmp.${process.pid}.${randomBytes(6).toString('hex')}`;
}

function writeTemp(file: string, bytes: Buffer, mode: number): string {
  const tmp = tempName(file);
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
export function writeAtomically(file: string, bytes: Buffer, create: boolean): void {
  const mode = create ? 0o644 : statSync(file).mode & 0o777;
  const tmp = writeTemp(file, bytes, mode);
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

export function removeFile(file: string): void {
  unlinkSync(file);
}

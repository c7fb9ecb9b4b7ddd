// Claude Code's project folder names (`<claudeDir>/projects/<key>`) and the git root that picks a
// project's memory folder. The key encoding is lossy, so decoding means searching the real file system.
import { type Dirent, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readSmallTextSync } from '../files.js';

const MAX_KEY_LENGTH = 200;
/** A worktree's `.git` file holds one `gitdir:` line. */
const GIT_FILE_MAX_BYTES = 8192;

/**
 * The folder name Claude Code gives a project path: every UTF-16 unit outside [A-Za-z0-9] becomes `-`.
 * Names over 200 characters are cut to 200 and get `-<base36 hash>` of the original path. Which hash
 * Claude Code uses there is not known to us; this is a 32-bit djb2 variant, stable across runs, so
 * such keys match our own encodings but may differ from the folders Claude Code created.
 */
export function encodeProjectPath(p: string): string {
  const sanitized = sanitize(p);
  if (sanitized.length <= MAX_KEY_LENGTH) return sanitized;
  return `${sanitized.slice(0, MAX_KEY_LENGTH)}-${djb2(p).toString(36)}`;
}

function sanitize(p: string): string {
  // Without the `u` flag the class matches single UTF-16 units, so an astral character gives two dashes.
  return p.replace(/[^A-Za-z0-9]/g, '-');
}

function djb2(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return Math.abs(hash);
}

export interface DecodedKey {
  /** The existing directory whose encoding is the key, or null. */
  path: string | null;
  /** Its last segment; for an undecodable key, the part after the longest prefix that exists. */
  name: string;
}

// A key is at most ~215 characters, so real paths are shallow; these only stop pathological trees.
const MAX_DIRS_LISTED = 2000;
const MAX_DEPTH = 64;

/**
 * Finds the directory whose encoded path equals `key`, walking down from `fsRoot`. Each `-` may stand
 * for `/` or for any other non-alphanumeric character inside a name, so every directory entry whose
 * encoded path is a prefix of the key (ending at a `-` boundary) is a candidate. Only directories are
 * descended; symlinked directories count, since a session's cwd may run through one.
 */
export async function decodeProjectKey(key: string, fsRoot = '/'): Promise<DecodedKey> {
  const root = path.resolve(fsRoot);
  const rootEncoding = sanitize(root);
  const budget = { dirs: MAX_DIRS_LISTED };
  let longest = 0;

  const matches = (enc: string): boolean =>
    key.startsWith(enc) && (key.length === enc.length || key[enc.length] === '-');

  const visit = async (dir: string, depth: number): Promise<string | null> => {
    const enc = sanitize(dir);
    if (matches(enc) && enc.length > longest) longest = enc.length;
    if (enc === key || encodeProjectPath(dir) === key) return dir;
    if (depth >= MAX_DEPTH || budget.dirs <= 0) return null;
    budget.dirs--;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return null;
    }
    const names = entries.map((e) => e.name).sort();
    for (const name of names) {
      const child = path.join(dir, name);
      const childEnc = sanitize(child);
      // Long paths end in a hash, so only the first 200 characters of their encoding can be compared.
      const comparable = childEnc.length > MAX_KEY_LENGTH ? childEnc.slice(0, MAX_KEY_LENGTH) : childEnc;
      if (!matches(comparable)) continue;
      if (!(await isDirectory(child))) continue;
      const found = await visit(child, depth + 1);
      if (found !== null) return found;
    }
    return null;
  };

  const found = matches(rootEncoding) || root === '/' ? await visit(root, 0) : null;
  if (found !== null) {
    const name = path.basename(found);
    return { path: found, name: name === '' ? found : name };
  }
  const tail = key.slice(Math.min(longest, key.length)).replace(/^-+/, '');
  return { path: null, name: tail === '' ? key : tail };
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The main worktree root of the git repository holding `cwd`, which is what Claude Code keys memory
 * by; `cwd` itself outside git. A `.git` file marks a linked worktree (`gitdir: <main>/.git/worktrees/x`)
 * or a submodule; only the worktree form leads back to another root. `seen` carries answers between
 * calls of one load: hundreds of cwds share their upper directories, which are then looked at once.
 */
export function gitRootOf(cwd: string, seen = new Map<string, string | null>()): string {
  // Synchronous: a load asks this for every known cwd, a stat per directory level (see timeSlicer.ts).
  const start = path.resolve(cwd);
  const walked: string[] = [];
  let found: string | null = null;
  for (let dir = start; ; ) {
    const known = seen.get(dir);
    if (known !== undefined) {
      found = known;
      break;
    }
    walked.push(dir);
    const marker = path.join(dir, '.git');
    let s;
    try {
      s = statSync(marker, { throwIfNoEntry: false });
    } catch {
      // No usable marker here: keep walking up.
    }
    if (s?.isDirectory()) {
      found = dir;
      break;
    }
    if (s?.isFile()) {
      found = mainWorktreeOf(marker) ?? dir;
      break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Every directory walked through has the same answer: the marker found above it, or none.
  for (const dir of walked) seen.set(dir, found);
  return found ?? start;
}

function mainWorktreeOf(gitFile: string): string | null {
  const text = readSmallTextSync(gitFile, GIT_FILE_MAX_BYTES);
  if (text === null) return null;
  const line = text.slice(0, 4096).split('\n').find((l) => l.startsWith('gitdir:'));
  const target = line?.slice('gitdir:'.length).trim();
  if (!target) return null;
  const gitdir = path.resolve(path.dirname(gitFile), target);
  const marker = `${path.sep}.git${path.sep}worktrees${path.sep}`;
  const at = gitdir.lastIndexOf(marker);
  return at === -1 ? null : gitdir.slice(0, at) || path.sep;
}

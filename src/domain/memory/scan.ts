// Walks one memory directory and reads its markdown files. Anything odd on disk (vanished files,
// FIFOs, symlink loops, huge files) is skipped or bounded here, so the rest of the load can trust it.
import { constants, type Dirent } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { countLines } from '../markdown/text.js';
import type { Logger } from '../types.js';

export interface ScannedFile {
  /** Path relative to the memory dir, `/`-separated. */
  filename: string;
  filepath: string;
  isIndex: boolean;
  size: number;
  mtimeMs: number;
  lineCount: number;
  /** The file's text, or its first MAX_READ_BYTES for larger files. */
  text: string;
}

export const INDEX_FILE = 'MEMORY.md';
/**
 * Files larger than this are still listed with their real size and line count, but frontmatter,
 * links and search only see their first 5 MB: memory files are meant to be small, and reading a
 * runaway file whole would hold that much per file in the search cache.
 */
export const MAX_READ_BYTES = 5 * 1024 * 1024;
// Claude Code's own subfolders that hold no topic files (formats doc, "Auto memory").
const EXCLUDED_TOP_DIRS = new Set(['team', 'logs', 'sessions', 'proposals']);
// A custom directory can point anywhere the user likes; these stop a walk over a huge tree.
const MAX_FILES = 10_000;
const MAX_DIRS = 5_000;
const MAX_DEPTH = 32;
const READ_CONCURRENCY = 16;

/**
 * Says why a symlink target may not be followed (for instance it resolves into `~/.ssh`), or null.
 * Symlinks inside a memory dir are followed, but not out into places a memory root could not be.
 */
export type TargetCheck = (realPath: string) => string | null;

/** The markdown files of a memory dir, or null when the dir itself cannot be listed. */
export async function scanMemoryDir(dir: string, logger: Logger, check: TargetCheck = () => null): Promise<ScannedFile[] | null> {
  const found = await findFiles(dir, logger, check);
  if (found === null) return null;
  const files: ScannedFile[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < found.length) {
      const filename = found[next++]!;
      const filepath = path.join(dir, ...filename.split('/'));
      const read = await readHead(filepath);
      if (read) files.push({ filename, filepath, isIndex: filename === INDEX_FILE, ...read });
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  return files;
}

async function findFiles(dir: string, logger: Logger, check: TargetCheck): Promise<string[] | null> {
  let rootReal: string;
  try {
    rootReal = await realpath(dir);
  } catch {
    return null;
  }
  const visited = new Set<string>([rootReal]);
  const pending: { rel: string; depth: number }[] = [{ rel: '', depth: 0 }];
  const files: string[] = [];
  let dirs = 0;
  while (pending.length > 0) {
    const { rel, depth } = pending.pop()!;
    const abs = rel === '' ? dir : path.join(dir, ...rel.split('/'));
    let entries: Dirent[];
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      if (rel === '') return null;
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith('.') || name.includes('.tmp.')) continue;
      if (rel === '' && EXCLUDED_TOP_DIRS.has(name)) continue;
      if (entry.isFile() && !name.endsWith('.md')) continue;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      const childAbs = path.join(abs, name);
      let s;
      try {
        // stat, not the dirent type: symlinks count as what they point to.
        s = await stat(childAbs);
      } catch {
        continue;
      }
      const real = s.isDirectory() || entry.isSymbolicLink() ? await realpath(childAbs).catch(() => null) : childAbs;
      if (real === null) continue;
      if (entry.isSymbolicLink()) {
        const refused = check(real);
        if (refused) {
          logger.warn(`not following ${childAbs}: ${refused}`);
          continue;
        }
      }
      if (s.isDirectory()) {
        // A symlink back to an ancestor (or to a directory already walked) is not entered twice.
        if (depth + 1 > MAX_DEPTH || dirs >= MAX_DIRS || visited.has(real)) continue;
        visited.add(real);
        dirs++;
        pending.push({ rel: childRel, depth: depth + 1 });
      } else if (s.isFile() && name.endsWith('.md')) {
        if (files.length >= MAX_FILES) {
          logger.warn(`memory dir ${dir}: more than ${MAX_FILES} files, listing the first ${MAX_FILES}`);
          return files;
        }
        files.push(childRel);
      }
    }
  }
  return files;
}

/** Size, mtime, line count and the first MAX_READ_BYTES of a regular file; null if it is not one. */
async function readHead(filepath: string): Promise<Omit<ScannedFile, 'filename' | 'filepath' | 'isIndex'> | null> {
  let handle;
  try {
    // O_NONBLOCK: a FIFO swapped in after the stat must not block open() waiting for a writer.
    handle = await open(filepath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return null;
    const head = Buffer.alloc(Math.min(stats.size, MAX_READ_BYTES));
    let length = 0;
    while (length < head.length) {
      const { bytesRead } = await handle.read(head, length, head.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const text = head.subarray(0, length).toString('utf8');
    const lineCount = stats.size > MAX_READ_BYTES ? await countLinesFrom(handle, head.subarray(0, length)) : countLines(text);
    return { size: stats.size, mtimeMs: stats.mtimeMs, lineCount, text };
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

type Handle = Awaited<ReturnType<typeof open>>;

/** countLines over the whole file, streaming past the head so a huge file is never held in memory. */
async function countLinesFrom(handle: Handle, head: Buffer): Promise<number> {
  let newlines = 0;
  let last = -1;
  const count = (chunk: Buffer): void => {
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) newlines++;
    if (chunk.length > 0) last = chunk[chunk.length - 1]!;
  };
  count(head);
  const chunk = Buffer.alloc(1024 * 1024);
  let position = head.length;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    count(chunk.subarray(0, bytesRead));
    position += bytesRead;
  }
  if (last === -1) return 0;
  return last === 0x0a ? newlines : newlines + 1;
}

// Walks one memory directory and reads its markdown files. Anything odd on disk (vanished files,
// FIFOs, symlink loops, huge files) is skipped or bounded here, so the rest of the load can trust it.
// The calls are synchronous (see timeSlicer.ts), so every loop gives the event loop back in turn.
import {
  type Dirent, type Stats, closeSync, constants, fstatSync, openSync, readSync, readdirSync, realpathSync,
} from 'node:fs';
import path from 'node:path';
import { statOrNull } from '../files.js';
import { refusedLinkTarget } from '../linkPolicy.js';
import { countLines } from '../markdown/text.js';
import type { Logger } from '../types.js';
import { type FileCacheView, type ParsedFile, noFileCache, PARSED_BYTES, parseFile } from './parsedFile.js';
import { TimeSlicer } from '../timeSlicer.js';

export interface ScannedFile {
  /** Path relative to the memory dir, `/`-separated. */
  filename: string;
  filepath: string;
  isIndex: boolean;
  parsed: ParsedFile;
}

export const INDEX_FILE = 'MEMORY.md';
// Claude Code's own subfolders that hold no topic files (formats doc, "Auto memory"): `team/` is the
// combined team memory (with its own index), `agents/` subagents' memory.
const EXCLUDED_TOP_DIRS = new Set(['team', 'logs', 'sessions', 'proposals', 'agents']);
// A custom directory can point anywhere the user likes; these stop a walk over a huge tree.
const MAX_FILES = 10_000;
const MAX_DIRS = 5_000;
const MAX_DEPTH = 32;
// Past the head of a huge file, lines are counted in chunks of this size, one slice check per chunk.
const COUNT_CHUNK = 1024 * 1024;
// Parses wait for this many files or characters read (see Reader).
const PARSE_BATCH_FILES = 64;
const PARSE_BATCH_CHARS = 256 * 1024;

export interface ScanOptions {
  cache?: FileCacheView;
  slicer?: TimeSlicer;
}

/**
 * The markdown files of a memory dir, in walk order, or null when the dir itself cannot be listed.
 * `dir` is a real path, as planned sources are, so symlinks back to it are recognised as loops. A
 * symlink is followed only to a `.md` file or a folder inside `dir` (see linkPolicy.ts); the others are
 * skipped with a warning (the store says each one once).
 */
export async function scanMemoryDir(dir: string, logger: Logger, options: ScanOptions = {}): Promise<ScannedFile[] | null> {
  const cache = options.cache ?? noFileCache;
  const slicer = options.slicer ?? new TimeSlicer();
  const reader = new Reader(cache, slicer);
  const visited = new Set<string>([dir]);
  const pending: { rel: string; abs: string; real: string; depth: number }[] = [{ rel: '', abs: dir, real: dir, depth: 0 }];
  let found = 0;
  let dirs = 0;
  while (pending.length > 0) {
    const { rel, abs, real: absReal, depth } = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      if (rel === '') return null;
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (slicer.due()) await slicer.pause();
      const name = entry.name;
      if (name.startsWith('.') || name.includes('.tmp.')) continue;
      if (rel === '' && EXCLUDED_TOP_DIRS.has(name)) continue;
      if (entry.isFile() && !name.endsWith('.md')) continue;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      const childAbs = path.join(abs, name);
      // A regular file (no symlink) never read before: the fstat after open says all a stat would.
      const unknownFile = entry.isFile() && !cache.knows(childAbs);
      // stat, not the dirent type: symlinks count as what they point to.
      const s = unknownFile ? null : statOrNull(childAbs);
      // Where the bytes are read: the path itself, or the checked target of a symlink (never the link again).
      let readPath = childAbs;
      if (!unknownFile) {
        if (s === null) continue;
        // A directory its dirent calls one is no symlink: its real path needs no readlink per component.
        const real = entry.isDirectory() ? path.join(absReal, name)
          : s.isDirectory() || entry.isSymbolicLink() ? realpathOrNull(childAbs) : childAbs;
        if (real === null) continue;
        if (entry.isSymbolicLink()) {
          const refused = refusedLinkTarget(real, dir, s.isDirectory() ? 'directory' : 'file');
          if (refused) {
            logger.warn(`not following the symlink ${childAbs}: ${refused}`);
            continue;
          }
          readPath = real;
        }
        if (s.isDirectory()) {
          // A symlink back to an ancestor (or to a directory already walked) is not entered twice.
          if (depth + 1 > MAX_DEPTH || dirs >= MAX_DIRS || visited.has(real)) continue;
          visited.add(real);
          dirs++;
          pending.push({ rel: childRel, abs: childAbs, real, depth: depth + 1 });
          continue;
        }
        if (!s.isFile() || !name.endsWith('.md')) continue;
      }
      if (found >= MAX_FILES) {
        logger.warn(`memory dir ${dir}: more than ${MAX_FILES} files, listing the first ${MAX_FILES}`);
        return reader.done();
      }
      found++;
      await reader.add(childRel, childAbs, s, readPath);
    }
  }
  return reader.done();
}


/** The native realpath(3), as fs.promises.realpath uses; the JS one can disagree on odd mounts. */
function realpathOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

interface Head {
  stats: Stats;
  /** The first PARSED_BYTES, decoded. */
  text: string;
  lineCount: number;
}

/**
 * Reads files as the walk finds them and parses them in batches: alternating a syscall with a parse
 * measured a fifth slower than a run of reads, then a run of parses. Batches keep the texts held
 * at once small; the walk order of the files is kept.
 */
class Reader {
  // null: read, waiting in `unparsed` for its parse.
  private readonly files: (ScannedFile | null)[] = [];
  private unparsed: { slot: number; filename: string; filepath: string; head: Head }[] = [];
  private chars = 0;

  constructor(private readonly cache: FileCacheView, private readonly slicer: TimeSlicer) {}

  /**
   * `stats` from a stat of the path, when the walk made one: an unchanged file is then not opened.
   * `readPath` is where its bytes are read: the path itself, or the checked target of a symlink.
   */
  async add(filename: string, filepath: string, stats: Stats | null, readPath: string): Promise<void> {
    const cached = stats && this.cache.lookup(filepath, stats);
    if (cached) {
      this.files.push({ filename, filepath, isIndex: filename === INDEX_FILE, parsed: cached });
      return;
    }
    const read = readHead(readPath, this.slicer);
    const head = read instanceof Promise ? await read : read;
    if (head === null) return;
    this.unparsed.push({ slot: this.files.length, filename, filepath, head });
    this.files.push(null);
    this.chars += head.text.length;
    if (this.unparsed.length >= PARSE_BATCH_FILES || this.chars >= PARSE_BATCH_CHARS) await this.flush();
  }

  async done(): Promise<ScannedFile[]> {
    await this.flush();
    return this.files.filter((f): f is ScannedFile => f !== null);
  }

  private async flush(): Promise<void> {
    for (const { slot, filename, filepath, head } of this.unparsed) {
      if (this.slicer.due()) await this.slicer.pause();
      const { stats, text, lineCount } = head;
      const parsed = parseFile(text, stats.size, stats.mtimeMs, lineCount, filename === INDEX_FILE);
      // Keyed by the fstat of what was read, so a write racing the read is seen as a change next time.
      this.cache.remember(filepath, stats, parsed);
      this.files[slot] = { filename, filepath, isIndex: filename === INDEX_FILE, parsed };
    }
    this.unparsed = [];
    this.chars = 0;
  }
}

/**
 * The first PARSED_BYTES of a regular file, its fstat and its real line count; null if it is not
 * one. Synchronous but for files over PARSED_BYTES, whose remaining lines are counted in slices.
 */
function readHead(filepath: string, slicer: TimeSlicer): Head | null | Promise<Head | null> {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in after the stat must not block open() waiting for a writer. O_NOFOLLOW:
    // a file swapped for a symlink since the walk looked at it is not read through it.
    fd = openSync(filepath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  let handedOver = false;
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return null;
    const head = Buffer.allocUnsafe(Math.min(stats.size, PARSED_BYTES));
    let length = 0;
    while (length < head.length) {
      const bytesRead = readSync(fd, head, length, head.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const text = head.toString('utf8', 0, length);
    if (stats.size <= PARSED_BYTES) return { stats, text, lineCount: countLines(text) };
    handedOver = true;
    return countRest(fd, stats, text, head.subarray(0, length), slicer);
  } catch {
    return null;
  } finally {
    if (!handedOver) closeQuietly(fd);
  }
}

async function countRest(fd: number, stats: Stats, text: string, head: Buffer, slicer: TimeSlicer): Promise<Head | null> {
  try {
    return { stats, text, lineCount: await countLinesFrom(fd, head, slicer) };
  } catch {
    return null;
  } finally {
    closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing to do: the descriptor is gone either way.
  }
}

/** countLines over the whole file, streaming past the head so a huge file is never held in memory. */
async function countLinesFrom(fd: number, head: Buffer, slicer: TimeSlicer): Promise<number> {
  let newlines = 0;
  let last = -1;
  const count = (chunk: Buffer): void => {
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) newlines++;
    if (chunk.length > 0) last = chunk[chunk.length - 1]!;
  };
  count(head);
  const chunk = Buffer.allocUnsafe(COUNT_CHUNK);
  let position = head.length;
  for (;;) {
    await slicer.maybeYield();
    const bytesRead = readSync(fd, chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    count(chunk.subarray(0, bytesRead));
    position += bytesRead;
  }
  if (last === -1) return 0;
  return last === 0x0a ? newlines : newlines + 1;
}

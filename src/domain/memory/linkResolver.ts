// Which memory entry a link points to, within one memory source. The service builds `links`,
// `linkedFrom`, `orphans` and `danglingLinks` with it, and the UI marks links in the reader and the index
// health panel with it (imported, not copied), so the two can never disagree. Free of Node APIs.
//
// Resolution order (first hit wins; ties go to the first entry in listing order: MEMORY.md, then by
// file name in code-unit order):
// - A markdown link `[text](dest)`: `dest` without `#anchor` / `?query`, percent-decoded, is a path
//   relative to the linking file's folder. Only `.md` paths (any case) can be entries; a path with a
//   scheme, an absolute or `~` path, one climbing out of the memory folder, or one to another kind of
//   file is not a memory link at all ("other"). A `.md` path inside the folder is the entry with exactly
//   that file name, or broken; except a path under the top-level `team/` folder, the combined team
//   memory that MEMORY.md links directly: valid, but not an entry of the source ("other").
// - A wikilink `[[target|alias]]` / `[[target#heading]]`: `target` names an entry by, in this order,
//   1. its `name` (frontmatter `name:`, else its first heading, else its file name), exactly, then
//      case-folded;
//   2. its file name relative to the memory folder, with or without `.md`, exactly, then case-folded;
//   3. its base name (the file name without folders), with or without `.md`, exactly, then case-folded.
//   No match: broken.
import { foldCase } from '../fold.js';
import { linkPath } from '../markdown/linkPath.js';

/** What resolution needs of an entry: `MemoryEntry` on both sides. */
export interface Linkable {
  filename: string;
  name: string;
  isIndex: boolean;
}

export type Resolution<E> =
  | { kind: 'entry'; entry: E }
  /** `target`: what the service lists in `danglingLinks` (a path inside the folder, or a wikilink's name). */
  | { kind: 'broken'; target: string; reason: string }
  | { kind: 'other' };

const OTHER = { kind: 'other' } as const;
/** Claude Code's combined team memory, left out of the listing (scan.ts) but a valid link target. */
const TEAM_DIR = 'team/';

export class LinkResolver<E extends Linkable> {
  private readonly byFilename = new Map<string, E>();
  /** Per tier of the wikilink order: exact table, then its case-folded twin. */
  private readonly wikiTables: Map<string, E>[] = [];

  constructor(entries: readonly E[]) {
    const ordered = [...entries].sort(listingOrder);
    const byName = new Map<string, E>();
    const byPath = new Map<string, E>();
    const byBase = new Map<string, E>();
    for (const entry of ordered) {
      const file = entry.filename;
      addFirst(this.byFilename, file, entry);
      addFirst(byName, entry.name, entry);
      addFirst(byPath, file, entry);
      addFirst(byPath, stripMd(file), entry);
      const base = file.slice(file.lastIndexOf('/') + 1);
      addFirst(byBase, base, entry);
      addFirst(byBase, stripMd(base), entry);
    }
    for (const table of [byName, byPath, byBase]) {
      const folded = new Map<string, E>();
      for (const [key, entry] of table) addFirst(folded, foldCase(key), entry);
      this.wikiTables.push(table, folded);
    }
  }

  /** The entry with exactly this file name (as `links`, `linkedFrom` and `orphans` hold them). */
  entry(filename: string): E | null {
    return this.byFilename.get(filename) ?? null;
  }

  /** A wikilink's target (as `wikiTarget` gives it). */
  wiki(target: string): Resolution<E> {
    let folded: string | null = null;
    for (let i = 0; i < this.wikiTables.length; i++) {
      // Even slots are exact tables, odd slots their case-folded twins.
      const key = i % 2 === 0 ? target : (folded ??= foldCase(target));
      const hit = this.wikiTables[i]!.get(key);
      if (hit !== undefined) return { kind: 'entry', entry: hit };
    }
    return { kind: 'broken', target, reason: `No memory named “${target}” in this folder` };
  }

  /** A markdown link's destination as written (or as a renderer re-encoded it) in the file `from`. */
  href(dest: string, from: string): Resolution<E> {
    const path = linkPath(dest);
    return path === null ? OTHER : this.path(path, from);
  }

  /** A destination already made a relative path by `linkPath` (what `extractLinks` lists). */
  path(relative: string, from: string): Resolution<E> {
    if (!relative.toLowerCase().endsWith('.md')) return OTHER;
    const joined = joinRelative(from.slice(0, from.lastIndexOf('/') + 1), relative);
    if (joined === null || joined.startsWith(TEAM_DIR)) return OTHER;
    const hit = this.byFilename.get(joined);
    if (hit !== undefined) return { kind: 'entry', entry: hit };
    return { kind: 'broken', target: joined, reason: `${joined} does not exist in this memory folder` };
  }
}

/** MEMORY.md first, then by file name in code-unit order: the order the service lists entries in. */
export function listingOrder(a: Omit<Linkable, 'name'>, b: Omit<Linkable, 'name'>): number {
  if (a.isIndex !== b.isIndex) return a.isIndex ? -1 : 1;
  return a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0;
}

/** `rel` resolved against `dir` (empty or ending in `/`), `.` and `..` applied; null when it climbs out. */
export function joinRelative(dir: string, rel: string): string | null {
  const out: string[] = [];
  for (const part of (dir + rel).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out.length === 0 ? null : out.join('/');
}

function stripMd(file: string): string {
  return file.endsWith('.md') ? file.slice(0, -3) : file;
}

function addFirst<E>(table: Map<string, E>, key: string, entry: E): void {
  if (!table.has(key)) table.set(key, entry);
}

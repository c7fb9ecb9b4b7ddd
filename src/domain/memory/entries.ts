// Turns the parsed files of one memory directory into entries: the link graph between them and the
// index statistics of MEMORY.md. Pure CPU over cached parses, so it is simply redone on every load.
import path from 'node:path';
import { foldCase } from '../fold.js';
import type { MemoryEntry, MemoryIndexStats } from '../types.js';
import type { ScannedFile } from './scan.js';

export const INDEX_LINE_LIMIT = 200;
export const INDEX_BYTE_LIMIT = 25_000;

export interface BuiltSource {
  /** MEMORY.md first, then topics by filename. */
  entries: MemoryEntry[];
  /** foldCase of each entry's raw text (first 5 MB), parallel to `entries`. */
  folded: string[];
  index: MemoryIndexStats | null;
  orphans: string[];
  entryCount: number;
  /** Latest file mtime, or null when there are no entries. */
  latestMtimeMs: number | null;
}

interface Parsed {
  file: ScannedFile;
  entry: MemoryEntry;
  frontmatterName: string | null;
  markdownTargets: string[];
  wikiTargets: string[];
}

export function buildSource(sourceId: string, files: ScannedFile[]): BuiltSource {
  const sorted = [...files].sort((a, b) =>
    a.isIndex !== b.isIndex ? (a.isIndex ? -1 : 1) : a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0);
  const parsed = sorted.map((file) => parseEntry(sourceId, file));
  const resolve = wikiResolver(parsed);
  const filenames = new Set(sorted.map((f) => f.filename));

  for (const p of parsed) {
    const links = new Set<string>();
    const folder = path.posix.dirname(p.file.filename);
    for (const target of p.markdownTargets) {
      // Only markdown files can be memories; links to images or scripts are not part of the graph.
      if (!target.toLowerCase().endsWith('.md')) continue;
      const joined = path.posix.normalize(path.posix.join(folder, target));
      if (joined === '..' || joined.startsWith('../')) continue;
      links.add(joined);
    }
    // An unresolved wikilink stays as its raw name (no `.md` added), so clients can mark it broken.
    for (const name of p.wikiTargets) links.add(resolve(name) ?? name);
    links.delete(p.file.filename);
    p.entry.links = [...links];
  }

  const linkedFrom = new Map<string, string[]>();
  for (const p of parsed) {
    for (const link of p.entry.links) {
      if (!filenames.has(link)) continue;
      const list = linkedFrom.get(link) ?? [];
      list.push(p.file.filename);
      linkedFrom.set(link, list);
    }
  }
  const indexEntry = parsed[0]?.file.isIndex ? parsed[0].entry : null;
  const indexed = new Set(indexEntry?.links ?? []);
  for (const p of parsed) {
    p.entry.linkedFrom = linkedFrom.get(p.file.filename) ?? [];
    p.entry.inIndex = p.file.isIndex || indexed.has(p.file.filename);
  }

  const topics = parsed.filter((p) => !p.file.isIndex);
  const index: MemoryIndexStats | null = indexEntry && {
    lines: indexEntry.lineCount,
    bytes: indexEntry.size,
    lineLimit: INDEX_LINE_LIMIT,
    byteLimit: INDEX_BYTE_LIMIT,
    danglingLinks: indexEntry.links.filter((l) => !filenames.has(l)),
  };
  return {
    entries: parsed.map((p) => p.entry),
    folded: parsed.map((p) => p.file.parsed.folded),
    index,
    orphans: topics.filter((p) => !indexed.has(p.file.filename)).map((p) => p.file.filename),
    entryCount: topics.length,
    latestMtimeMs: sorted.reduce<number | null>((max, f) => (max === null || f.parsed.mtimeMs > max ? f.parsed.mtimeMs : max), null),
  };
}

function parseEntry(sourceId: string, file: ScannedFile): Parsed {
  const p = file.parsed;
  const entry: MemoryEntry = {
    id: `${sourceId}/${file.filename}`,
    sourceId,
    filename: file.filename,
    filepath: file.filepath,
    isIndex: file.isIndex,
    name: p.frontmatterName ?? p.heading ?? path.posix.basename(file.filename),
    description: p.description,
    type: p.type,
    sessionId: p.sessionId,
    modified: p.modified,
    size: p.size,
    lineCount: p.lineCount,
    links: [],
    linkedFrom: [],
    inIndex: false,
  };
  return { file, entry, frontmatterName: p.frontmatterName, markdownTargets: p.markdownTargets, wikiTargets: p.wikiTargets };
}

/**
 * Wikilinks name another memory's `name:` first, then a file: its path with or without `.md`, then a
 * nested file's base name. Exact matches beat case-insensitive ones; ties go to the first entry in
 * listing order (MEMORY.md, then by filename).
 */
function wikiResolver(parsed: Parsed[]): (name: string) => string | null {
  const tables: Map<string, string>[] = [];
  const add = (table: Map<string, string>, key: string, filename: string): void => {
    if (!table.has(key)) table.set(key, filename);
  };
  const byName = new Map<string, string>();
  const byPath = new Map<string, string>();
  const byBase = new Map<string, string>();
  for (const { file, frontmatterName } of parsed) {
    if (frontmatterName !== null) add(byName, frontmatterName, file.filename);
    add(byPath, file.filename, file.filename);
    add(byPath, file.filename.replace(/\.md$/, ''), file.filename);
    const base = path.posix.basename(file.filename);
    add(byBase, base, file.filename);
    add(byBase, base.replace(/\.md$/, ''), file.filename);
  }
  for (const table of [byName, byPath, byBase]) {
    tables.push(table);
    const folded = new Map<string, string>();
    for (const [key, filename] of table) add(folded, foldCase(key), filename);
    tables.push(folded);
  }
  return (name) => {
    for (let i = 0; i < tables.length; i++) {
      // Even slots are exact tables, odd slots their case-folded twins.
      const hit = tables[i]!.get(i % 2 === 0 ? name : foldCase(name));
      if (hit !== undefined) return hit;
    }
    return null;
  };
}

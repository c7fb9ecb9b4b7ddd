// Turns the parsed files of one memory directory into entries: the link graph between them and the
// index statistics of MEMORY.md. Pure CPU over cached parses, so it is simply redone on every load.
// Links resolve through linkResolver.ts, the code the UI marks links with.
import path from 'node:path';
import type { MemoryEntry, MemoryIndexStats } from '../types.js';
import { LinkResolver, listingOrder, type Resolution } from './linkResolver.js';
import type { ScannedFile } from './scan.js';

export const INDEX_LINE_LIMIT = 200;
export const INDEX_BYTE_LIMIT = 25_000;

export interface BuiltSource {
  /** MEMORY.md first, then topics by filename. */
  entries: MemoryEntry[];
  /** foldCase of each entry's raw text (null for a large file, searched from disk), parallel to `entries`. */
  folded: (string | null)[];
  index: MemoryIndexStats | null;
  orphans: string[];
  entryCount: number;
  /** Latest file mtime, or null when there are no entries. */
  latestMtimeMs: number | null;
}

interface Parsed {
  file: ScannedFile;
  entry: MemoryEntry;
}

export function buildSource(sourceId: string, files: ScannedFile[]): BuiltSource {
  const sorted = [...files].sort(listingOrder);
  const parsed = sorted.map((file) => parseEntry(sourceId, file));
  const resolver = new LinkResolver(parsed.map((p) => p.entry));
  let dangling: string[] = [];

  for (const p of parsed) {
    const links = new Set<string>();
    const broken = new Set<string>();
    const from = p.file.filename;
    for (const target of p.file.parsed.markdownTargets) note(resolver.path(target, from), links, broken);
    for (const name of p.file.parsed.wikiTargets) note(resolver.wiki(name), links, broken);
    links.delete(from);
    p.entry.links = [...links];
    if (p.file.isIndex) dangling = [...broken];
  }

  const linkedFrom = new Map<string, string[]>();
  for (const p of parsed) {
    for (const link of p.entry.links) {
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
    danglingLinks: dangling,
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

/** `links` holds only targets that are entries; the rest of what a link names is broken or not a memory. */
function note(resolution: Resolution<MemoryEntry>, links: Set<string>, broken: Set<string>): void {
  if (resolution.kind === 'entry') links.add(resolution.entry.filename);
  else if (resolution.kind === 'broken') broken.add(resolution.target);
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
  return { file, entry };
}

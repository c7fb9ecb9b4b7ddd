// Links between memory files: markdown links to relative .md paths and [[wikilinks]] naming another
// memory (by its `name:`, or its file name). Bounded per-line regexes only (security rule 13).
import type { MemoryEntry } from '../api/types';
import { foldCase } from '../search/fold';

export interface FoundLink {
  kind: 'md' | 'wiki';
  /** Path of a markdown link, or the name part of a wikilink (before | and #). */
  target: string;
  start: number;
  end: number;
}

const MD_LINK = /(!?)\[([^[\]\n]{0,500})\]\(\s*<?([^()\s<>]{1,1000})>?(?:\s+"[^"\n]{0,300}")?\s*\)/g;
const WIKI_LINK = /\[\[([^[\]\n]{1,300})\]\]/g;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

export function wikiTarget(raw: string): string {
  return (raw.split('|')[0] ?? '').split('#')[0]!.trim();
}

/** Every link in the text outside fenced code and inline code spans, with its offsets. */
export function findLinks(content: string): FoundLink[] {
  const links: FoundLink[] = [];
  let offset = 0;
  let fence: string | null = null;
  for (const rawLine of content.split('\n')) {
    const lineStart = offset;
    offset += rawLine.length + 1;
    const fenceMatch = FENCE.exec(rawLine);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === null) fence = marker[0]!.repeat(marker.length);
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null || rawLine.length > 20_000) continue;
    // Blank out inline code so links inside `code` are not counted.
    const line = rawLine.includes('`') ? rawLine.replace(/`[^`\n]{0,2000}`/g, (m) => ' '.repeat(m.length)) : rawLine;
    for (const m of line.matchAll(MD_LINK)) {
      if (m[1] === '!') continue;
      links.push({ kind: 'md', target: m[3]!, start: lineStart + m.index, end: lineStart + m.index + m[0].length });
    }
    for (const m of line.matchAll(WIKI_LINK)) {
      const target = wikiTarget(m[1]!);
      if (target) links.push({ kind: 'wiki', target, start: lineStart + m.index, end: lineStart + m.index + m[0].length });
    }
  }
  return links.sort((a, b) => a.start - b.start);
}

export function hasScheme(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href);
}

function dirOf(filename: string): string {
  const at = filename.lastIndexOf('/');
  return at < 0 ? '' : filename.slice(0, at + 1);
}

/** Resolves ./ and ../ of a relative path against a directory inside the memory dir. */
export function joinRelative(dir: string, rel: string): string | null {
  const parts = (dir + rel).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export type LinkTarget =
  | { kind: 'entry'; entry: MemoryEntry }
  | { kind: 'broken'; reason: string }
  | { kind: 'other' };

/** Looks entries up by file name, name and file stem, within one memory source. */
export class EntryResolver {
  private readonly byFile = new Map<string, MemoryEntry>();
  private readonly byFoldedFile = new Map<string, MemoryEntry>();
  private readonly byName = new Map<string, MemoryEntry>();
  private readonly byFoldedName = new Map<string, MemoryEntry>();

  constructor(entries: MemoryEntry[]) {
    for (const e of entries) {
      this.byFile.set(e.filename, e);
      if (!this.byFoldedFile.has(foldCase(e.filename))) this.byFoldedFile.set(foldCase(e.filename), e);
      if (!this.byName.has(e.name)) this.byName.set(e.name, e);
      const stem = e.filename.replace(/\.md$/i, '');
      for (const key of [foldCase(e.name), foldCase(stem), foldCase(stem.split('/').pop() ?? stem)]) {
        if (!this.byFoldedName.has(key)) this.byFoldedName.set(key, e);
      }
    }
  }

  /** An entry by the file name stored in `links` / `linkedFrom` / `orphans`, or by wikilink name. */
  lookup(name: string): MemoryEntry | null {
    return (
      this.byFile.get(name) ??
      this.byFoldedFile.get(foldCase(name)) ??
      this.byName.get(name) ??
      this.byFoldedName.get(foldCase(name.replace(/\.md$/i, ''))) ??
      null
    );
  }

  resolveWiki(target: string): LinkTarget {
    const entry = this.byName.get(target) ?? this.byFile.get(target) ?? this.lookup(target);
    return entry ? { kind: 'entry', entry } : { kind: 'broken', reason: `No memory named “${target}” in this folder` };
  }

  /** A markdown link's href as written in `from`: relative .md files become entries. */
  resolveHref(href: string, fromFilename: string): LinkTarget {
    if (hasScheme(href) || href.startsWith('#') || href.startsWith('/') || href.startsWith('//')) return { kind: 'other' };
    const path = safeDecode(href.split('#')[0]!.split('?')[0]!);
    if (!/\.md$/i.test(path)) return { kind: 'other' };
    const joined = joinRelative(dirOf(fromFilename), path);
    if (joined === null) return { kind: 'broken', reason: `${path} lies outside this memory folder` };
    const entry = this.byFile.get(joined) ?? this.byFoldedFile.get(foldCase(joined));
    return entry ? { kind: 'entry', entry } : { kind: 'broken', reason: `${joined} does not exist in this memory folder` };
  }

  resolve(link: FoundLink, fromFilename: string): LinkTarget {
    return link.kind === 'wiki' ? this.resolveWiki(link.target) : this.resolveHref(link.target, fromFilename);
  }
}

export interface IndexReach {
  /** Topic entries linked from the index only after the cut: Claude Code never sees their link. */
  unreachable: MemoryEntry[];
  /** Topic entries linked before the cut. */
  reachable: MemoryEntry[];
}

/** Which topics the index links to before and only after the cut offset. */
export function indexReach(content: string, keptEnd: number, resolver: EntryResolver, indexFilename = 'MEMORY.md'): IndexReach {
  const before = new Map<string, MemoryEntry>();
  const after = new Map<string, MemoryEntry>();
  for (const link of findLinks(content)) {
    const target = resolver.resolve(link, indexFilename);
    if (target.kind !== 'entry' || target.entry.isIndex) continue;
    (link.end <= keptEnd ? before : after).set(target.entry.id, target.entry);
  }
  return {
    reachable: [...before.values()],
    unreachable: [...after.values()].filter((e) => !before.has(e.id)),
  };
}

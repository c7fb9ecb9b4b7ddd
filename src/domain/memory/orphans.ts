// What counts as an orphan topic, once, for the health check (and MCP `memory_health`), the Document tab's
// index box and the sidebar: a topic Claude Code learns of only by listing the folder. Not an orphan: a
// topic MEMORY.md links, one reached by following links from a topic it links (the overflow topic of
// move-past-cut), a pinned memory (it applies to every session whether linked or not). A topic MEMORY.md
// names in backticks (`user_role.md`) is still not linked: an orphan, "named but not linked". The
// listing's `orphans` field (the spec's) stays literal: the topics MEMORY.md does not link. Free of Node APIs.
import type { Linkable, LinkResolver } from './linkResolver.js';

export interface OrphanEntry extends Linkable {
  /** Entries this one links to (the listing's `links`). */
  links: readonly string[];
}

/** A name in backticks in MEMORY.md's text that looks like a memory file (`user_role.md`). */
export interface Mention {
  /** As written between the backticks. */
  text: string;
  /** 1-based line of MEMORY.md. */
  line: number;
}

export interface Orphan {
  file: string;
  /** The first mention of it in MEMORY.md's text (not a link), or null. */
  named: Mention | null;
}

const INDEX = 'MEMORY.md';
/** `name.md` or `folder/name.md` between single backticks, no spaces at the ends. */
const MENTION = /`([^`\s][^`\n]*?\.md)`/gi;
const MAX_MENTIONS = 2000;

/** The backticked `.md` names of MEMORY.md's text, in text order. */
export function indexMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && out.length < MAX_MENTIONS; i++) {
    for (const m of lines[i]!.matchAll(MENTION)) out.push({ text: m[1]!, line: i + 1 });
  }
  return out;
}

/**
 * The orphan topics of one source, in listing order. `pinned`: file names of pinned memories (the health
 * check's `pinned`); `mentions` of MEMORY.md when known (the sidebar does not read the text: `named` is null).
 */
export function findOrphans<E extends OrphanEntry>(
  entries: readonly E[],
  pinned: Iterable<string>,
  resolver: LinkResolver<E> | null = null,
  mentions: readonly Mention[] = [],
): Orphan[] {
  const byFile = new Map(entries.map((e) => [e.filename, e]));
  const index = byFile.get(INDEX);
  const reached = new Set<string>();
  const queue = index && index.isIndex ? [...index.links] : [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const next of byFile.get(file)?.links ?? []) if (!reached.has(next)) queue.push(next);
  }
  const skip = new Set(pinned);
  const namedAt = new Map<string, Mention>();
  if (resolver) {
    for (const m of mentions) {
      const r = resolver.path(m.text, INDEX);
      if (r.kind === 'entry' && !namedAt.has(r.entry.filename)) namedAt.set(r.entry.filename, m);
    }
  }
  return entries
    .filter((e) => !e.isIndex && !reached.has(e.filename) && !skip.has(e.filename))
    .map((e) => ({ file: e.filename, named: namedAt.get(e.filename) ?? null }));
}

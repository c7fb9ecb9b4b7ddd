// Links between memory files, as the service resolves them: link finding, wikilink and path resolution
// and frontmatter parsing are the service's own modules, imported rather than copied, so a link the
// service lists in `links` is the one the reader opens, and one it lists as dangling is marked broken.
import type { MemoryEntry } from '../api/types';
import type { RenderEnv, ResolvedLink } from '../reader/markdown';
import { entryHref } from '../state/url';
import { parseFrontmatter, type Frontmatter } from '../../../src/domain/markdown/frontmatter';
import { findLinks, type FoundLink } from '../../../src/domain/markdown/links';
import { LinkResolver, type Resolution } from '../../../src/domain/memory/linkResolver';

export { findLinks, LinkResolver };

export type EntryResolver = LinkResolver<MemoryEntry>;

/** A memory file split as the service splits it: frontmatter, body, and where the body starts. */
export interface MemoryDocument extends Frontmatter {
  /** Offset in the content where the body starts. */
  bodyStartOffset: number;
  /** 0-based line of the content where the body starts. */
  bodyStartLine: number;
}

export function splitMemoryFile(content: string): MemoryDocument {
  const parsed = parseFrontmatter(content);
  // The body is always a suffix of the content.
  const bodyStartOffset = content.length - parsed.body.length;
  let bodyStartLine = 0;
  for (let at = content.indexOf('\n'); at !== -1 && at < bodyStartOffset; at = content.indexOf('\n', at + 1)) bodyStartLine++;
  return { ...parsed, bodyStartOffset, bodyStartLine };
}

export function resolveLink(resolver: EntryResolver, link: FoundLink, fromFilename: string): Resolution<MemoryEntry> {
  return link.kind === 'wiki' ? resolver.wiki(link.target) : resolver.href(link.target, fromFilename);
}

/** How the reader renders the links of the entry `fromFilename`: in-app navigation, or marked broken. */
export function linkRenderOptions(resolver: EntryResolver, fromFilename: string): Pick<RenderEnv, 'wikilinks' | 'resolveWiki' | 'resolveHref'> {
  const toNav = (target: MemoryEntry): ResolvedLink => ({
    kind: 'nav',
    href: entryHref(target.sourceId, target.id),
    nav: `entry:${target.id}`,
    title: target.name,
  });
  const toLink = (r: Resolution<MemoryEntry>): ResolvedLink | null => {
    if (r.kind === 'entry') return toNav(r.entry);
    return r.kind === 'broken' ? { kind: 'broken', reason: r.reason, target: r.target } : null;
  };
  return {
    wikilinks: true,
    // A wikilink is never "other": it names an entry or nothing.
    resolveWiki: (target) => toLink(resolver.wiki(target)) ?? { kind: 'broken', reason: 'not found' },
    resolveHref: (href) => toLink(resolver.href(href, fromFilename)),
  };
}

export interface IndexReach {
  /** Topic entries linked from the index only after the cut: Claude Code never sees their link. */
  unreachable: MemoryEntry[];
  /** Topic entries linked before the cut. */
  reachable: MemoryEntry[];
}

/**
 * Which topics the index links to before and only after the cut offset (an offset in the whole
 * content; links are looked for in the body, as the service does).
 */
export function indexReach(doc: MemoryDocument, keptEnd: number, resolver: EntryResolver, indexFilename = 'MEMORY.md'): IndexReach {
  const before = new Map<string, MemoryEntry>();
  const after = new Map<string, MemoryEntry>();
  for (const link of findLinks(doc.body)) {
    const target = resolveLink(resolver, link, indexFilename);
    if (target.kind !== 'entry' || target.entry.isIndex) continue;
    (doc.bodyStartOffset + link.end <= keptEnd ? before : after).set(target.entry.id, target.entry);
  }
  return {
    reachable: [...before.values()],
    unreachable: [...after.values()].filter((e) => !before.has(e.id)),
  };
}

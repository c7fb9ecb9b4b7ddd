// dangling and orphan: links to nothing (in MEMORY.md and in topics), and topics Claude Code learns of only by
// listing the folder (orphans.ts, the one definition the UI uses too).
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import { type SourceContext, problem, topics } from '../context.js';
import { findOrphans } from '../../orphans.js';
import { suggestTarget } from '../suggest.js';

export function linkProblems(ctx: SourceContext): MemoryProblem[] {
  const problems: MemoryProblem[] = [];
  for (const { entry, file } of ctx.byFile.values()) {
    const lineOf = new Map<string, number>();
    for (const link of file.parsed.facts.index?.links ?? []) {
      const r = link.kind === 'wiki' ? ctx.resolver.wiki(link.target) : ctx.resolver.path(link.target, entry.filename);
      if (r.kind === 'broken' && !lineOf.has(r.target)) lineOf.set(r.target, link.line);
    }
    const broken = new Set<string>();
    for (const target of file.parsed.markdownTargets) {
      const r = ctx.resolver.path(target, entry.filename);
      if (r.kind === 'broken') broken.add(r.target);
    }
    for (const name of file.parsed.wikiTargets) {
      const r = ctx.resolver.wiki(name);
      if (r.kind === 'broken') broken.add(r.target);
    }
    for (const target of broken) {
      const suggestion = suggestTarget(target, ctx.entries);
      problems.push(problem({
        kind: 'dangling',
        file: entry.filename,
        line: lineOf.get(target) ?? null,
        message: `Links to ${target}, which does not exist in this folder` +
          (suggestion ? `; ${suggestion.filename} looks like the file it meant.` : '.'),
        fix: suggestion ? 'retarget-link' : 'remove-link',
        target,
        related: suggestion ? [{ sourceId: ctx.source.id, file: suggestion.filename }] : [],
      }));
    }
  }
  const pinned = topics(ctx).filter((t) => t.file.parsed.facts.pinned).map((t) => t.entry.filename);
  const mentions = ctx.index?.file.parsed.facts.index?.mentions ?? [];
  for (const orphan of findOrphans(ctx.entries, pinned, ctx.resolver, mentions)) {
    const entry = ctx.byFile.get(orphan.file)?.entry;
    const name = entry?.name ?? orphan.file;
    problems.push(problem(orphan.named
      ? {
        kind: 'orphan',
        file: orphan.file,
        line: orphan.named.line,
        message: `${name} is named but not linked: MEMORY.md mentions \`${orphan.named.text}\` on line ${orphan.named.line} as text, ` +
          'so Claude Code does not follow it to the file.',
        fix: 'link-mention',
        target: orphan.named.text,
      }
      : {
        kind: 'orphan',
        file: orphan.file,
        message: `${name} is not linked from MEMORY.md, nor from a topic it links: Claude Code learns of it only by ` +
          'listing the folder.',
        fix: 'add-to-index',
      }));
  }
  return problems;
}

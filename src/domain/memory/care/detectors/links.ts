// dangling and orphan: links to nothing (in MEMORY.md and in topics), and topics MEMORY.md does not link.
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import { type SourceContext, problem, topics } from '../context.js';
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
  const pinned = new Set(topics(ctx).filter((t) => t.file.parsed.facts.pinned).map((t) => t.entry.filename));
  const reached = reachable(ctx);
  for (const orphan of ctx.source.orphans) {
    // A pinned memory applies to every session whether or not the index links it; a topic linked from a
    // topic the index links (the overflow topic of move-past-cut) is found by following links.
    if (pinned.has(orphan) || reached.has(orphan)) continue;
    const entry = ctx.byFile.get(orphan)?.entry;
    problems.push(problem({
      kind: 'orphan',
      file: orphan,
      message: `${entry?.name ?? orphan} is not linked from MEMORY.md, nor from a topic it links: Claude Code learns of it only by ` +
        'listing the folder.',
      fix: 'add-to-index',
    }));
  }
  return problems;
}

/** Topics reached from MEMORY.md by following links (`links` of the listing). */
function reachable(ctx: SourceContext): Set<string> {
  const seen = new Set<string>();
  const queue = ctx.index ? [...ctx.index.entry.links] : [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of ctx.byFile.get(file)?.entry.links ?? []) if (!seen.has(next)) queue.push(next);
  }
  return seen;
}

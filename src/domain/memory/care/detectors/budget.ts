// over-budget and unreachable: what of MEMORY.md Claude Code does not load (load budget rule, see
// loadBudget.ts), and the topics whose only link from the index lies there.
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import type { MemoryEntry } from '../../../types.js';
import { INDEX_CHAR_LIMIT, INDEX_LINE_LIMIT } from '../../loadBudget.js';
import { type SourceContext, listNames, problem } from '../context.js';
import type { IndexLink } from '../fileFacts.js';

export function budgetProblems(ctx: SourceContext): MemoryProblem[] {
  const index = ctx.index;
  const facts = index?.file.parsed.facts.index;
  if (!index || !facts || !facts.truncated || facts.firstUnreadLine === null) return [];
  const first = facts.firstUnreadLine;
  const last = Math.max(first, index.file.parsed.lineCount);
  const loaded = new Set<string>();
  // Each topic linked only past the cut, with the first line that links it.
  const pastCut = new Map<string, { entry: MemoryEntry; line: number }>();
  for (const link of facts.links) {
    const entry = resolve(ctx, link);
    if (entry === null || entry.isIndex) continue;
    if (link.loaded) loaded.add(entry.filename);
    else if (!pastCut.has(entry.filename)) pastCut.set(entry.filename, { entry, line: link.line });
  }
  const unreachable = [...pastCut.values()].filter((p) => !loaded.has(p.entry.filename));
  const names = [...pastCut.values()].map((p) => p.entry.name);
  const limits = facts.reason === 'lines' ? `${INDEX_LINE_LIMIT} lines` : facts.reason === 'chars'
    ? `${INDEX_CHAR_LIMIT.toLocaleString('en-US')} characters` : `${INDEX_LINE_LIMIT} lines and ${INDEX_CHAR_LIMIT.toLocaleString('en-US')} characters`;
  const problems: MemoryProblem[] = [problem({
    kind: 'over-budget',
    file: index.entry.filename,
    line: first,
    message: `Claude Code loads ${facts.keptLines} of ${facts.totalLines} counted lines (${facts.keptChars.toLocaleString('en-US')} of ` +
      `${facts.totalChars.toLocaleString('en-US')} characters; limit ${limits}) and never sees line${first === last ? ` ${first}` : `s ${first}–${last}`}` +
      (names.length > 0 ? `, with the index ${names.length === 1 ? 'entry' : 'entries'} ${listNames(names, 8)}.` : '.'),
    fix: 'move-past-cut',
    related: [...pastCut.values()].map((p) => ({ sourceId: ctx.source.id, file: p.entry.filename })),
  })];
  for (const { entry, line } of unreachable) {
    problems.push(problem({
      kind: 'unreachable',
      file: index.entry.filename,
      line,
      message: `${entry.name} is linked from MEMORY.md only on line ${line}, past the cut: Claude Code never sees the link.`,
      fix: 'move-past-cut',
      target: entry.filename,
      related: [{ sourceId: ctx.source.id, file: entry.filename }],
    }));
  }
  return problems;
}

function resolve(ctx: SourceContext, link: IndexLink): MemoryEntry | null {
  const r = link.kind === 'wiki' ? ctx.resolver.wiki(link.target) : ctx.resolver.path(link.target, ctx.index!.entry.filename);
  return r.kind === 'entry' ? r.entry : null;
}

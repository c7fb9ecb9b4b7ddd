// truncated-value, bad-frontmatter and pinned-over-limit: what Claude Code reads of a file's frontmatter.
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import { type SourceContext, listNames, problem, topics } from '../context.js';

/** Claude Code applies at most this many pinned memories to every session (formats doc, 2.1.221). */
export const PINNED_LIMIT = 4;

export function frontmatterProblems(ctx: SourceContext): MemoryProblem[] {
  const problems: MemoryProblem[] = [];
  for (const { entry, file } of ctx.byFile.values()) {
    const facts = file.parsed.facts;
    for (const cut of facts.cutValues) {
      problems.push(problem({
        kind: 'truncated-value',
        file: entry.filename,
        line: cut.line,
        message: `${cut.key} is written as “${cut.written}” but Claude Code reads ${cut.read === '' ? 'nothing' : `“${cut.read}”`}: ` +
          'an unquoted “ #” starts a comment, and the rest is dropped the next time Claude Code rewrites the file.',
        fix: 'quote-value',
        target: cut.key,
      }));
    }
    const invalid = facts.invalidFrontmatter;
    if (invalid) {
      problems.push(problem({
        kind: 'bad-frontmatter',
        file: entry.filename,
        line: invalid.quotable?.line ?? invalid.line,
        message: `The frontmatter does not parse as YAML (${invalid.message})` +
          (invalid.quotable ? `; quoting the value of ${invalid.quotable.key} makes it parse.` : '.'),
        fix: invalid.quotable ? 'quote-value' : null,
        target: invalid.quotable?.key ?? null,
      }));
    }
  }
  const pinned = topics(ctx).filter((t) => t.file.parsed.facts.pinned);
  if (pinned.length > PINNED_LIMIT) {
    problems.push(problem({
      kind: 'pinned-over-limit',
      file: null,
      message: `${pinned.length} memories are pinned, but at most ${PINNED_LIMIT} apply to every session: ` +
        `${listNames(pinned.map((p) => p.entry.name), 8)}.`,
      related: pinned.map((p) => ({ sourceId: ctx.source.id, file: p.entry.filename })),
    }));
  }
  return problems;
}

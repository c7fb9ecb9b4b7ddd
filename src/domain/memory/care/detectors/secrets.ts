// secret: lines that look like a credential. The message names the kind and the line only.
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import { type SourceContext, problem } from '../context.js';

export function secretProblems(ctx: SourceContext): MemoryProblem[] {
  const problems: MemoryProblem[] = [];
  for (const { entry, file } of ctx.byFile.values()) {
    for (const hit of file.parsed.facts.secrets) {
      problems.push(problem({
        kind: 'secret',
        file: entry.filename,
        line: hit.line,
        message: `Line ${hit.line} looks like a ${hit.kind}. Claude Code loads it into sessions, and memory folders end up in ` +
          'repositories and backups: remove it and rotate the credential.',
      }));
    }
  }
  return problems;
}

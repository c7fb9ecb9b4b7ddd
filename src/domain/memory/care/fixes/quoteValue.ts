// quote-value: writes a frontmatter value in double quotes, so YAML reads all of it: a value an unquoted
// ` #` cuts (Claude Code would drop the rest on its next rewrite), or one whose `: ` keeps the block from
// parsing. When the block does not parse, every value that needs quotes is quoted in the same change.
// Only the values change; the result must parse, with the key reading exactly what was written.
import { parseFrontmatter } from '../../../markdown/frontmatter.js';
import { type KeyLine, keyLines, lineOfKey, needsQuotes, quoted } from '../frontmatterLines.js';
import type { FixInput, FixPlan } from './types.js';

export function quoteValue(input: FixInput): FixPlan {
  const { file, target } = input;
  if (target === null) return { invalid: 'quote-value needs the frontmatter key' };
  const text = input.read(file);
  if (text === null || !input.ctx.byFile.has(file)) return { conflict: `${file} does not exist any more` };
  const lines = keyLines(text);
  const line = lineOfKey(lines, target);
  if (line === null || !needsQuotes(line.value)) return { conflict: `${target} needs no quotes in ${file} any more` };
  const before = parseFrontmatter(text);
  const quote: KeyLine[] = before.invalid ? lines.filter((l) => needsQuotes(l.value)) : [line];
  let after = text;
  for (const l of [...quote].sort((a, b) => b.valueStart - a.valueStart)) {
    after = after.slice(0, l.valueStart) + quoted(l.value) + after.slice(l.valueEnd);
  }
  const parsed = parseFrontmatter(after);
  if (parsed.invalid || parsed.data[target] !== line.value) {
    return { conflict: `quoting ${target} would not make the frontmatter of ${file} read it whole` };
  }
  return { changes: [{ file, before: text, after }] };
}

// link-mention: MEMORY.md names a topic in backticks (`user_role.md`) without linking it; the first such
// mention becomes a link to the topic (`[user_role.md](user_role.md)`), where it stands, so the index reads
// the same and Claude Code can follow it.
import { INDEX_FILE } from '../../scan.js';
import type { FixInput, FixPlan } from './types.js';
import { linkDestination, linkText } from './lines.js';

export function linkMention(input: FixInput): FixPlan {
  const { ctx, file, target } = input;
  if (file === INDEX_FILE) return { invalid: 'MEMORY.md is the index itself' };
  if (target === null) return { invalid: 'link-mention needs the name MEMORY.md mentions' };
  if (!ctx.byFile.has(file) || input.read(file) === null) return { conflict: `${file} does not exist any more` };
  if (!ctx.source.orphans.includes(file)) return { conflict: `MEMORY.md already links ${file}` };
  const resolved = ctx.resolver.path(target, INDEX_FILE);
  if (resolved.kind !== 'entry' || resolved.entry.filename !== file) return { invalid: `${target} does not name ${file}` };
  const index = input.read(INDEX_FILE);
  if (index === null) return { conflict: 'MEMORY.md does not exist any more' };
  const mention = `\`${target}\``;
  // Not one already inside a link's text (`[`x.md`](…)`).
  let at = index.indexOf(mention);
  while (at !== -1 && index[at - 1] === '[') at = index.indexOf(mention, at + 1);
  if (at === -1) return { conflict: `MEMORY.md no longer mentions ${target}` };
  const link = `[${linkText(target)}](${linkDestination(file)})`;
  return { changes: [{ file: INDEX_FILE, before: index, after: index.slice(0, at) + link + index.slice(at + mention.length) }] };
}

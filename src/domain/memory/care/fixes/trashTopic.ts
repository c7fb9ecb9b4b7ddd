// trash-topic: a stale or duplicate topic leaves its folder (its bytes are kept in the trash, see
// undoStore.ts, and come back with an undo), and the index entry lines that link it go with it.
import { INDEX_FILE } from '../../scan.js';
import type { FixInput, FixPlan } from './types.js';
import { entryLine, fencedLines, joinLines, splitLines } from './lines.js';
import { linkPath } from '../../../markdown/linkPath.js';

export function trashTopic(input: FixInput): FixPlan {
  const { ctx, file } = input;
  if (file === INDEX_FILE) return { invalid: 'MEMORY.md is not a topic' };
  const topic = input.read(file);
  if (topic === null || !ctx.byFile.has(file)) return { conflict: `${file} does not exist any more` };
  const changes: { file: string; before: string | null; after: string | null }[] = [];
  const index = input.read(INDEX_FILE);
  if (index !== null) {
    const lines = splitLines(index);
    const fenced = fencedLines(lines);
    const kept = lines.filter((line, i) => {
      if (fenced.has(i)) return true;
      const entry = entryLine(line.text);
      if (entry === null) return true;
      const r = entry.link.kind === 'wiki' ? ctx.resolver.wiki(entry.link.target)
        : linkPath(entry.link.target) === null ? null : ctx.resolver.path(linkPath(entry.link.target)!, INDEX_FILE);
      return !(r?.kind === 'entry' && r.entry.filename === file);
    });
    if (kept.length !== lines.length) changes.push({ file: INDEX_FILE, before: index, after: joinLines(kept) });
  }
  changes.push({ file, before: topic, after: null });
  return { changes };
}

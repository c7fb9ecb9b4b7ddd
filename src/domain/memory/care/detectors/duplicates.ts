// duplicate: the same memory twice. In one source: the same name, nearly the same description, or the
// same text; the later copy (listing order) is the one reported, with a fix that removes it. Across
// sources: the same fact (the same text, or the same description) in several projects, reported in each
// without a fix (which copy should stay is the user's call).
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import { foldCase } from '../../../fold.js';
import type { MemoryEntry } from '../../../types.js';
import { type SourceContext, listNames, problem, topics } from '../context.js';

/** Word-set overlap (Jaccard) from which two descriptions say the same thing. */
export const NEAR_DESCRIPTION = 0.8;
/** Descriptions shorter than this (in words) are too generic to call alike. */
const MIN_WORDS = 4;
/** Past this many topics in one source the pairwise comparison is skipped (exact matches still count). */
const MAX_PAIRWISE = 500;
/** A fact kept in 150 projects names the first of the others, not all of them in each. */
const MAX_RELATED = 20;

function words(text: string | null): string[] {
  if (text === null) return [];
  return foldCase(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

export function duplicateProblems(ctx: SourceContext): MemoryProblem[] {
  const list = topics(ctx).map((t) => ({ ...t, words: new Set(words(t.entry.description)) }));
  const reported = new Set<string>();
  const problems: MemoryProblem[] = [];
  const report = (later: MemoryEntry, earlier: MemoryEntry, why: string): void => {
    if (reported.has(later.filename)) return;
    reported.add(later.filename);
    problems.push(problem({
      kind: 'duplicate',
      file: later.filename,
      message: `${why} as ${earlier.filename}: Claude Code loads both. Removing this one keeps ${earlier.filename}.`,
      fix: 'trash-topic',
      related: [{ sourceId: ctx.source.id, file: earlier.filename }],
    }));
  };
  const byName = new Map<string, MemoryEntry>();
  const byBody = new Map<string, MemoryEntry>();
  for (const t of list) {
    const name = foldCase(t.entry.name.trim());
    const first = byName.get(name);
    if (first) report(t.entry, first, 'The same name');
    else byName.set(name, t.entry);
    const key = t.file.parsed.facts.bodyKey;
    if (key !== null) {
      const same = byBody.get(key);
      if (same) report(t.entry, same, 'The same text');
      else byBody.set(key, t.entry);
    }
  }
  if (list.length <= MAX_PAIRWISE) {
    for (let j = 1; j < list.length; j++) {
      const b = list[j]!;
      if (b.words.size < MIN_WORDS || reported.has(b.entry.filename)) continue;
      for (let i = 0; i < j; i++) {
        const a = list[i]!;
        if (a.words.size >= MIN_WORDS && jaccard(a.words, b.words) >= NEAR_DESCRIPTION) {
          report(b.entry, a.entry, 'Nearly the same description');
          break;
        }
      }
    }
  }
  return problems;
}

/** The same fact in several sources: problems by source id. */
export function crossSourceDuplicates(contexts: readonly SourceContext[]): Map<string, MemoryProblem[]> {
  interface Copy { ctx: SourceContext; entry: MemoryEntry }
  const groups = new Map<string, Copy[]>();
  const add = (key: string, copy: Copy): void => {
    const list = groups.get(key);
    if (list) list.push(copy);
    else groups.set(key, [copy]);
  };
  for (const ctx of contexts) {
    for (const t of topics(ctx)) {
      const key = t.file.parsed.facts.bodyKey;
      if (key !== null) add(`text\0${key}`, { ctx, entry: t.entry });
      const description = words(t.entry.description);
      if (description.length >= MIN_WORDS) add(`description\0${description.join(' ')}`, { ctx, entry: t.entry });
    }
  }
  const out = new Map<string, MemoryProblem[]>();
  const seen = new Set<string>();
  for (const copies of groups.values()) {
    const sources = new Set(copies.map((c) => c.ctx.source.id));
    if (sources.size < 2) continue;
    for (const copy of copies) {
      const others = copies.filter((c) => c.ctx.source.id !== copy.ctx.source.id);
      const id = `${copy.ctx.source.id}\0${copy.entry.filename}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const projects = [...new Set(others.map((c) => c.ctx.source.project))];
      const list = out.get(copy.ctx.source.id) ?? [];
      list.push(problem({
        kind: 'duplicate',
        file: copy.entry.filename,
        message: `The same fact is also kept in ${listNames(projects)}: a user-level memory would hold it once.`,
        related: others.slice(0, MAX_RELATED).map((c) => ({ sourceId: c.ctx.source.id, file: c.entry.filename })),
      }));
      out.set(copy.ctx.source.id, list);
    }
  }
  return out;
}

// stale: a topic nobody has changed for a long time while the session that wrote it is gone (Claude
// Code deletes transcripts after 30 days by default, so nothing says any more why it was written).
// Only work-in-progress memories age: `project` ones and untyped ones (whose kind nobody recorded).
// `user` and `feedback` record lasting preferences, `reference` points elsewhere: old is not outdated.
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import { type SourceContext, problem, topics } from '../context.js';

export const DEFAULT_STALE_DAYS = 90;
const DAY_MS = 86_400_000;

export interface StaleOptions {
  now: number;
  staleDays: number;
  /** Whether a session log with this id is still known. */
  sessionKnown(sessionId: string): boolean;
}

export function staleProblems(ctx: SourceContext, o: StaleOptions): MemoryProblem[] {
  const problems: MemoryProblem[] = [];
  for (const { entry, file } of topics(ctx)) {
    // A pinned memory is kept on purpose.
    if (file.parsed.facts.pinned) continue;
    if (entry.type !== null && entry.type !== 'project') continue;
    const written = Date.parse(file.parsed.modified);
    const changed = Math.max(file.parsed.mtimeMs, Number.isNaN(written) ? 0 : written);
    const days = Math.floor((o.now - changed) / DAY_MS);
    if (days < o.staleDays) continue;
    const session = entry.sessionId;
    if (session !== null && o.sessionKnown(session)) continue;
    problems.push(problem({
      kind: 'stale',
      file: entry.filename,
      message: `Not changed for ${days} days, and ${session === null ? 'no session is recorded for it' : 'the session that wrote it is gone'}: ` +
        'Claude Code still loads it whenever it is relevant.',
      fix: 'trash-topic',
    }));
  }
  return problems;
}

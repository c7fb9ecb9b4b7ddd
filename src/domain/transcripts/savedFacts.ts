// A log's facts besides its links (logFacts.ts), as saved with the session index (sessions/snapshot.ts):
// one JSON text per log, parsed only when something first asks for them, so that a restart that serves
// its saved plan list never parses them. Input is untrusted (a stale, corrupt or hand-edited cache):
// anything of another shape is refused whole, and the log is read again.
import { isCount } from './extractor.js';
import { EXTRACTOR_LIST, type ExtractedFacts, type ExtractorName } from './extractors/index.js';
import { emptyFacts, type LinkFacts, type LogFacts, type ReadCounts } from './logFacts.js';

/** A log's facts but its links: what one saved text holds. */
export type RestFacts = ExtractedFacts & { counts: ReadCounts };

/** Restored facts not parsed yet: their saved text, so a save writes it back as it is. */
const unparsed = new WeakMap<LogFacts, () => string>();
/** Restored facts whose saved text was not what saveRest() writes: they hold nothing but links. */
const refused = new WeakSet<LogFacts>();

/**
 * A log's facts from a cache: its links at once, the rest parsed when first asked for (see restOk()).
 * Text that is not what saveRest() writes gives no facts but the links.
 */
export function restoredFacts(links: LinkFacts, saved: () => string): LogFacts {
  let rest: RestFacts | null = null;
  const load = (): RestFacts => {
    if (rest === null) {
      unparsed.delete(facts);
      rest = readRest(saved());
      if (rest === null) {
        refused.add(facts);
        rest = emptyFacts();
      }
    }
    return rest;
  };
  const facts = { links } as LogFacts;
  for (const name of ['counts', ...EXTRACTOR_LIST.map(([n]) => n)] as (ExtractorName | 'counts')[]) {
    Object.defineProperty(facts, name, { enumerable: true, get: () => load()[name] });
  }
  unparsed.set(facts, saved);
  return facts;
}

/** Parses restored facts if they are not yet: false when they held what saveRest() never writes (read the log again). */
export function restOk(facts: LogFacts): boolean {
  void facts.counts;
  return !refused.has(facts);
}

/** Whether these are restored facts found not to be what saveRest() writes (without parsing any that are not parsed yet). */
export function restRefused(facts: LogFacts): boolean {
  return refused.has(facts);
}

/** Whether these are restored facts not parsed yet. */
export function restPending(facts: LogFacts): boolean {
  return unparsed.has(facts);
}

export function saveRest(facts: LogFacts): string {
  const saved = unparsed.get(facts);
  if (saved !== undefined) return saved();
  const all = facts as unknown as Record<ExtractorName, unknown>;
  return JSON.stringify({
    n: [facts.counts.unreadable, facts.counts.oversized],
    ...Object.fromEntries(EXTRACTOR_LIST.map(([name, extractor]) => [name, extractor.save(all[name])])),
  });
}

/** What saveRest() wrote, or null when `text` is not that. */
export function readRest(text: string): RestFacts | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const saved = data as Record<string, unknown>;
  const counts = saved.n;
  if (!Array.isArray(counts)) return null;
  const [unreadable, oversized] = counts as unknown[];
  if (!isCount(unreadable) || !isCount(oversized)) return null;
  const rest: Record<string, unknown> = { counts: { unreadable, oversized } };
  for (const [name, extractor] of EXTRACTOR_LIST) {
    if (!Object.hasOwn(saved, name)) return null;
    const facts = extractor.restore(saved[name]);
    if (facts === null) return null;
    rest[name] = facts;
  }
  return rest as RestFacts;
}

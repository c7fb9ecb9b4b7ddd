// A log's facts besides its links (logFacts.ts), as saved with the session index (sessions/snapshot.ts):
// one text per log made of parts, the read counts then each extractor's facts, each parsed only when
// something first asks for it. A restart that serves its saved plan list parses none, and the search's
// sessions parse only the session cards' part, a few MB of the tens the work after plans takes
// (docs/decisions.md, D66). Input is untrusted (a stale, corrupt or hand-edited cache): a part of another
// shape is refused, and the log is read again.
import { isCount } from './extractor.js';
import { emptyExtracted, EXTRACTOR_LIST, type ExtractedFacts, type ExtractorName } from './extractors/index.js';
import type { LinkFacts, LogFacts, ReadCounts } from './logFacts.js';

/** A log's facts but its links: what one saved text holds. */
export type RestFacts = ExtractedFacts & { counts: ReadCounts };

/** A part of the saved text: the read counts, or one extractor's facts. */
export type PartName = 'counts' | ExtractorName;

/** The parts in the order a saved text holds them. */
export const PARTS: readonly PartName[] = ['counts', ...EXTRACTOR_LIST.map(([name]) => name)];

/**
 * Between two parts of a saved text. JSON.stringify() writes no raw tab (a string's is escaped), and in
 * UTF-8 the byte 0x09 is never part of another character: a part is found without decoding the others.
 */
export const PART_SEPARATOR = '\t';

/** A log's saved text, whole or one part at a time ('' for a part it does not hold: refused). */
export interface SavedText {
  whole(): string;
  part(index: number): string;
}

/** A saved text held as one string. */
export function textInParts(text: string): SavedText {
  let parts: string[] | null = null;
  return {
    whole: () => text,
    part: (index) => (parts ??= text.split(PART_SEPARATOR))[index] ?? '',
  };
}

interface Restored {
  /** The text, until every part is parsed and none refused: it holds the whole cache file's bytes alive. */
  saved: SavedText | null;
  /** Parts not parsed yet. */
  pending: Set<PartName>;
  /** A part was not what saveRest() writes: the log is to be read again. */
  refused: boolean;
}

const restored = new WeakMap<LogFacts, Restored>();

/**
 * A log's facts from a cache: its links at once, each other part parsed when first asked for (see restOk()).
 * A part that is not what saveRest() writes gives empty facts, and marks the whole as refused.
 */
export function restoredFacts(links: LinkFacts, saved: SavedText): LogFacts {
  const state: Restored = { saved, pending: new Set(PARTS), refused: false };
  const values = new Map<PartName, unknown>();
  const facts = { links } as LogFacts;
  for (const [index, name] of PARTS.entries()) {
    Object.defineProperty(facts, name, {
      enumerable: true,
      get: () => {
        if (!values.has(name)) {
          state.pending.delete(name);
          let value = readPart(name, saved.part(index));
          if (value === null) {
            state.refused = true;
            value = name === 'counts' ? { unreadable: 0, oversized: 0 } : emptyExtracted()[name];
          }
          values.set(name, value);
          if (state.pending.size === 0 && !state.refused) state.saved = null;
        }
        return values.get(name);
      },
    });
  }
  restored.set(facts, state);
  return facts;
}

/**
 * Parses these parts of restored facts (all when none are named) if they are not yet: false when one of
 * them held what saveRest() never writes (read the log again). True for facts that were not restored.
 */
export function restOk(facts: LogFacts, parts: readonly PartName[] = PARTS): boolean {
  const state = restored.get(facts);
  if (state === undefined) return true;
  for (const name of parts) void facts[name];
  return !state.refused;
}

/** Whether these are restored facts found not to be what saveRest() writes (parsing nothing more). */
export function restRefused(facts: LogFacts): boolean {
  return restored.get(facts)?.refused === true;
}

/** Whether these are restored facts with any of these parts (all when none are named) not parsed yet. */
export function restPending(facts: LogFacts, parts: readonly PartName[] = PARTS): boolean {
  const pending = restored.get(facts)?.pending;
  return pending !== undefined && parts.some((name) => pending.has(name));
}

export function saveRest(facts: LogFacts): string {
  const state = restored.get(facts);
  // Restored facts do not change (a read goes on in a copy, logFacts.ts): the text they came from is theirs
  // while it is kept. Refused ones keep it: written back as they were, they are refused again, never saved as
  // the empty facts that stand in for them until their log is read again.
  if (state?.saved != null) return state.saved.whole();
  const all = facts as unknown as Record<ExtractorName, unknown>;
  return [
    JSON.stringify([facts.counts.unreadable, facts.counts.oversized]),
    ...EXTRACTOR_LIST.map(([name, extractor]) => JSON.stringify(extractor.save(all[name]))),
  ].join(PART_SEPARATOR);
}

/** What saveRest() wrote, or null when `text` is not that. */
export function readRest(text: string): RestFacts | null {
  const saved = textInParts(text);
  if (text.split(PART_SEPARATOR).length !== PARTS.length) return null;
  const rest: Record<string, unknown> = {};
  for (const [index, name] of PARTS.entries()) {
    const value = readPart(name, saved.part(index));
    if (value === null) return null;
    rest[name] = value;
  }
  return rest as RestFacts;
}

const extractors = new Map(EXTRACTOR_LIST);

/** One part as saveRest() wrote it, or null. */
function readPart(name: PartName, text: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (name !== 'counts') return extractors.get(name)!.restore(data);
  if (!Array.isArray(data) || data.length !== 2) return null;
  const [unreadable, oversized] = data as unknown[];
  return isCount(unreadable) && isCount(oversized) ? { unreadable, oversized } : null;
}

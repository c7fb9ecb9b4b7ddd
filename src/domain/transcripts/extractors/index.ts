// The extractors the reader runs on every line of every log, in one pass. Each keeps its own part of a
// log's facts, under its name here; the links are the plan list's and are kept apart (logFacts.ts), so a
// restart can list plans before anything else of the cache is parsed. A new fact from transcripts is a new
// extractor registered here (and a new DERIVATION_VERSION), never a new reader.
import type { Extractor } from '../extractor.js';
import type { LineView, Span } from '../lineView.js';
import type { LinkFacts, LogOwner, ReadCounts } from '../logFacts.js';
import { lineHead } from './lineHead.js';
import { linkLine } from './links.js';
import { memoryReads } from './memoryReads.js';
import { memoryWrites } from './memoryWrites.js';
import { planEvents } from './planEvents.js';
import { sessionCards } from './sessionCards.js';
import { work } from './work.js';

export const EXTRACTORS = {
  plans: planEvents,
  cards: sessionCards,
  work,
  memory: memoryWrites,
  memoryReads,
} as const;

type Extractors = typeof EXTRACTORS;
export type ExtractorName = keyof Extractors;
export type ExtractedFacts = { [N in ExtractorName]: Extractors[N] extends Extractor<infer F> ? F : never };

/** Every extractor by name, for code that treats them alike (saving, restoring, emptying). */
export const EXTRACTOR_LIST = Object.entries(EXTRACTORS) as [ExtractorName, Extractor<unknown>][];

/** What one log says, as of its last read. */
export type LogFacts = ExtractedFacts & { links: LinkFacts; counts: ReadCounts };

export function extractLine(facts: LogFacts, line: LineView, owner: LogOwner, span: Span, number: number): void {
  const head = lineHead(line, owner, span, number);
  linkLine(facts.links, line, owner, head);
  const all = facts as unknown as Record<ExtractorName, unknown>;
  for (const [name, extractor] of EXTRACTOR_LIST) extractor.line(all[name], line, head);
}

export function emptyExtracted(): ExtractedFacts {
  return Object.fromEntries(EXTRACTOR_LIST.map(([name, extractor]) => [name, extractor.empty()])) as ExtractedFacts;
}

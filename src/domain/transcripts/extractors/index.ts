// The extractors the reader runs on every line of every log, in one pass: each keeps its own part of the
// log's facts (logFacts.ts). A new fact from transcripts is a new extractor here, never a new reader.
import type { LineView, Span } from '../lineView.js';
import type { LogFacts, LogOwner } from '../logFacts.js';
import { lineHead } from './lineHead.js';
import { linkLine } from './links.js';
import { planLine } from './planEvents.js';
import { cardLine } from './sessionCards.js';

export function extractLine(facts: LogFacts, line: LineView, owner: LogOwner, span: Span, number: number): void {
  const head = lineHead(line, owner, span, number);
  linkLine(facts.links, line, owner, head);
  planLine(facts.plans, line, head);
  cardLine(facts.cards, line, head);
}

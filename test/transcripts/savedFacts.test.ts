// A log's saved facts in parts (savedFacts.ts): each part parsed only when read, a part of another shape
// refused (empty facts stand in until the log is read again), and what a save writes for restored facts.
import { describe, expect, it } from 'vitest';
import { emptyFacts } from '../../src/domain/transcripts/logFacts.js';
import { PART_SEPARATOR, PARTS, readRest, restOk, restPending, restRefused, restoredFacts, saveRest, textInParts } from '../../src/domain/transcripts/savedFacts.js';

const saved = saveRest(emptyFacts());
const withPart = (name: (typeof PARTS)[number], text: string): string =>
  saved.split(PART_SEPARATOR).map((part, i) => (i === PARTS.indexOf(name) ? text : part)).join(PART_SEPARATOR);

describe('saved facts in parts', () => {
  it('hold one part per extractor and the read counts, read back as they were written', () => {
    expect(saved.split(PART_SEPARATOR)).toHaveLength(PARTS.length);
    expect(readRest(saved)).toEqual(Object.fromEntries(PARTS.map((name) => [name, emptyFacts()[name]])));
    expect(readRest(`${saved}${PART_SEPARATOR}[]`)).toBeNull();
  });

  it('parse a part when it is first read, and only that part', () => {
    const facts = restoredFacts(emptyFacts().links, textInParts(saved));
    expect(restPending(facts)).toBe(true);
    void facts.cards;
    expect(restPending(facts, ['cards'])).toBe(false);
    expect(restPending(facts, ['work'])).toBe(true);
    expect(restOk(facts)).toBe(true);
    expect(restPending(facts)).toBe(false);
    // Every part parsed, the text is let go: a save writes the facts again, the same text.
    expect(saveRest(facts)).toBe(saved);
  });

  it('refuse a part of another shape, and write back the text they came from, never the empty facts standing in', () => {
    const broken = withPart('work', '{"not":"work"}');
    const facts = restoredFacts(emptyFacts().links, textInParts(broken));
    expect(restRefused(facts)).toBe(false);
    expect(facts.work).toEqual(emptyFacts().work);
    expect(restRefused(facts)).toBe(true);
    expect(restOk(facts)).toBe(false);
    // Saved again as it was, it is refused again at the next start, and its log read.
    expect(saveRest(facts)).toBe(broken);
  });
});

// LineMarker reads a log in chunks: which lines it marks must depend on the bytes only, never on where the
// chunks are cut; and it must mark exactly the lines a whole-line reading would, numbered as that reading counts them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAD_BYTES, LineMarker, type MarkedLine } from '../../src/domain/history/lineMarks.js';

const PIECES = [
  '"name":"Write"', '"name":"Edit"', '"name":"MultiEdit"', '"name":"ExitPlanMode"', '"name":"Bash"', '"name":"Wri', 'te"',
  '{"type":"custom-title"', '{"type":"summary"', '"type":"user"', '"type":"attachment"', '"type":"assistant"', '\\"name\\":\\"Write\\"',
  'x', 'abc', ' ', '{', '}', '"', 'é', '\n', '\n', '\n',
];
const bytes = fc.array(fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant('y'.repeat(HEAD_BYTES + 3)) },
), { maxLength: 80 }).map((parts) => Buffer.from(parts.join('')));

/** Feeds `all` as the reader does: chunks ending at the next cut past the last one, untaken bytes again. */
function marked(all: Buffer, cuts: number[], start = 0, linesBefore = 0): ReturnType<LineMarker['finish']> {
  const marker = new LineMarker(start, linesBefore);
  const ends = [...new Set(cuts.map((c) => c % (all.length + 1)))].filter((c) => c > 0).sort((a, b) => a - b);
  let at = 0;
  let lastEnd = 0;
  while (at < all.length) {
    const end = ends.find((c) => c > Math.max(at, lastEnd)) ?? all.length;
    lastEnd = end;
    const taken = marker.feed(all.subarray(at, end), start + at);
    if (taken < end - at && end >= all.length) break;
    at += taken;
  }
  return marker.finish();
}

/** The definition: split into lines, look at each whole. */
function reference(all: Buffer, start = 0, linesBefore = 0): ReturnType<LineMarker['finish']> {
  const text = all.toString('latin1');
  const lines: MarkedLine[] = [];
  let offset = 0;
  let completedTo = start;
  let complete = 0;
  const parts = text.split('\n');
  parts.forEach((line, i) => {
    if (i === parts.length - 1) return; // no newline after it: not complete
    const head = line.slice(0, HEAD_BYTES);
    const type = ['custom-title', 'ai-title', 'summary', 'last-prompt', 'cost-state', 'attachment', 'user'].find((t) => head.includes(`"type":"${t}"`)) ?? null;
    const tool = /"name":"(Write|Edit|MultiEdit|ExitPlanMode)"/.test(line);
    const range = { start: start + offset, end: start + offset + line.length, number: linesBefore + i + 1, tool, type: type as MarkedLine['type'], first: i === 0, last: i === parts.length - 2 };
    if (tool || type !== null || range.first || range.last) lines.push(range);
    offset += line.length + 1;
    completedTo = start + offset;
    complete = i + 1;
  });
  return { lines, completedTo, linesBefore: linesBefore + complete };
}

describe('LineMarker', () => {
  it('marks what a whole-line reading marks, however the bytes are cut', () => {
    fc.assert(fc.property(bytes, fc.array(fc.nat(), { maxLength: 10 }), fc.nat({ max: 1000 }), fc.nat({ max: 50 }), (all, cuts, start, linesBefore) => {
      expect(marked(all, cuts, start, linesBefore)).toEqual(reference(all, start, linesBefore));
    }), { numRuns: 2000 });
  });

  it('finds a tool key cut anywhere by the chunk boundaries', () => {
    const all = Buffer.from('{"a":1}\n{"content":[{"type":"tool_use","name":"MultiEdit","input":{}}]}\n{"b":2}\n');
    for (let cut = 0; cut <= all.length; cut++) {
      expect(marked(all, [cut]).lines.map((l) => l.tool)).toEqual([false, true, false]);
    }
  });
});

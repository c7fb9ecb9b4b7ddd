import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planFacts, readPlanFacts, sameFacts, type PlanFileRecord } from '../../src/domain/plans/planFile.js';
import { planListJson } from '../../src/domain/plans/planListing.js';

const text = fc.string({ unit: 'binary', maxLength: 30 });
const record = fc.record({
  filename: text, filepath: text, title: text, size: fc.nat(), modifiedMs: fc.double({ noNaN: true }), ino: fc.nat(),
  modified: text, created: text, lineCount: fc.nat(), wordCount: fc.nat(),
}).map((r): PlanFileRecord => ({ ...r, bytes: null, folded: null, bloom: null }));
// A project is the last segment of a session's cwd: a name without separators.
const project = text.filter((t) => t !== '' && !t.includes('/') && !t.includes('\\'));
const link = fc.record({ project: fc.option(project), sessionId: fc.option(text) });

describe('planListJson', () => {
  it('is exactly JSON.stringify of the list entries, whatever the strings hold, and records the links', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(record, link), { maxLength: 8 }), (entries) => {
        // The linker answers by file name (the last entry of a name counts), from a session's cwd.
        const byFile = new Map(entries.map(([r, l]) => [r.filename, l]));
        const linker = {
          linkForPlan: (filename: string) => {
            const l = byFile.get(filename)!;
            return l.sessionId === null ? null : { sessionId: l.sessionId, cwd: l.project === null ? null : `/src/${l.project}` };
          },
        };
        const listed = entries.map(([r]) => {
          const l = byFile.get(r.filename)!;
          return { project: l.sessionId === null ? null : l.project, sessionId: l.sessionId };
        });
        const expected = JSON.stringify(entries.map(([r], i) => ({
          filename: r.filename, filepath: r.filepath, title: r.title, size: r.size, modified: r.modified,
          created: r.created, lineCount: r.lineCount, wordCount: r.wordCount, ...listed[i],
        })));
        const links: (string | null)[] = [];
        expect(planListJson(entries.map(([r]) => r), linker, links)).toBe(expected);
        expect(links).toEqual(entries.flatMap(([r], i) => [r.filename, listed[i]!.sessionId, listed[i]!.project]));
      }),
      { numRuns: 500 },
    );
  });

});

describe('plan facts', () => {
  it('are persisted and read back as they were, and nothing else comes back with them', () => {
    // mtimes in ms have fractions; JSON keeps every finite double but -0.
    const persistable = record.map((r) => ({ ...r, modifiedMs: Math.abs(r.modifiedMs) + 0 }));
    fc.assert(fc.property(persistable, fc.dictionary(fc.string(), fc.jsonValue()), (r, extra) => {
      const facts = planFacts(r);
      expect(Object.keys(facts).sort()).toEqual(['created', 'filename', 'filepath', 'ino', 'lineCount', 'modified', 'modifiedMs', 'size', 'title', 'wordCount']);
      const back = readPlanFacts(JSON.parse(JSON.stringify({ ...extra, ...facts })));
      if (!Number.isFinite(r.modifiedMs)) {
        expect(back).toBeNull();
      } else {
        expect(back).toEqual(facts);
        expect(sameFacts(back!, r)).toBe(true);
      }
    }), { numRuns: 500 });
  });

  it('are refused when any fact is missing or of another kind', () => {
    const facts = planFacts({
      filename: 'a.md', filepath: '/p/a.md', title: 'A', size: 1, modifiedMs: 1, ino: 1, modified: 'm', created: 'c', lineCount: 1, wordCount: 1,
    });
    for (const key of Object.keys(facts)) {
      const { [key]: _gone, ...missing } = facts as unknown as Record<string, unknown>;
      expect(readPlanFacts(missing)).toBeNull();
      expect(readPlanFacts({ ...facts, [key]: typeof (facts as unknown as Record<string, unknown>)[key] === 'string' ? 1 : 'x' })).toBeNull();
    }
    expect(readPlanFacts({ ...facts, size: -1 })).toBeNull();
  });
});

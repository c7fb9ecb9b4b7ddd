import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listHead, planListJson } from '../../src/domain/plans/planListJson.js';
import type { PlanFileRecord } from '../../src/domain/plans/planFile.js';

const text = fc.string({ unit: 'binary', maxLength: 30 });
const record = fc.record({
  filename: text, filepath: text, title: text, size: fc.nat(), modifiedMs: fc.double({ noNaN: true }), ino: fc.nat(),
  modified: text, created: text, lineCount: fc.nat(), wordCount: fc.nat(),
}).map((r): PlanFileRecord => ({ ...r, bytes: null, folded: null, bloom: null }));
const link = fc.record({ project: fc.option(text), sessionId: fc.option(text) });

describe('planListJson', () => {
  it('is exactly JSON.stringify of the list entries, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(record, link), { maxLength: 8 }), (entries) => {
        const links = new Map(entries);
        const expected = JSON.stringify(entries.map(([r, l]) => ({
          filename: r.filename, filepath: r.filepath, title: r.title, size: r.size, modified: r.modified,
          created: r.created, lineCount: r.lineCount, wordCount: r.wordCount, project: l.project, sessionId: l.sessionId,
        })));
        const json = planListJson(entries.map(([r]) => r), (r) => links.get(r)!);
        expect(json).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('gives a head that is the entry up to its link fields', () => {
    const r: PlanFileRecord = {
      filename: 'a.md', filepath: '/p/a.md', title: 'A', size: 1, modifiedMs: 1, ino: 1, modified: 'm', created: 'c',
      lineCount: 1, wordCount: 1, bytes: null, folded: null, bloom: null,
    };
    expect(listHead(r)).toBe('{"filename":"a.md","filepath":"/p/a.md","title":"A","size":1,"modified":"m","created":"c","lineCount":1,"wordCount":1,');
  });
});

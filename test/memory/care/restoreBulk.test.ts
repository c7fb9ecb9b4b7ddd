// The plan of a bulk change's restore: each file back to its text from before; a file whose earlier text
// is pruned, or whose folder is gone, is skipped and named; nothing to put back is a conflict.
import { describe, expect, it } from 'vitest';
import { planRestore } from '../../../src/domain/memory/care/fixes/restoreBulk.js';
import { UnsafePath } from '../../../src/domain/memory/care/writer.js';

const disk: Record<string, string> = { 'MEMORY.md': '# New\n', 'merged.md': '# Merged\n' };
const read = (file: string): string | null => {
  if (file.startsWith('gone/')) throw new UnsafePath(`the folder of ${file} does not exist`);
  return disk[file] ?? null;
};

describe('planRestore', () => {
  it('rewrites, re-creates and removes, and skips what it cannot put back', () => {
    const plan = planRestore([
      { file: 'MEMORY.md', before: '# Old\n', pruned: false },
      { file: 'a.md', before: '# A\n', pruned: false },
      { file: 'merged.md', before: null, pruned: false },
      { file: 'b.md', before: null, pruned: true },
      { file: 'gone/c.md', before: '# C\n', pruned: false },
    ], read);
    expect(plan).toEqual({
      changes: [
        { file: 'MEMORY.md', before: '# New\n', after: '# Old\n' },
        { file: 'a.md', before: null, after: '# A\n' },
        { file: 'merged.md', before: '# Merged\n', after: null },
      ],
      skipped: ['b.md', 'gone/c.md'],
    });
  });

  it('is a conflict when every file is already as it was', () => {
    const plan = planRestore([{ file: 'MEMORY.md', before: '# New\n', pruned: false }, { file: 'gone/c.md', before: '# C\n', pruned: false }], read);
    expect(plan).toEqual({ conflict: expect.stringContaining('gone/c.md cannot be put back') as string });
  });
});

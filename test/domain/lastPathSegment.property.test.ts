import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastPathSegment } from '../../src/domain/files.js';

/** The rule: the last non-empty part between `/` and `\` separators; the input itself when there is none. */
function reference(p: string): string {
  return p.split(/[\\/]+/).filter((part) => part.length > 0).at(-1) ?? p;
}

describe('lastPathSegment', () => {
  it('is the last non-empty part between separators of either kind', () => {
    const path = fc.array(fc.constantFrom('/', '\\', 'a', 'webapp', 'C:', ' ', '.', 'ü'), { maxLength: 10 }).map((parts) => parts.join(''));
    fc.assert(fc.property(path, (p) => {
      expect(lastPathSegment(p)).toBe(reference(p));
    }), { numRuns: 5000 });
  });

  it('names the project of a POSIX or Windows cwd', () => {
    expect(lastPathSegment('/home/alice/src/webapp')).toBe('webapp');
    expect(lastPathSegment('C:\\Users\\bob\\api\\')).toBe('api');
    expect(lastPathSegment('/')).toBe('/');
  });
});

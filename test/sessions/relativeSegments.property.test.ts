import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { relativeSegments } from '../../src/domain/sessions/logFiles.js';

/** The rule relativeSegments() keeps, through path.relative() every time (its fast path must agree). */
function reference(projectsDir: string, absPath: string): string[] | null {
  const rel = path.relative(projectsDir, path.resolve(absPath));
  if (rel === '') return [];
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel.split(path.sep);
}

// Names that normalize away or change meaning ('', '.', '..'), ordinary ones, and both separators.
const name = fc.constantFrom('', '.', '..', 'a', 'b', '.x', 'x.jsonl', 'a/b', 'a\\b', '-home-u-p');
const joined = (names: string[]): string => names.join(path.sep);

describe('relativeSegments', () => {
  it('gives what path.relative() gives, for paths under, at, beside and above the dir, plain or not', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', path.sep),
        fc.array(name, { maxLength: 4 }),
        fc.array(name, { maxLength: 4 }),
        fc.boolean(),
        (root, dirNames, restNames, sharePrefix) => {
          const dir = root + joined(dirNames);
          const file = sharePrefix ? `${dir}${path.sep}${joined(restNames)}` : root + joined(restNames);
          expect(relativeSegments(dir, file)).toEqual(reference(dir, file));
          expect(relativeSegments(dir, dir)).toEqual(reference(dir, dir));
        },
      ),
      { numRuns: 5000 },
    );
  });
});

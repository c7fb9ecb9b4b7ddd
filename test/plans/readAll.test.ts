// readAll() measures large plans while it goes on reading the others: the answer must still be every
// path in the order given, each with what reading that file alone gives.
import { readFile, unlink } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_FILE_BYTES } from '../../src/domain/largeFiles.js';
import { countLines } from '../../src/domain/markdown/text.js';
import { countWordsInJs } from '../../src/domain/markdown/wordCount.js';
import { readPlanFile } from '../../src/domain/plans/planFile.js';
import { readAll } from '../../src/domain/plans/planReads.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
const paths: string[] = [];

beforeAll(async () => {
  home = await TempHome.create('pmv-read-all-');
  // Small and large plans interleaved, more large ones than are measured at once, each large one of a
  // different size and title, one large one gone before the read.
  for (let i = 0; i < 24; i++) {
    const large = i % 3 === 1;
    const body = large ? `line of plan ${i} with words\n`.repeat(Math.ceil(LARGE_FILE_BYTES / 26) + i * 500) : `words of ${i}\n`;
    paths.push(await home.plan(`p${String(i).padStart(2, '0')}.md`, `# Plan ${i}\n\n${body}`));
  }
  paths.push(`${home.claude}/plans/missing.md`);
});

afterAll(async () => {
  await home?.cleanup();
});

describe('readAll', () => {
  it('answers every path in order, large plans measured as reading each alone does', async () => {
    await unlink(paths[4]!);
    const out = await readAll(paths, () => undefined);
    expect([...out.keys()]).toEqual(paths);
    for (const [filepath, record] of out) {
      const alone = await readPlanFile(filepath);
      if (alone === null) {
        expect(record, filepath).toBeNull();
        continue;
      }
      const bytes = await readFile(filepath);
      expect(record, filepath).toMatchObject({
        title: alone.title, size: bytes.length, lineCount: countLines(bytes.toString('utf8')), wordCount: countWordsInJs(bytes),
      });
    }
    expect(out.get(paths[4]!)).toBeNull();
    expect([...out.values()].filter((r) => r !== null && r.size > LARGE_FILE_BYTES)).toHaveLength(7);
  });
});

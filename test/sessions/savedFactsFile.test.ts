// The facts file beside the session index (savedFactsFile.ts): written in pieces, read back line by line
// whether it was read ahead off the thread or on demand, and refused whole when it is not the one the
// index names or its lines are not the lengths its header gives.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { factsFilePieces, SavedFactsFile } from '../../src/domain/sessions/savedFactsFile.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pmv-facts-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const STAMP = '0123456789abcdef';
// Multi-byte text (byte lengths differ from character counts), an empty line, and enough text for
// several 1 MB pieces.
const LINES = ['{"a":"plain"}', '{"t":"Ünïcödé 統合計画 🚀"}', '', '[1,2]\t{"ü":"統合"}\t\t"🚀"', ...Array.from({ length: 40 }, (_, i) => JSON.stringify({ i, pad: 'ж'.repeat(40_000 + i) }))];

async function written(lines: readonly string[], stamp = STAMP): Promise<string> {
  const file = path.join(dir, 'x.facts');
  let pauses = 0;
  const pieces = await factsFilePieces(stamp, lines, async () => void pauses++);
  expect(pauses).toBe(lines.length);
  expect(pieces.length).toBeGreaterThan(lines.length > 10 ? 3 : 1);
  // The header and the lines in pieces of about 1 MB: never one buffer of the whole.
  const longest = Math.max(...lines.map((line) => Buffer.byteLength(line) + 1));
  for (const piece of pieces.slice(1, -1)) expect(piece.length >= 1024 * 1024 && piece.length < 1024 * 1024 + longest).toBe(true);
  await writeFile(file, pieces);
  return file;
}

const read = (facts: SavedFactsFile, count: number): string[] => Array.from({ length: count }, (_, i) => facts.at(i).whole());

describe('the facts file beside the session index', () => {
  it('gives back every line, read ahead or on demand', async () => {
    const file = await written(LINES);
    expect(read(new SavedFactsFile(file, STAMP, 1 << 30), LINES.length)).toEqual(LINES);
    const ahead = new SavedFactsFile(file, STAMP, 1 << 30);
    await ahead.prefetch();
    await rm(file);
    // Read ahead: the file is not needed any more.
    expect(read(ahead, LINES.length)).toEqual(LINES);
    expect(ahead.at(LINES.length).whole()).toBe('');
  });

  it('gives each part of a line (between tabs) without the others, as splitting the decoded line would', async () => {
    const file = await written(LINES);
    const facts = new SavedFactsFile(file, STAMP, 1 << 30);
    for (const [i, line] of LINES.entries()) {
      const parts = line.split('\t');
      for (let k = 0; k <= parts.length; k++) expect(facts.at(i).part(k)).toBe(parts[k] ?? '');
    }
    expect(facts.at(LINES.length).part(0)).toBe('');
  });

  it('gives no line when the stamp is another save\'s, a line is not its length, or it is too large', async () => {
    const file = await written(LINES);
    expect(read(new SavedFactsFile(file, 'ffffffffffffffff', 1 << 30), 2)).toEqual(['', '']);
    expect(read(new SavedFactsFile(file, STAMP, 1000), 2)).toEqual(['', '']);
    const other = await written(['{"a":1}', '{"b":2}']);
    await writeFile(other, (await readFile(other, 'utf8')).replace('{"b":2}', '{"b":22}'));
    expect(read(new SavedFactsFile(other, STAMP, 1 << 30), 2)).toEqual(['', '']);
    expect(read(new SavedFactsFile(path.join(dir, 'missing.facts'), STAMP, 1 << 30), 1)).toEqual(['']);
    // Lengths that add up to the file's but do not fall on its newlines: no line lies between two of them.
    const shifted = await written(['ab', 'cde']);
    await writeFile(shifted, (await readFile(shifted, 'utf8')).replace('"bytes":[2,3]', '"bytes":[3,2]'));
    expect(read(new SavedFactsFile(shifted, STAMP, 1 << 30), 2)).toEqual(['', '']);
  });
});

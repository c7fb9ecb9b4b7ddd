// Settings files come from repositories too: a huge or deeply nested one is refused before JSON.parse
// (whose time grows with nesting), and an unchanged one is not parsed again on every memory load.
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, readSettingsFileSync } from '../../src/config/settings.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
let warnings: string[];
const logger = { warn: (m: string): void => void warnings.push(m) };

beforeEach(async () => {
  home = await TempHome.create('pmv-settings-');
  warnings = [];
});

afterEach(async () => {
  await home?.cleanup();
});

function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe('jsonNestsDeeperThan', () => {
  it('says whether any JSON text nests deeper than the limit, brackets in strings not counted', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 0, max: 12 }), (value, limit) => {
      expect(jsonNestsDeeperThan(JSON.stringify(value), limit)).toBe(depthOf(value) > limit);
      expect(jsonNestsDeeperThan(JSON.stringify(value, null, 2), limit)).toBe(depthOf(value) > limit);
    }), { numRuns: 2000 });
  });
});

describe('readSettingsFileSync', () => {
  it('refuses a deeply nested file and a large one, each with a warning, and reads a normal one', async () => {
    const deep = await home.write('deep/settings.json', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const large = await home.write('large/settings.json', `{"a":"${'x'.repeat(300 * 1024)}"}`);
    const normal = await home.write('normal/settings.json', JSON.stringify({ plansDirectory: 'docs/[[plans]]', list: [[1, [2]]] }));
    expect(readSettingsFileSync(deep, logger)).toBeNull();
    expect(readSettingsFileSync(large, logger)).toBeNull();
    expect(readSettingsFileSync(normal, logger)).toEqual({ plansDirectory: 'docs/[[plans]]', list: [[1, [2]]] });
    expect(warnings).toEqual([`ignoring ${deep}: nested deeper than 64 levels`, `ignoring ${large}: larger than 256 KiB`]);
  });

  it('parses a file again only when its stat moved', async () => {
    const file = await home.write('s/settings.json', JSON.stringify({ autoMemoryDirectory: '~/one' }));
    const first = readSettingsFileSync(file, logger);
    expect(readSettingsFileSync(file, logger)).toBe(first);
    await writeFile(file, JSON.stringify({ autoMemoryDirectory: '~/two' }));
    const when = new Date(Date.now() + 5000);
    await utimes(file, when, when);
    expect(readSettingsFileSync(file, logger)).toEqual({ autoMemoryDirectory: '~/two' });
    expect(readSettingsFileSync(path.join(home.root, 'missing.json'), logger)).toBeNull();
  });
});

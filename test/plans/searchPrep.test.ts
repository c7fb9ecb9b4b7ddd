// Search filters are built in the background in slices. They must get built on an idle server too:
// slices that only ran when a request or a file event woke the event loop left most plans without a
// filter for minutes, and every search then scanned every plan's text.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
beforeEach(async () => {
  home = await TempHome.create();
});
afterEach(async () => {
  await home.cleanup();
});

describe('search preparation', () => {
  it('completes with nothing else keeping the process busy', async () => {
    // Enough text for many 10 ms slices.
    const filler = 'lorem ipsum dolor sit amet consectetur '.repeat(2000);
    for (let i = 0; i < 200; i++) await home.plan(`plan-${i}.md`, `# Plan ${i}\n\n${filler}${i % 50 === 0 ? ' needle-word' : ''}\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/searchPrep.mts'), home.claude, home.root], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, out }).toEqual({ code: 0, out: 'ready 4\n' });
  }, 60_000);
});

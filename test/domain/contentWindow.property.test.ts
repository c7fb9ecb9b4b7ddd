// Windows of a text (contentWindow.ts), what MCP tools answer of a plan or memory file: followed from 0
// through nextOffset they join to the text, whatever the window size; an offset inside a character starts
// at the next one; a file's windows and a held text's are the same.
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileWindow, MIN_WINDOW_BYTES, textWindow, type ContentWindow } from '../../src/domain/contentWindow.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
let file: string;

beforeAll(async () => {
  home = await TempHome.create('pmv-window-');
  file = path.join(home.root, 'text.md');
});

afterAll(async () => {
  await home?.cleanup();
});

const TOKENS = ['a', 'é', '€', '😀', '🦊', '\n', '"', 'Σ', 'xyz', '\u2028'];
// Well-formed text: what a file holds decodes to it, byte for byte.
const text = fc.array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 80 })
  .map((parts) => Buffer.from(parts.join('')).toString('utf8'));

async function fileWindows(content: string, offset: number, maxBytes: number): Promise<ContentWindow> {
  await writeFile(file, content);
  const handle = await open(file, 'r');
  try {
    return await fileWindow(handle, (await handle.stat()).size, offset, maxBytes);
  } finally {
    await handle.close();
  }
}

/** Every window from 0 on, through nextOffset. */
async function pages(window: (offset: number) => ContentWindow | Promise<ContentWindow>): Promise<ContentWindow[]> {
  const out: ContentWindow[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const w: ContentWindow = await window(offset);
    out.push(w);
    expect(w.offset).toBe(offset);
    offset = w.nextOffset;
    if (out.length > 10_000) throw new Error('no end');
  }
  return out;
}

describe('windows of a text', () => {
  it('join to the text, each within its bytes, for a held text and for a file alike', async () => {
    await fc.assert(fc.asyncProperty(text, fc.integer({ min: MIN_WINDOW_BYTES, max: 12 }), async (t, maxBytes) => {
      const held = await pages((offset) => textWindow(t, offset, maxBytes));
      expect(held.map((w) => w.content).join('')).toBe(t);
      for (const w of held) {
        expect(Buffer.byteLength(w.content)).toBeLessThanOrEqual(maxBytes);
        expect(w.totalBytes).toBe(Buffer.byteLength(t));
      }
      const read = await pages((offset) => fileWindows(t, offset, maxBytes));
      expect(read).toEqual(held);
    }), { numRuns: 300 });
  });

  it('start at the first character at or after the offset asked for', async () => {
    await fc.assert(fc.asyncProperty(text, fc.nat(), fc.integer({ min: MIN_WINDOW_BYTES, max: 40 }), async (t, at, maxBytes) => {
      const bytes = Buffer.from(t);
      const offset = at % (bytes.length + 2);
      const w = textWindow(t, offset, maxBytes);
      // The first character boundary at or after the offset: no continuation byte starts a character.
      let start = Math.min(offset, bytes.length);
      while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
      expect(w.offset).toBe(start);
      expect(Buffer.from(w.content).equals(bytes.subarray(start, w.nextOffset ?? bytes.length))).toBe(true);
      expect(await fileWindows(t, offset, maxBytes)).toEqual(w);
    }), { numRuns: 300 });
  });
});

describe('windows of a long text', () => {
  it('agree with the file\'s where steps of measuring fall inside surrogate pairs and multi-byte characters', async () => {
    // 64K characters is a step of textWindow's measuring: foxes (surrogate pairs) straddle its ends.
    const t = `${'a'.repeat(65_535)}🦊`.repeat(3) + 'é€'.repeat(20_000) + '\n';
    const bytes = Buffer.from(t);
    const offsets = [0, 1, 65_534, 65_535, 65_536, 65_537, 65_538, 65_539, 131_071, 131_074, 196_610, 196_611, bytes.length - 5, bytes.length - 1, bytes.length];
    for (const maxBytes of [4, 5, 1000, 65_537, 300_000]) {
      for (const offset of offsets) {
        const w = textWindow(t, offset, maxBytes);
        expect(await fileWindows(t, offset, maxBytes), `${offset} ${maxBytes}`).toEqual(w);
        expect(Buffer.from(w.content).equals(bytes.subarray(w.offset, w.nextOffset ?? bytes.length))).toBe(true);
      }
    }
  });
});

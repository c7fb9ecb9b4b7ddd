// Plans past LARGE_FILE_BYTES are measured, searched and served a chunk at a time (largeFiles.ts): the
// answers must be those of reading them whole.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES, LARGE_FILE_BYTES } from '../../src/domain/largeFiles.js';
import { countLines } from '../../src/domain/markdown/text.js';
import { countWordsInJs } from '../../src/domain/markdown/wordCount.js';
import type { PlanMetadata } from '../../src/domain/types.js';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, TempHome } from '../helpers/home.js';

let home: TempHome;
let server: Running;
let planFile: string;
let topicFile: string;

/** ~3 MB: a fenced block longer than a chunk before the first real heading, a word across the first chunk boundary. */
function largePlan(): string {
  const fence = `\`\`\`\n# not the title\n${'code line with words\n'.repeat(Math.ceil((LARGE_FILE_BYTES * 1.2) / 20))}\`\`\`\n`;
  let text = `${fence}\n# Plan: The real title\n\n`;
  // The first chunk boundary past what is written so far: the word below starts 5 bytes before it.
  const boundary = Math.ceil((Buffer.byteLength(text) + 100) / CHUNK_BYTES) * CHUNK_BYTES;
  const padding = boundary - 5 - Buffer.byteLength(text);
  text += `${'é'.repeat(Math.floor(padding / 2))}${padding % 2 ? ' ' : ''}`;
  text += ' straddleword ';
  text += 'Σ words and more words\n'.repeat(60_000);
  return text;
}

beforeAll(async () => {
  home = await TempHome.create('pmv-large-plans-');
  planFile = await home.plan('large.md', largePlan());
  topicFile = await home.write(path.join('projects', encodeCwd('/w/p'), 'memory', 'big-topic.md'), `---\nname: big\n---\n${'memory line "quoted" \\ é\n'.repeat(150_000)}`);
  await home.plan('small.md', '# Small\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: false });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('a plan larger than one chunk', () => {
  it('is listed with the title, lines and words of the whole file', async () => {
    const bytes = await readFile(planFile);
    expect(bytes.length).toBeGreaterThan(LARGE_FILE_BYTES + 2 * CHUNK_BYTES);
    const plan = (await server.json<{ plans: PlanMetadata[] }>('/api/plans')).plans.find((p) => p.filename === 'large.md');
    expect(plan).toMatchObject({ title: 'The real title', size: bytes.length, lineCount: countLines(bytes.toString('utf8')), wordCount: countWordsInJs(bytes) });
  });

  it('is found by a word that straddles a chunk boundary, and by its last line', async () => {
    for (const q of ['straddleword', 'STRADDLEWORD', 'σ words and more words\nσ', 'code line with']) {
      expect([q, (await server.json<{ filenames: string[] }>(`/api/search?q=${encodeURIComponent(q)}`)).filenames]).toEqual([q, ['large.md']]);
    }
    expect((await server.json<{ filenames: string[] }>('/api/search?q=absent-word')).filenames).toEqual([]);
  });

  it('is served whole, to several readers at once', async () => {
    const expected = JSON.stringify({ content: (await readFile(planFile)).toString('utf8') });
    const answers = await Promise.all(Array.from({ length: 4 }, () => server.get('/api/plans/large.md/content')));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body === expected).toBe(true);
    }
  });

  it('serves a large memory file whole too', async () => {
    const { entries } = await server.json<{ entries: { id: string; filename: string }[] }>('/api/memory');
    const id = entries.find((e) => e.filename === 'big-topic.md')!.id;
    const res = await server.get(`/api/memory/content?id=${encodeURIComponent(id)}`);
    expect(res.body === JSON.stringify({ content: (await readFile(topicFile)).toString('utf8') })).toBe(true);
  });
});

// Once any answer has carried a plan's new bytes, every other answer reflects them: a content read that
// finds the file changed since its listed record updates the record first. The server here has no
// watchers, so nothing but the content read itself can bring the listing up to date.
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanMetadata } from '../../src/domain/types.js';
import { startServer, type Running } from '../helpers/http.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
let server: Running;

const listed = async (name: string): Promise<PlanMetadata | undefined> =>
  (await server.json<{ plans: PlanMetadata[] }>('/api/plans')).plans.find((p) => p.filename === name);
const content = async (name: string): Promise<{ status: number; content?: string }> => {
  const res = await server.get(`/api/plans/${encodeURIComponent(name)}/content`);
  return res.status === 200 ? { status: 200, content: (JSON.parse(res.body) as { content: string }).content } : { status: res.status };
};

beforeAll(async () => {
  home = await TempHome.create('pmv-consistency-');
  await home.plan('edited.md', '# Old title\none\n');
  await home.plan('saved.md', '# Old saved\n');
  await home.plan('deleted.md', '# Deleted soon\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: false });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('a plan changed on disk and read before any watcher said so', () => {
  it('is listed with its new title and counts right after its new content was served (written in place)', async () => {
    expect((await listed('edited.md'))?.title).toBe('Old title');
    await writeFile(path.join(home.claude, 'plans', 'edited.md'), '# New title\none two\nthree\n');
    expect(await content('edited.md')).toEqual({ status: 200, content: '# New title\none two\nthree\n' });
    expect(await listed('edited.md')).toMatchObject({ title: 'New title', lineCount: 3, wordCount: 6, size: 26 });
    expect(await server.json<{ filenames: string[] }>('/api/search?q=three')).toEqual({ filenames: ['edited.md'] });
  });

  it('is listed with its new title after an atomic save (a new inode) was served', async () => {
    const file = path.join(home.claude, 'plans', 'saved.md');
    await writeFile(`${file}.tmp.1.abcdef012345`, '# New saved\n');
    await rename(`${file}.tmp.1.abcdef012345`, file);
    expect(await content('saved.md')).toEqual({ status: 200, content: '# New saved\n' });
    expect((await listed('saved.md'))?.title).toBe('New saved');
  });

  it('is no longer listed once a content read found it gone', async () => {
    await rm(path.join(home.claude, 'plans', 'deleted.md'));
    expect(await content('deleted.md')).toEqual({ status: 404 });
    expect(await listed('deleted.md')).toBeUndefined();
  });
});

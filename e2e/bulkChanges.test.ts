// A bulk change outside Claude Code in a real browser over the real server (its watchers, its cache dir):
// while the viewer runs, a "dream" project's memory is rewritten with no session (two topics merged into
// one, three deleted, MEMORY.md rewritten). MEMORY.md's memory timeline says its new version came with it;
// the folder's Health tab lists it as one entry naming every file;
// Restore previews the change as a diff, Apply puts every file back on disk, and Undo takes that back.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './helpers/axe.js';
import { addMemoryProject } from './helpers/fixture.js';
import { useTestEnv } from './helpers/setup.js';

const BEFORE: Record<string, string> = {
  'MEMORY.md': '# Memory\n- [Deploy](deploy.md)\n- [Notes](notes.md)\n',
  'deploy.md': '# Deploy\nRun npm run release.\nTag the commit.\n',
  'notes.md': '# Release notes\nWrite the notes in CHANGELOG.md.\nAsk Bob before Friday deploys.\n',
  'old1.md': '# Old 1\nA note nobody reads, number 1.\n',
  'old2.md': '# Old 2\nA note nobody reads, number 2.\n',
  'old3.md': '# Old 3\nA note nobody reads, number 3.\n',
};
const MERGED = '# Shipping\nRun npm run release.\nTag the commit.\nWrite the notes in CHANGELOG.md.\nAsk Bob before Friday deploys.\n';
const NEW_INDEX = '# Memory\n- [Shipping](shipping.md)\n';
let dreamDir = '';
let dreamId = '';
let probe = '';

const env = useTestEnv({
  async extend(fx) {
    ({ id: dreamId, memoryDir: dreamDir } = await addMemoryProject(fx, 'dream', '1b0c4f7e-2d3a-4c5b-9e8f-00000000d7ea', BEFORE));
    // Another folder's file, deleted once the viewer runs: its place in the archive says a pass saw it go.
    probe = path.join(fx.memoryDir.webapp, 'probe-bulk.md');
    await writeFile(probe, '# Probe\n');
  },
});

const disk = (name: string): Promise<string | null> => readFile(path.join(dreamDir, name), 'utf8').catch(() => null);

describe('a bulk change outside Claude Code', () => {
  it('is listed as one entry with every file, restored through a preview, and undone', async () => {
    const api = (route: string) => fetch(`${env.server.url}${route}`).then((r) => r.json() as Promise<unknown>);
    // The viewer has looked at every memory folder once (a later pass saw the probe go).
    await rm(probe);
    await expect.poll(async () => JSON.stringify(await api('api/memory/archive'))).toContain('probe-bulk.md');

    await rm(path.join(dreamDir, 'deploy.md'));
    await rm(path.join(dreamDir, 'notes.md'));
    await writeFile(path.join(dreamDir, 'shipping.md'), MERGED);
    for (const n of [1, 2, 3]) await rm(path.join(dreamDir, `old${n}.md`));
    await writeFile(path.join(dreamDir, 'MEMORY.md'), NEW_INDEX);
    await expect.poll(async () => ((await api('api/memory/changes?project=dream')) as { changes: { files: unknown[] }[] }).changes[0]?.files.length ?? 0).toBe(7);

    // The memory timeline of a file the change rewrote says so, and leads to the change.
    const timeline = (await env.open(`?view=memory&source=${encodeURIComponent(dreamId)}&entry=${encodeURIComponent(`${dreamId}/MEMORY.md`)}&etab=history`)).page;
    const note = timeline.locator('.memory-version .bulk-note');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toContain('One of 7 files changed outside Claude Code at once');
    await note.getByRole('link').click();
    await expect.poll(() => timeline.getByTestId('bulk-change').count()).toBe(1);

    const { page } = await env.open(`?view=memory&tab=health&source=${encodeURIComponent(dreamId)}`);
    const entry = page.getByTestId('bulk-change');
    await expect.poll(() => entry.count()).toBe(1);
    expect(await entry.locator('.bulk-change-title strong').textContent()).toBe('7 files changed outside Claude Code');
    const files = await entry.locator('.bulk-file').allTextContents();
    expect(files.map((f) => f.split(' · ')[0]!.trim())).toEqual([
      'MEMORY.md changed', 'deploy.md merged into shipping.md', 'notes.md merged into shipping.md',
      'old1.md deleted', 'old2.md deleted', 'old3.md deleted', 'shipping.md created',
    ]);
    // A deleted file's text from before, on demand.
    await entry.locator('.bulk-file[data-file="deploy.md"]').getByRole('button', { name: 'text before' }).click();
    await expect.poll(() => entry.locator('.bulk-file-before').textContent()).toBe(BEFORE['deploy.md']);

    await entry.getByRole('button', { name: 'Restore…' }).click();
    const preview = entry.getByRole('region', { name: /^Preview: Restore 7 files/ });
    await expect.poll(() => preview.locator('.diff-add').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'a bulk change and its restore preview');
    expect(await disk('deploy.md')).toBeNull();
    await preview.getByRole('button', { name: 'Apply' }).click();
    // The banner shows once the service answered: every file is written by then.
    const banner = page.locator('.fix-applied');
    await expect.poll(() => banner.textContent()).toContain('Put back');
    for (const name of Object.keys(BEFORE)) expect(await disk(name)).toBe(BEFORE[name]);
    expect(await disk('shipping.md')).toBeNull();
    await banner.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    expect(await disk('shipping.md')).toBe(MERGED);
    expect(await disk('MEMORY.md')).toBe(NEW_INDEX);
    expect(await disk('deploy.md')).toBeNull();
  }, 60_000);
});

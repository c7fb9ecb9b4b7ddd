// `plan-memory-viewer export` and `--from-file`: the built CLI (npm run build) exports the API fixture
// home, then serves the export; every field of the spec's answers comes back as the home gave it, but the
// file paths (the served copy's) and creation times (which no file system lets one set).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerUrl, runCli } from '../helpers/cli.js';
import { startServer, type Running } from '../helpers/http.js';
import { buildFixture, type Fixture } from '../http/fixture.js';

let fixture: Fixture;
let original: Running;
let work: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fixture = await buildFixture();
  original = await startServer({ claudeDir: fixture.home.claude, homeDir: fixture.home.root });
  work = await mkdtemp(path.join(os.tmpdir(), 'pmv-export-'));
  // The served copy is laid out under TMPDIR: a dir of the test's own, to see that it is removed.
  await rm(path.join(work, 'tmp'), { recursive: true, force: true });
  await import('node:fs/promises').then((fs) => fs.mkdir(path.join(work, 'tmp')));
  env = { ...process.env, HOME: fixture.home.root, XDG_CACHE_HOME: path.join(work, 'cache'), TMPDIR: path.join(work, 'tmp') };
});

afterAll(async () => {
  await original?.close();
  await fixture?.home.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

async function exported(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(['export', '--claude-dir', fixture.home.claude, ...args], { env });
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

type Plan = Record<string, unknown> & { filename: string; filepath: string };
type Entry = Record<string, unknown> & { id: string; filepath: string };
const withoutPaths = <T extends Record<string, unknown>>(items: T[], ...keys: string[]): Record<string, unknown>[] =>
  items.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => !['filepath', 'created', 'dir', 'cwd', ...keys].includes(key))));

describe('export', () => {
  it('writes every plan\'s and memory entry\'s metadata as JSON to stdout, contents only with --content', async () => {
    const { code, stdout, stderr } = await exported([]);
    expect(code, stderr).toBe(0);
    const doc = JSON.parse(stdout);
    expect(doc).toMatchObject({ format: 'plan-memory-viewer-export', version: 1, withContent: false, claudeDir: fixture.home.claude });
    expect(doc.plans).toEqual(await original.json<{ plans: Plan[] }>('/api/plans').then((b) => b.plans));
    const memory = await original.json<{ sources: unknown[]; entries: Entry[] }>('/api/memory');
    expect(doc.memory).toEqual(memory);
    expect(JSON.stringify(doc)).not.toContain('Use CSS variables');
  });

  it('with --content -o FILE, writes the contents too, into the file', async () => {
    const file = path.join(work, 'export.json');
    const { code, stdout, stderr } = await exported(['--content', '-o', file]);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('');
    const doc = JSON.parse(await readFile(file, 'utf8'));
    expect(doc.withContent).toBe(true);
    for (const plan of doc.plans) expect(plan.content).toBe(await readFile(plan.filepath, 'utf8'));
    for (const entry of doc.memory.entries) expect(entry.content).toBe(await readFile(entry.filepath, 'utf8'));
    expect(doc.plans).toHaveLength(6);
    expect(doc.memory.entries).toHaveLength(3);
  });
});

describe('--from-file', () => {
  it('serves the export: the spec\'s answers are the original\'s', async () => {
    const file = path.join(work, 'export.json');
    const run = runCli(['--from-file', file, '--port', '0'], { env });
    try {
      const url = await bannerUrl(run);
      const get = async <T>(pathname: string): Promise<T> => {
        const res = await fetch(new URL(pathname, url));
        expect(res.status, pathname).toBe(200);
        return (await res.json()) as T;
      };
      const plans = (await get<{ plans: Plan[] }>('/api/plans')).plans;
      const before = (await original.json<{ plans: Plan[] }>('/api/plans')).plans;
      expect(withoutPaths(plans)).toEqual(withoutPaths(before));
      for (const plan of plans) {
        const served = await get<{ content: string }>(`/api/plans/${encodeURIComponent(plan.filename)}/content`);
        expect(served.content).toBe(await readFile(before.find((p) => p.filename === plan.filename)!.filepath, 'utf8'));
      }
      expect(await get('/api/projects')).toEqual(await original.json('/api/projects'));
      for (const q of ['dark', 'ΟΔΟΣ', 'plan']) expect(await get(`/api/search?q=${encodeURIComponent(q)}`)).toEqual(await original.json(`/api/search?q=${encodeURIComponent(q)}`));

      const memory = await get<{ sources: Record<string, unknown>[]; entries: Entry[] }>('/api/memory');
      const memoryBefore = await original.json<{ sources: Record<string, unknown>[]; entries: Entry[] }>('/api/memory');
      expect(withoutPaths(memory.sources)).toEqual(withoutPaths(memoryBefore.sources));
      expect(withoutPaths(memory.entries)).toEqual(withoutPaths(memoryBefore.entries));
      for (const entry of memory.entries) {
        const served = await get<{ content: string }>(`/api/memory/content?id=${encodeURIComponent(entry.id)}`);
        expect(served.content).toBe(await readFile(memoryBefore.entries.find((e) => e.id === entry.id)!.filepath, 'utf8'));
      }
      expect(await get('/api/memory/search?q=table')).toEqual(await original.json('/api/memory/search?q=table'));
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
    // The copy it served from is gone with it.
    expect((await readdir(path.join(work, 'tmp'))).filter((name) => name.startsWith('plan-memory-viewer-export-'))).toEqual([]);
  });

  it('refuses an export without contents, a foreign file and unsafe names, with exit 1 and a reason', async () => {
    const cases: [string, string, RegExp][] = [
      ['bare.json', (await exported([])).stdout, /export it with --content/],
      ['foreign.json', '{"plans": []}', /not an export/],
      ['broken.json', '{', /not JSON/],
    ];
    const full = JSON.parse(await readFile(path.join(work, 'export.json'), 'utf8'));
    full.plans[0].filename = '../../escaped.md';
    cases.push(['unsafe-plan.json', JSON.stringify(full), /plain \.md name/]);
    const entry = JSON.parse(await readFile(path.join(work, 'export.json'), 'utf8'));
    entry.memory.entries[0].filename = '../../../escaped.md';
    cases.push(['unsafe-entry.json', JSON.stringify(entry), /not a plain name/]);
    for (const [name, text, reason] of cases) {
      const file = path.join(work, name);
      await writeFile(file, text);
      const run = runCli(['--from-file', file, '--port', '0'], { env });
      expect(await run.exited, name).toBe(1);
      expect(run.stderr()).toMatch(reason);
    }
    expect((await readdir(work)).filter((name) => name.includes('escaped'))).toEqual([]);
    expect((await readdir(path.join(work, 'tmp'))).filter((name) => name.startsWith('plan-memory-viewer-export-'))).toEqual([]);
  });
});

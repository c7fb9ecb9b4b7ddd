import { appendFile, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DERIVATION_VERSION } from '../../src/domain/derivation.js';
import { SessionIndexCache } from '../../src/domain/sessions/indexCache.js';
import { Viewer } from '../../src/viewer.js';
import { TempHome, conversationLine, uuid } from '../helpers/home.js';
import { readIndexCache, writeIndexCache } from './helpers.js';

let home: TempHome;
let cache: string;
let warnings: string[];

const open = () => Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir: cache });

beforeEach(async () => {
  home = await TempHome.create();
  cache = path.join(home.root, 'cache');
  warnings = [];
  const repo = await home.repo('webapp');
  await home.plan('cached-plan.md', '# Cached\n');
  await home.plan('later-plan.md', '# Later\n');
  // A big first line of tool output that a warm restart must not read again.
  await home.session(repo, uuid(1), [null, 'cached-plan'], [conversationLine(repo, uuid(1), null, 'x'.repeat(2_000_000))]);
});

afterEach(async () => {
  await home.cleanup();
});

describe('persisted session index', () => {
  it('restarts from the cache, reading only the bytes appended since', async () => {
    const first = await open();
    expect(first.plans.find('cached-plan.md')?.sessionId).toBe(uuid(1));
    expect(first.sessions.scanStats().bytesRead).toBeGreaterThan(2_000_000);
    await first.close();

    const log = path.join(home.claude, 'projects', `${path.join(home.root, 'repos/webapp').replace(/[^A-Za-z0-9]/g, '-')}`, `${uuid(1)}.jsonl`);
    const appended = conversationLine(path.join(home.root, 'repos/webapp'), uuid(1), 'later-plan') + '\n';
    await appendFile(log, appended);

    const second = await open();
    expect(second.plans.find('cached-plan.md')?.sessionId).toBe(uuid(1));
    expect(second.plans.find('later-plan.md')?.project).toBe('webapp');
    expect(second.sessions.scanStats().bytesRead).toBeLessThan(appended.length + 64);
    await second.close();
    expect(warnings).toEqual([]);
  });

  it('rebuilds from the logs when the cache is corrupt or foreign, and says so', async () => {
    await (await open()).close();
    const file = new SessionIndexCache(cache, path.join(home.claude, 'projects')).file;
    const saved = await readFile(file, 'utf8');
    expect(saved.length).toBeGreaterThan(0);

    // Torn, foreign, and one of ours with a negative size in its first file.
    const negative = await readIndexCache(file);
    negative.index.files[1] = -5;
    for (const bad of ['{ torn', JSON.stringify({ derivation: DERIVATION_VERSION, format: 'something-else' }), negative]) {
      if (typeof bad === 'string') await writeFile(file, bad);
      else await writeIndexCache(file, bad);
      warnings = [];
      const viewer = await open();
      expect(viewer.plans.find('cached-plan.md')?.sessionId).toBe(uuid(1));
      expect(viewer.sessions.scanStats().bytesRead).toBeGreaterThan(2_000_000);
      expect(warnings.some((w) => w.includes('session index cache'))).toBe(true);
      await viewer.close();
    }
  });

  it('rescans a log that was replaced by a shorter one since the cache was written', async () => {
    await (await open()).close();
    const repo = path.join(home.root, 'repos/webapp');
    await home.session(repo, uuid(1), ['later-plan']);
    const viewer = await open();
    expect(viewer.plans.find('later-plan.md')?.sessionId).toBe(uuid(1));
    expect(viewer.plans.find('cached-plan.md')?.sessionId).toBeNull();
    await viewer.close();
  });

  it('is not rewritten by a restart that finds nothing changed, and is once a log grows', async () => {
    // Directories last changed a minute ago, so their stamps are settled (see SETTLED_MS in logFiles.ts).
    const projects = path.join(home.claude, 'projects');
    const past = new Date(Date.now() - 60_000);
    for (const entry of await readdir(projects, { recursive: true, withFileTypes: true })) {
      if (entry.isDirectory()) await utimes(path.join(entry.parentPath, entry.name), past, past);
    }
    await utimes(projects, past, past);
    await (await open()).close();
    const file = new SessionIndexCache(cache, projects).file;
    const planFile = path.join(cache, (await readdir(cache)).find((f) => f.startsWith('plans-'))!);
    const longAgo = new Date(Date.now() - 3_600_000);
    await utimes(file, longAgo, longAgo);
    await utimes(planFile, longAgo, longAgo);
    const written = async (): Promise<number[]> => [(await stat(file)).mtimeMs, (await stat(planFile)).mtimeMs];
    const before = await written();

    const viewer = await open();
    // The watchers' catch-up pass after start: every directory listed again, every log lstat-ed.
    await viewer.rescanAll();
    await viewer.close();
    expect(await written()).toEqual(before);

    const repo = path.join(home.root, 'repos/webapp');
    const log = path.join(projects, repo.replace(/[^A-Za-z0-9]/g, '-'), `${uuid(1)}.jsonl`);
    await appendFile(log, conversationLine(repo, uuid(1), 'later-plan') + '\n');
    const again = await open();
    expect(again.plans.find('later-plan.md')?.sessionId).toBe(uuid(1));
    await again.close();
    const after = await written();
    expect(after[0]).not.toBe(before[0]);
    // No plan file changed, but the list did (later-plan.md has its session now): the saved list is rewritten.
    expect(after[1]).not.toBe(before[1]);
    const { facts, ...index } = again.sessions.toJSON() as { facts: string[] };
    expect(await readIndexCache(file)).toEqual({ header: { derivation: DERIVATION_VERSION }, index, facts });
  });
});

import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionIndexCache } from '../../src/domain/sessions/indexCache.js';
import { Viewer } from '../../src/viewer.js';
import { TempHome, conversationLine, uuid } from '../helpers/home.js';

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
    const negative = JSON.parse(saved) as { files: unknown[] };
    negative.files[1] = -5;
    for (const bad of ['{ torn', JSON.stringify({ format: 'something-else' }), JSON.stringify(negative)]) {
      await writeFile(file, bad);
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
});

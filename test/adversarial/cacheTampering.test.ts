// The viewer's own cache files, tampered with: a name read back that would lead outside the cache
// directory is refused (a kept plan content is named by its SHA-256 only), and a FIFO, a symlink or a
// device in place of a cache file is refused, not read: the start neither hangs nor follows it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Viewer } from '../../src/viewer.js';
import { conversationLine, encodeCwd, TempHome, uuid } from '../helpers/home.js';

let home: TempHome;
let cache: string;
const warnings: string[] = [];

async function open(options: { historyLimitBytes?: number } = {}): Promise<Viewer> {
  const viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir: cache, ...options });
  await viewer.history.start();
  return viewer;
}

const key = (p: string): string => createHash('sha256').update(path.resolve(p)).digest('hex').slice(0, 16);

beforeEach(async () => {
  home = await TempHome.create('pmv-cache-tamper-');
  cache = path.join(home.root, 'cache');
  warnings.length = 0;
  const repo = await home.repo('app');
  await home.plan('the-plan.md', '# The plan\n\nFirst text.\n');
  await home.write(path.join('projects', encodeCwd(repo), `${uuid(1)}.jsonl`), `${conversationLine(repo, uuid(1), 'the-plan')}\n`);
  // A first run writes every cache.
  await (await open()).close();
});

afterEach(async () => {
  await home?.cleanup();
});

describe('names read back from the cache', () => {
  it('never make pruning remove a file outside the cache directory', async () => {
    const victim = path.join(home.root, 'victim.txt');
    await writeFile(victim, 'keep me');
    const index = path.join(cache, `history-${key(home.claude)}`, 'index.json');
    const doc = JSON.parse(await readFile(index, 'utf8')) as { format: string; plans: [string, { versions: unknown[] }][] };
    const traversal = path.relative(path.join(path.dirname(index), 'objects'), victim);
    doc.plans.push([path.join(home.claude, 'plans', 'gone.md'), { versions: [{ sha: traversal, size: 10_000_000, at: '2000-01-01T00:00:00.000Z' }] }]);
    await writeFile(index, JSON.stringify(doc));
    // A small bound: the next content the viewer keeps makes it prune the oldest first.
    await home.plan('the-plan.md', '# The plan\n\nSecond text.\n');
    const viewer = await open({ historyLimitBytes: 1_000 });
    expect(existsSync(victim)).toBe(true);
    expect(await readFile(victim, 'utf8')).toBe('keep me');
    expect(viewer.history.observed.paths()).not.toContain(path.join(home.claude, 'plans', 'gone.md'));
    await viewer.close();
  });
});

describe('what is not a regular file in place of a cache file', () => {
  it('is refused without being read: a FIFO or a symlink for each cache file, and the start completes', async () => {
    const names = (await readdir(cache)).filter((n) => n.endsWith('.json'));
    const files = [...names.map((n) => path.join(cache, n)), path.join(cache, `history-${key(home.claude)}`, 'index.json')];
    expect(names.some((n) => n.startsWith('session-index-'))).toBe(true);
    expect(names.some((n) => n.startsWith('plans-'))).toBe(true);
    const secret = path.join(home.root, 'secret.json');
    await writeFile(secret, JSON.stringify({ derivation: 1, secret: 'not for the viewer' }));
    for (const [i, file] of files.entries()) {
      await writeFile(file, '');
      execFileSync('rm', ['-f', file]);
      if (i % 2 === 0) execFileSync('mkfifo', [file]);
      else await symlink(secret, file);
    }
    const viewer = await open();
    expect(viewer.plans.list().map((p) => p.filename)).toEqual(['the-plan.md']);
    expect(viewer.plans.find('the-plan.md')?.sessionId).toBe(uuid(1));
    await viewer.close();
  }, 30_000);

  it('is refused in place of a kept plan content, which then reads as missing', async () => {
    const objects = path.join(cache, `history-${key(home.claude)}`, 'objects');
    await mkdir(objects, { recursive: true });
    const [name] = await readdir(objects);
    expect(name).toMatch(/^[0-9a-f]{64}$/);
    execFileSync('rm', ['-f', path.join(objects, name!)]);
    execFileSync('mkfifo', [path.join(objects, name!)]);
    const viewer = await open();
    expect(viewer.history.observed.content(name!)).toBeNull();
    await viewer.close();
  }, 30_000);
});

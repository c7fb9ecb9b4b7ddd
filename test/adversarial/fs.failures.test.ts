// Failures of the machinery itself: a watcher error (ENOSPC) injected through the watcher, watchers that
// then go silent, and permission errors. CI runs as root, which reads everything, so the permission
// tests run the real CLI as the unprivileged user `nobody` (setpriv) over files made unreadable to it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryEntry, PlanMetadata } from '../../src/domain/types.js';
import { conversationLine, encodeCwd, eventually, TempHome, uuid } from '../helpers/home.js';
import { request, type RawResponse } from '../helpers/http.js';
import { harness, subscribe, type Harness } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let home: TempHome;
let server: Harness | null = null;
let child: ChildProcess | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  child = null;
  if (home) execFileSync('chmod', ['-R', 'u+rwX', home.root]);
  await home?.cleanup();
});

interface ChokidarLike {
  emit(event: string, ...args: unknown[]): boolean;
  close(): Promise<void>;
}
interface Internals {
  watchers: {
    planWatchers: Map<string, { watcher: ChokidarLike }>;
    projectsWatcher: { watcher: ChokidarLike } | null;
  };
}

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC', errno: -28, syscall: 'watch' });
}

describe('an injected watcher error (ENOSPC)', () => {
  it('warns once, keeps serving, and still sees every change through periodic rescans when the watchers go silent', async () => {
    home = await TempHome.create('pmv-adv-enospc-');
    const repo = await home.repo('webapp');
    await home.plan('first.md', '# First\n');
    await home.session(repo, uuid(1), [null]);
    await home.write(`projects/${encodeCwd(repo)}/memory/MEMORY.md`, '# Memory\n');
    server = await harness({ claudeDir: home.claude, homeDir: home.root, watch: true });
    const s = server;
    const stream = await subscribe(s.port);
    try {
      const internals = (s.viewer as unknown as Internals).watchers;
      const watches = [...internals.planWatchers.values(), internals.projectsWatcher!].map((w) => w.watcher);
      // The error arrives through the watcher, as the kernel reports a failed inotify_add_watch.
      for (const w of watches) w.emit('error', enospc());
      watches[0]!.emit('error', enospc());
      const failures = s.warnings.filter((w) => w.includes('file watching failed'));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain('ENOSPC');
      expect((await request(s.port, { path: '/api/plans' })).status).toBe(200);

      // Now the watchers really are dead: nothing reaches the viewer except the fallback rescans.
      await Promise.all(watches.map((w) => w.close()));
      const plansBefore = stream.count('plans');
      await home.plan('second.md', '# Second\n');
      await home.write(`projects/${encodeCwd(repo)}/${uuid(2)}.jsonl`, `${conversationLine(repo, uuid(2), 'second')}\n`);
      await home.write(`projects/${encodeCwd(repo)}/memory/topic.md`, '---\nname: topic\n---\n');
      const linked = async () => (await s.json<{ plans: PlanMetadata[] }>('/api/plans')).plans.find((p) => p.filename === 'second.md')?.sessionId === uuid(2);
      expect(await eventually(linked, 15_000, 100)).toBe(true);
      const entries = async () => (await s.json<{ entries: MemoryEntry[] }>('/api/memory')).entries.map((e) => e.filename);
      expect(await eventually(async () => (await entries()).includes('topic.md'), 15_000, 100)).toBe(true);
      expect(stream.count('plans')).toBeGreaterThan(plansBefore);
      expect(s.warnings.filter((w) => w.includes('file watching failed'))).toHaveLength(1);
    } finally {
      stream.close();
    }
  }, 40_000);
});

describe('watcher events lost without an error (inotify queue overflow)', () => {
  it('still lists plans created and deleted while the plan watcher heard nothing', async () => {
    home = await TempHome.create('pmv-adv-deaf-');
    await home.plan('kept.md', '# Kept\n');
    const gone = await home.plan('gone.md', '# Gone\n');
    server = await harness({ claudeDir: home.claude, homeDir: home.root, watch: true });
    const s = server;
    // Deaf, not failed: the watcher stops reporting and says nothing, as after an overflow.
    for (const w of (s.viewer as unknown as Internals).watchers.planWatchers.values()) await w.watcher.close();
    await home.plan('unheard.md', '# Unheard\n');
    await rm(gone);
    const names = async () => (await s.json<{ plans: PlanMetadata[] }>('/api/plans')).plans.map((p) => p.filename).sort();
    expect(await eventually(async () => (await names()).join() === 'kept.md,unheard.md', 25_000, 100)).toBe(true);
    expect(s.warnings.filter((w) => w.includes('file watching failed'))).toEqual([]);
  }, 40_000);
});

/** Starts the CLI from source as uid/gid 65534 (nobody) and returns its port. */
async function startAsNobody(claudeDir: string, env: NodeJS.ProcessEnv): Promise<{ port: number; stderr: () => string }> {
  const proc = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '--import', 'tsx', 'src/cli.ts', '--port', '0', '--claude-dir', claudeDir], {
    cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c: Buffer) => void (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => void (err += c.toString()));
  const url = await eventually(() => (out.includes('Press Ctrl+C to stop.') ? /URL:\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)?.[1] : null) ?? (proc.exitCode !== null ? 'exited' : null), 30_000, 50);
  if (!url || url === 'exited') throw new Error(`the CLI did not start as nobody: ${out} ${err}`);
  return { port: Number(url), stderr: () => err };
}

const canSetpriv = process.getuid?.() === 0 && (() => {
  try {
    execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']);
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!canSetpriv)('permission errors (the viewer runs as nobody)', () => {
  it('skips unreadable plans, logs, memory files, folders and settings; never a 5xx; files made unreadable later are 404', async () => {
    home = await TempHome.create('pmv-adv-perm-');
    const repo = await home.repo('webapp');
    const key = encodeCwd(repo);
    const readable = await home.plan('readable.md', '# Readable\n');
    const locked = await home.plan('locked.md', '# Locked\n');
    await mkdir(path.join(home.claude, 'plans', 'locked-dir.md'));
    await home.session(repo, uuid(1), ['readable']);
    await home.write(`projects/-locked-folder/${uuid(2)}.jsonl`, `${conversationLine('/locked', uuid(2), 'locked')}\n`);
    const lockedLog = await home.write(`projects/${key}/${uuid(3)}.jsonl`, `${conversationLine(repo, uuid(3), 'locked')}\n`);
    await home.write(`projects/${key}/memory/MEMORY.md`, '# Memory\n- [Topic](topic.md)\n');
    await home.write(`projects/${key}/memory/topic.md`, '---\nname: topic\n---\nreadable topic\n');
    const lockedTopic = await home.write(`projects/${key}/memory/locked-topic.md`, '---\nname: locked\n---\nsecret topic\n');
    await home.write(`projects/${key}/memory/locked-sub/inner.md`, 'inner\n');
    await home.write(`${repo}/.claude/settings.json`, JSON.stringify({ plansDirectory: 'docs/plans' }));
    await home.write(`${repo}/docs/plans/repo-plan.md`, '# In a locked plans folder\n');
    const settings = await home.write('settings.json', JSON.stringify({ autoMemoryDirectory: '~/elsewhere' }));
    // Everything readable by others first (mkdtemp makes 0700), then lock the chosen ones.
    execFileSync('chmod', ['-R', 'a+rX', home.root]);
    for (const file of [locked, lockedLog, lockedTopic, settings]) await chmod(file, 0o000);
    for (const dir of [path.join(home.claude, 'plans', 'locked-dir.md'), path.join(home.claude, 'projects', '-locked-folder'),
      path.join(home.claude, 'projects', key, 'memory', 'locked-sub'), path.join(repo, 'docs', 'plans')]) await chmod(dir, 0o000);
    const cache = path.join(home.root, 'readonly-cache');
    await mkdir(cache, { mode: 0o555 });

    const { port, stderr } = await startAsNobody(home.claude, { HOME: home.root, XDG_CACHE_HOME: cache });
    const responses: RawResponse[] = [];
    const get = async (p: string, init: Parameters<typeof request>[1] = { path: p }) => {
      const res = await request(port, { ...init, path: p });
      responses.push(res);
      return res;
    };

    const plans = JSON.parse((await get('/api/plans')).body) as { plans: PlanMetadata[] };
    expect(plans.plans.map((p) => p.filename)).toEqual(['readable.md']);
    expect(plans.plans[0]).toMatchObject({ sessionId: uuid(1), project: 'webapp' });
    for (const name of ['locked.md', 'locked-dir.md', 'repo-plan.md']) expect((await get(`/api/plans/${name}/content`)).status).toBe(404);
    expect((await get('/api/plans/readable.md/content')).status).toBe(200);
    const memory = JSON.parse((await get('/api/memory')).body) as { entries: MemoryEntry[] };
    expect(memory.entries.map((e) => e.filename).sort()).toEqual(['MEMORY.md', 'topic.md']);
    expect(JSON.parse((await get('/api/memory/search?q=secret')).body)).toEqual({ ids: [] });
    expect((await get('/api/search?q=locked')).status).toBe(200);
    expect((await get('/api/refresh', { method: 'POST', path: '' })).status).toBe(200);
    expect((await get('/api/projects')).status).toBe(200);

    // Made unreadable between listing and reading: 404, and it leaves the listing.
    await chmod(readable, 0o000);
    expect((await get('/api/plans/readable.md/content')).status).toBe(404);
    expect(await eventually(async () => (JSON.parse((await get('/api/plans')).body) as { plans: unknown[] }).plans.length === 0, 15_000, 100)).toBe(true);
    // Readable again: back in the listing.
    await chmod(readable, 0o644);
    expect(await eventually(async () => (JSON.parse((await get('/api/plans')).body) as { plans: unknown[] }).plans.length === 1, 15_000, 100)).toBe(true);

    expect(responses.filter((r) => r.status >= 500)).toEqual([]);
    expect(child?.exitCode).toBeNull();
    console.info(`[robustness] warnings as nobody:\n${stderr()}`);
    // Each problem is reported, and the unwritable cache does not flood the log.
    expect(stderr().split('\n').filter((l) => l.includes('could not save the session index cache')).length).toBeLessThanOrEqual(1);
  }, 60_000);
});

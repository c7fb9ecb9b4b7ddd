// The file system changing under the viewer's feet, with real files in temp dirs and the real watchers:
// files deleted, truncated or swapped between listing and reading (in a loop), folders removed and
// recreated, and folders appearing after start. Mass changes are in fs.mass.test.ts.
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, readdir, rename, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryEntry, PlanMetadata } from '../../src/domain/types.js';
import { conversationLine, encodeCwd, eventually, sleep, TempHome, uuid } from '../helpers/home.js';
import { request } from '../helpers/http.js';
import { harness, inParallel, subscribe, type Harness } from './support.js';

let home: TempHome;
let server: Harness | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
  await home?.cleanup();
});

async function start(watch = true): Promise<Harness> {
  server = await harness({ claudeDir: home.claude, homeDir: home.root, watch });
  return server;
}

const listPlans = async (s: Harness) => (await s.json<{ plans: PlanMetadata[] }>('/api/plans')).plans;
const planNames = async (s: Harness) => (await listPlans(s)).map((p) => p.filename).sort();
const memoryEntries = async (s: Harness) => (await s.json<{ entries: MemoryEntry[] }>('/api/memory')).entries;

const body = (i: number) => `# Plan ${i}\n${'word '.repeat(200)}\nend-${i}\n`;

type Mutation = (file: string, i: number) => Promise<void>;
/** Everything that can happen to a file between the listing that named it and the read of it. */
const MUTATIONS: [string, Mutation][] = [
  ['deleted', (f) => unlink(f)],
  ['truncated to 0', (f) => truncate(f, 0)],
  ['truncated to half', (f, i) => truncate(f, Math.floor(Buffer.byteLength(body(i)) / 2))],
  ['replaced by a directory', async (f) => { await unlink(f); await mkdir(f); }],
  ['replaced by a FIFO', async (f) => { await unlink(f); execFileSync('mkfifo', [f]); }],
  ['replaced by a dangling symlink', async (f) => { await unlink(f); execFileSync('ln', ['-s', `${f}.gone`, f]); }],
  ['renamed away', (f) => rename(f, `${f}.moved`)],
  ['rewritten', (f, i) => writeFile(f, body(i + 1000))],
];

async function reset(file: string, i: number): Promise<void> {
  await rm(file, { recursive: true, force: true });
  await rm(`${file}.moved`, { force: true });
  await writeFile(file, body(i));
}

describe('a file changing between listing and reading', () => {
  it('is skipped or answered 404, never an error, at the domain level (deterministic loop)', async () => {
    home = await TempHome.create('pmv-adv-race-');
    const files = await Promise.all(Array.from({ length: MUTATIONS.length }, (_, i) => home.plan(`race-${i}.md`, body(i))));
    const s = await start(false);
    let rounds = 0;
    for (let round = 0; round < 25; round++) {
      for (const [i, file] of files.entries()) await reset(file, i);
      await s.viewer.refresh();
      const listed = s.viewer.plans.list().map((p) => p.filename);
      expect(listed).toHaveLength(files.length);
      // Rotate which file gets which mutation, then read every listed plan.
      await Promise.all(files.map((file, i) => MUTATIONS[(i + round) % MUTATIONS.length]![1](file, i)));
      for (const [i, name] of listed.entries()) {
        const content = await s.viewer.plans.content(name);
        const index = Number(/race-(\d+)/.exec(name)![1]);
        const allowed = [null, '', body(index), body(index + 1000), body(index).slice(0, Math.floor(Buffer.byteLength(body(index)) / 2))];
        expect([i, allowed.includes(content)]).toEqual([i, true]);
        const res = await request(s.port, { path: `/api/plans/${encodeURIComponent(name)}/content` });
        expect([200, 404]).toContain(res.status);
      }
      rounds++;
    }
    expect(rounds).toBe(25);
    // After a refresh the listing is exactly the regular .md files on disk.
    await s.viewer.refresh();
    const regular = (await readdir(path.join(home.claude, 'plans'), { withFileTypes: true }))
      .filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => e.name).sort();
    expect(await planNames(s)).toEqual(regular);
  });

  it('never gives a 5xx while plans and memory files are mutated under concurrent requests (watching)', async () => {
    home = await TempHome.create('pmv-adv-race-');
    const files = await Promise.all(Array.from({ length: 16 }, (_, i) => home.plan(`live-${i}.md`, body(i))));
    const memDir = path.join(home.claude, 'projects', '-home-u-p', 'memory');
    const topics = await Promise.all(Array.from({ length: 8 }, (_, i) => home.write(`projects/-home-u-p/memory/topic-${i}.md`, `---\nname: t${i}\n---\n${body(i)}`)));
    await home.write('projects/-home-u-p/memory/MEMORY.md', '# Memory\n');
    const s = await start(true);
    const statuses = new Map<number, number>();
    let stop = false;
    let rounds = 0;
    const hammer = async (): Promise<void> => {
      while (!stop) {
        rounds++;
        const plans = await listPlans(s).catch(() => [] as PlanMetadata[]);
        const entries = await memoryEntries(s).catch(() => [] as MemoryEntry[]);
        const paths = [
          ...plans.map((p) => `/api/plans/${encodeURIComponent(p.filename)}/content`),
          ...entries.map((e) => `/api/memory/content?id=${encodeURIComponent(e.id)}`),
          '/api/search?q=word', '/api/memory/search?q=word', '/api/projects',
        ];
        const results = await inParallel(paths, 8, (p) => request(s.port, { path: p }));
        const refresh = await request(s.port, { method: 'POST', path: '/api/refresh' });
        for (const res of [...results, refresh]) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const hammers = [hammer(), hammer()];
    let mutations = 0;
    for (let round = 0; round < 20; round++) {
      await Promise.all([...files, ...topics].map((f, i) => MUTATIONS[(i + round) % MUTATIONS.length]![1](f, i)));
      mutations += files.length + topics.length;
      await sleep(30);
      await Promise.all([...files, ...topics].map((f, i) => reset(f, i)));
      await sleep(30);
    }
    // However slow the machine, the requests really did run alongside the mutations.
    const roundsDuring = rounds;
    await eventually(() => rounds >= roundsDuring + 2, 30_000);
    stop = true;
    await Promise.all(hammers);
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 404)).toEqual([]);
    expect(roundsDuring).toBeGreaterThan(0);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(mutations).toBe(20 * 24);
    // Everything settles back to what is on disk.
    expect(await eventually(async () => (await planNames(s)).length === files.length, 15_000)).toBe(true);
    expect(await eventually(async () => (await memoryEntries(s)).length === topics.length + 1, 15_000)).toBe(true);
    expect(await readdir(memDir)).toContain('MEMORY.md');
  }, 120_000);
});

describe('quick successive changes', () => {
  it('never loses the last of several changes made within a few milliseconds (plans and session logs)', async () => {
    home = await TempHome.create('pmv-adv-quick-');
    const repo = await home.repo('quick');
    const dir = path.join(home.claude, 'plans');
    await mkdir(dir, { recursive: true });
    const log = await home.session(repo, uuid(1), [null]);
    const s = await start(true);
    const ROUNDS = 20;
    for (let i = 0; i < ROUNDS; i++) {
      const plan = path.join(dir, `quick-${i}.md`);
      // In place, then atomically, all within a few ms: only the last state counts.
      await writeFile(plan, `# v1 of ${i}\n`);
      await writeFile(plan, `# v2 of ${i}, longer\n`);
      await writeFile(`${plan}.tmp.1.${i.toString(16).padStart(12, '0')}`, `# final ${i}\n`);
      await rename(`${plan}.tmp.1.${i.toString(16).padStart(12, '0')}`, plan);
      // Two log lines in quick succession; the second one names the plan.
      await appendFile(log, `${conversationLine(repo, uuid(1), null, `line ${i}`)}\n`);
      await appendFile(log, `${conversationLine(repo, uuid(1), `quick-${i}`)}\n`);
      const settled = await eventually(() => {
        const p = s.viewer.plans.find(`quick-${i}.md`);
        return p?.title === `final ${i}` && p.sessionId === uuid(1);
      }, 15_000);
      expect([i, settled]).toEqual([i, true]);
    }
  });
});

describe('folders removed and recreated', () => {
  it('keeps watching a plans folder deleted and recreated again and again, whatever the delay', async () => {
    home = await TempHome.create('pmv-adv-folder-');
    const plansDir = path.join(home.claude, 'plans');
    await mkdir(plansDir, { recursive: true });
    const s = await start(true);
    const delays = [0, 0, 2, 5, 20, 60];
    for (let i = 0; i < 12; i++) {
      await home.plan(`before-${i}.md`, '# before\n');
      expect([i, await eventually(async () => (await planNames(s)).includes(`before-${i}.md`), 15_000)]).toEqual([i, true]);
      await rm(plansDir, { recursive: true });
      await sleep(delays[i % delays.length]!);
      await mkdir(plansDir);
      await home.plan(`after-${i}.md`, '# after\n');
      const settled = await eventually(async () => (await planNames(s)).join() === `after-${i}.md`, 15_000);
      expect([i, settled, settled ? [] : await planNames(s), s.warnings]).toEqual([i, true, [], []]);
      await rm(path.join(plansDir, `after-${i}.md`));
    }
  });

  it('keeps watching a memory folder and a project folder deleted and recreated', async () => {
    home = await TempHome.create('pmv-adv-folder-');
    const repo = await home.repo('webapp');
    const key = encodeCwd(repo);
    const memDir = path.join(home.claude, 'projects', key, 'memory');
    await home.session(repo, uuid(1), [null]);
    await home.write(`projects/${key}/memory/MEMORY.md`, '# Memory\n');
    const s = await start(true);
    const stream = await subscribe(s.port);
    try {
      for (let i = 0; i < 8; i++) {
        await rm(memDir, { recursive: true });
        await sleep(i % 2 === 0 ? 0 : 20);
        await mkdir(memDir);
        await writeFile(path.join(memDir, 'MEMORY.md'), `# Memory ${i}\n`);
        await writeFile(path.join(memDir, `topic-${i}.md`), `---\nname: topic-${i}\n---\n`);
        expect([i, await eventually(async () => (await memoryEntries(s)).some((e) => e.filename === `topic-${i}.md`), 15_000)]).toEqual([i, true]);
      }
      expect(stream.count('memory')).toBeGreaterThan(0);
      // The whole project folder goes and comes back with a new log naming a plan.
      await home.plan('late-link.md', '# Late\n');
      await rm(path.join(home.claude, 'projects', key), { recursive: true });
      await sleep(5);
      await home.write(`projects/${key}/${uuid(2)}.jsonl`, `${conversationLine(repo, uuid(2), 'late-link')}\n`);
      expect(await eventually(async () => (await listPlans(s)).find((p) => p.filename === 'late-link.md')?.sessionId === uuid(2), 15_000)).toBe(true);
    } finally {
      stream.close();
    }
  });
});

describe('folders that appear after start', () => {
  it('picks up plans, logs, memory and a repo plansDirectory in a claude dir that did not exist at start', async () => {
    home = await TempHome.create('pmv-adv-late-');
    const s = await start(true);
    expect(await planNames(s)).toEqual([]);
    expect((await s.json<{ sources: unknown[] }>('/api/memory')).sources).toEqual([]);
    const repo = await home.repo('late-repo');
    await home.plan('late-plan.md', '# Late plan\n');
    await home.write(`${repo}/.claude/settings.json`, JSON.stringify({ plansDirectory: 'docs/plans' }));
    await home.write(`${repo}/docs/plans/repo-plan.md`, '# In the repo\n');
    await home.session(repo, uuid(3), ['late-plan']);
    await home.write(`projects/${encodeCwd(repo)}/memory/MEMORY.md`, '# Memory\n');
    expect(await eventually(async () => (await listPlans(s)).find((p) => p.filename === 'late-plan.md')?.project === 'late-repo', 15_000)).toBe(true);
    expect(await eventually(async () => (await planNames(s)).includes('repo-plan.md'), 15_000)).toBe(true);
    expect(await eventually(async () => (await memoryEntries(s)).some((e) => e.filename === 'MEMORY.md'), 15_000)).toBe(true);
    // And the folder that appeared late is itself watched from then on.
    await writeFile(path.join(repo, 'docs', 'plans', 'second.md'), '# Second\n');
    expect(await eventually(async () => (await planNames(s)).includes('second.md'), 15_000)).toBe(true);
  });
});

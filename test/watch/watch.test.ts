import { mkdir, rename, rm, unlink, writeFile, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlanMetadata } from '../../src/domain/types.js';
import type { ViewerEvent } from '../../src/viewer.js';
import { TempHome, conversationLine, encodeCwd, eventually, uuid } from '../helpers/home.js';
import { startServer, type Running } from '../helpers/http.js';

let home: TempHome;
let server: Running;
let events: ViewerEvent[];

const plans = async () => (await server.json<{ plans: PlanMetadata[] }>('/api/plans')).plans;
const names = async () => (await plans()).map((p) => p.filename).sort();
const search = async (q: string) => (await server.json<{ filenames: string[] }>(`/api/search?q=${encodeURIComponent(q)}`)).filenames;

async function start(): Promise<void> {
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: true });
  events = [];
  server.viewer.onEvent((e) => events.push(e));
}

beforeEach(async () => {
  home = await TempHome.create();
});

afterEach(async () => {
  await server?.close();
  await home.cleanup();
});

describe('plans folder watching', () => {
  it('reflects a created, edited and deleted plan in every endpoint without refresh', async () => {
    await home.plan('existing.md', '# Existing\n');
    await start();
    const file = await home.plan('new-plan.md', '# Plan: New one\nneedle-one\n');
    expect(await eventually(async () => (await names()).includes('new-plan.md'))).toBe(true);
    expect(await search('NEEDLE-ONE')).toEqual(['new-plan.md']);
    expect((await server.get('/api/plans/new-plan.md/content')).status).toBe(200);

    await writeFile(file, '# Plan: Edited\nneedle-two\n');
    expect(await eventually(async () => (await search('needle-two')).length === 1)).toBe(true);
    expect((await plans()).find((p) => p.filename === 'new-plan.md')!.title).toBe('Edited');
    expect(await search('needle-one')).toEqual([]);

    await unlink(file);
    expect(await eventually(async () => !(await names()).includes('new-plan.md'))).toBe(true);
    expect((await server.get('/api/plans/new-plan.md/content')).status).toBe(404);
    expect(events.some((e) => e.type === 'plans' && e.removed.includes('new-plan.md'))).toBe(true);
  });

  it('sees atomic-rename saves and never lists the temp file', async () => {
    const dir = path.join(home.claude, 'plans');
    await mkdir(dir, { recursive: true });
    await start();
    for (let i = 0; i < 5; i++) {
      const tmp = path.join(dir, `saved.md.tmp.${process.pid}.abcdef01234${i}`);
      await writeFile(tmp, `# Version ${i}\n`);
      await rename(tmp, path.join(dir, 'saved.md'));
    }
    expect(await eventually(async () => (await plans()).find((p) => p.filename === 'saved.md')?.title === 'Version 4')).toBe(true);
    expect(await names()).toEqual(['saved.md']);
  });

  it('watches a plans folder that is created after start, deleted and recreated', async () => {
    await start();
    await home.plan('late.md', '# Late\n');
    expect(await eventually(async () => (await names()).includes('late.md'))).toBe(true);
    await rm(path.join(home.claude, 'plans'), { recursive: true });
    expect(await eventually(async () => (await names()).length === 0)).toBe(true);
    await mkdir(path.join(home.claude, 'plans'));
    await home.plan('again.md', '# Again\n');
    expect(await eventually(async () => (await names()).includes('again.md'))).toBe(true);
  });
});

describe('session log watching', () => {
  it('links a plan when its session log grows, and when a new log appears', async () => {
    const repo = await home.repo('webapp');
    await home.plan('quiet-plan.md', '# Quiet\n');
    await home.plan('second-plan.md', '# Second\n');
    const log = await home.session(repo, uuid(7), [null]);
    await start();
    expect((await plans()).find((p) => p.filename === 'quiet-plan.md')).toMatchObject({ project: null, sessionId: null });

    await appendFile(log, conversationLine(repo, uuid(7), 'quiet-plan') + '\n');
    expect(await eventually(async () => (await plans()).find((p) => p.filename === 'quiet-plan.md')?.sessionId === uuid(7))).toBe(true);
    expect((await plans()).find((p) => p.filename === 'quiet-plan.md')!.project).toBe('webapp');

    const other = await home.repo('infra');
    await home.write(`projects/${encodeCwd(other)}/${uuid(8)}.jsonl`, conversationLine(other, uuid(8), 'second-plan') + '\n');
    expect(await eventually(async () => (await plans()).find((p) => p.filename === 'second-plan.md')?.project === 'infra')).toBe(true);
  });

  it('picks up a plansDirectory of a project first seen after start', async () => {
    await start();
    const repo = await home.repo('late-project');
    await home.write(`${repo}/.claude/settings.local.json`, JSON.stringify({ plansDirectory: 'plans-here' }));
    await home.write(`${repo}/plans-here/in-repo.md`, '# In repo\n');
    await home.session(repo, uuid(9), ['in-repo']);
    expect(await eventually(async () => (await plans()).find((p) => p.filename === 'in-repo.md')?.project === 'late-project')).toBe(true);
    await home.write(`${repo}/plans-here/in-repo-2.md`, '# Second in repo\n');
    expect(await eventually(async () => (await names()).includes('in-repo-2.md'))).toBe(true);
  });
});

describe('memory watching', () => {
  it('announces memory changes and drops the listing cache', async () => {
    const repo = await home.repo('webapp');
    await home.session(repo, uuid(1), [null]);
    const memDir = `projects/${encodeCwd(repo)}/memory`;
    await home.write(`${memDir}/MEMORY.md`, '# Memory\n');
    await start();
    expect((await server.json<{ entries: unknown[] }>('/api/memory')).entries).toHaveLength(1);
    await home.write(`${memDir}/topic.md`, '---\nname: topic\n---\nbody\n');
    expect(await eventually(() => events.some((e) => e.type === 'memory'))).toBe(true);
    expect((await server.json<{ entries: unknown[] }>('/api/memory')).entries).toHaveLength(2);
  });
});

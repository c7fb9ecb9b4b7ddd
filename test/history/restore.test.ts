// POST /api/archive/{filename}/restore: an archived plan's last version written back into its plans folder
// under its name, only as the version the client showed, never over a file, never with --read-only.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanHistoryBody } from '../../src/contract/history.js';
import { TempHome, uuid } from '../helpers/home.js';
import { request, startServer, type Running } from '../helpers/http.js';
import { edit, write, type LineContext } from './transcript.js';

const V1 = '# Retire the cron host\n\nMove the jobs.\n';
const V2 = '# Retire the cron host\n\nMove the jobs, then stop the host.\n';

let home: TempHome | null = null;
let server: Running | null = null;
afterEach(async () => {
  await server?.close();
  await home?.cleanup();
  server = null;
  home = null;
});

async function archivedHome(readOnly = false): Promise<{ planPath: string; other: string }> {
  home = await TempHome.create();
  const repo = await home.repo('infra');
  const planPath = path.join(home.claude, 'plans', 'retire-cron-dusty-finch.md');
  const other = path.join(home.claude, 'plans', 'other-plan-calm-owl.md');
  const ctx = (minute: number): LineContext => ({ cwd: repo, sessionId: uuid(7), slug: 'retire-cron-dusty-finch', at: new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString() });
  await home.plan('listed-plan.md', '# Listed\n');
  await home.session(repo, uuid(7), [], [write(ctx(1), planPath, V1), edit(ctx(2), planPath, 'Move the jobs.', 'Move the jobs, then stop the host.'), write(ctx(3), other, '# Other\n')]);
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, care: { readOnly } });
  return { planPath, other };
}

const restore = (filename: string, versionId: string) =>
  request(server!.port, {
    method: 'POST', path: `/api/archive/${encodeURIComponent(filename)}/restore`, body: JSON.stringify({ versionId }),
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${server!.port}` },
  });

const lastVersion = async (filename: string) => (await server!.json<PlanHistoryBody>(`/api/plans/${filename}/history`)).versions.at(-1)!.id;

describe('restoring an archived plan', () => {
  it('writes its last version under its name, as the version shown only, and lists it again', async () => {
    const { planPath } = await archivedHome();
    const archived = await server!.json<{ plans: { filename: string }[] }>('/api/archive');
    expect(archived.plans.map((p) => p.filename).sort()).toEqual(['other-plan-calm-owl.md', 'retire-cron-dusty-finch.md']);
    const story = await server!.json<PlanHistoryBody>('/api/plans/retire-cron-dusty-finch.md/history');
    const [first, last] = story.versions.map((v) => v.id);
    const stale = await restore('retire-cron-dusty-finch.md', first!);
    expect(stale.status).toBe(409);
    expect(stale.body).toContain('newer version');
    const done = await restore('retire-cron-dusty-finch.md', last!);
    expect(done.status, done.body).toBe(200);
    expect(JSON.parse(done.body)).toEqual({ filename: 'retire-cron-dusty-finch.md', filepath: planPath });
    expect(await readFile(planPath, 'utf8')).toBe(V2);
    // Nothing else is left in the folder (the file written aside is gone).
    expect((await readdir(path.dirname(planPath))).sort()).toEqual(['listed-plan.md', 'retire-cron-dusty-finch.md']);
    const plans = await server!.json<{ plans: { filename: string }[] }>('/api/plans');
    expect(plans.plans.map((p) => p.filename)).toContain('retire-cron-dusty-finch.md');
    expect((await restore('retire-cron-dusty-finch.md', last!)).status).toBe(404);
  });

  it('never writes over a file that appeared under that name', async () => {
    const { other } = await archivedHome();
    const id = await lastVersion('other-plan-calm-owl.md');
    // Written behind the viewer's back (no watcher here): still archived as far as it knows.
    await writeFile(other, 'A person\'s own notes.\n');
    const refused = await restore('other-plan-calm-owl.md', id);
    expect(refused.status).toBe(409);
    expect(refused.body).toBe('other-plan-calm-owl.md is on disk again: nothing was overwritten');
    expect(await readFile(other, 'utf8')).toBe('A person\'s own notes.\n');
    expect((await readdir(path.dirname(other))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes nothing with --read-only, and answers 404 for a name the archive does not hold', async () => {
    const { planPath } = await archivedHome(true);
    const id = await lastVersion('retire-cron-dusty-finch.md');
    const refused = await restore('retire-cron-dusty-finch.md', id);
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('--read-only');
    await expect(readFile(planPath)).rejects.toThrow();
    const missing = await restore('listed-plan.md', id);
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('Plan not found in the archive');
    expect((await restore('../../etc/passwd', id)).status).toBe(404);
  });
});

describe('a malformed restore body', () => {
  it('answers a 400 that names the field and what it accepts', async () => {
    await archivedHome();
    const missing = await request(server!.port, {
      method: 'POST', path: '/api/archive/retire-cron-dusty-finch.md/restore', body: JSON.stringify({ version: 'x' }),
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${server!.port}` },
    });
    expect([missing.status, missing.body]).toEqual([400, 'Bad request: versionId is required (a string)']);
    const wrongType = await request(server!.port, {
      method: 'POST', path: '/api/archive/retire-cron-dusty-finch.md/restore', body: JSON.stringify({ versionId: 7 }),
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${server!.port}` },
    });
    expect([wrongType.status, wrongType.body]).toEqual([400, 'Bad request: versionId must be a string']);
  });
});

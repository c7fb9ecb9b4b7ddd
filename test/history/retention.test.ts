// GET /api/retention: the period Claude Code keeps plans (the user settings' cleanupPeriodDays, else 30)
// and the folder it cleans, which is what a client needs to tell every listed plan's deletion time.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Running } from '../helpers/http.js';
import { TempHome } from '../helpers/home.js';

let home: TempHome;
let server: Running;

beforeAll(async () => {
  home = await TempHome.create('pmv-retention-');
  await home.plan('old-plan.md', '# Old\n', new Date(Date.UTC(2026, 0, 1)));
  await home.write('settings.json', JSON.stringify({ cleanupPeriodDays: 12 }));
  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('GET /api/retention', () => {
  it('gives the settings\' period and the shared plans folder, the one the listed plans\' paths start with', async () => {
    const policy = await server.json<{ cleanupPeriodDays: number; plansDir: string }>('/api/retention');
    expect(policy).toEqual({ cleanupPeriodDays: 12, plansDir: path.join(home.claude, 'plans') });
    const listed = (await server.json<{ plans: { filepath: string; modified: string }[] }>('/api/plans')).plans;
    expect(path.dirname(listed[0]!.filepath)).toBe(policy.plansDir);
    // The same deletion time the plan's history tells.
    const history = await server.json<{ retention: { deletesAt: string } }>('/api/plans/old-plan.md/history');
    expect(history.retention.deletesAt).toBe(new Date(Date.parse(listed[0]!.modified) + 12 * 86_400_000).toISOString());
  });

  it('falls back to 30 days when the setting is absent or not a positive number', async () => {
    await writeFile(path.join(home.claude, 'settings.json'), JSON.stringify({ cleanupPeriodDays: -3 }));
    expect((await server.json<{ cleanupPeriodDays: number }>('/api/retention')).cleanupPeriodDays).toBe(30);
    await writeFile(path.join(home.claude, 'settings.json'), '{}');
    expect((await server.json<{ cleanupPeriodDays: number }>('/api/retention')).cleanupPeriodDays).toBe(30);
  });

  it('is documented in the OpenAPI description', async () => {
    const doc = await server.json<{ paths: Record<string, { get?: { responses: Record<string, unknown> } }> }>('/api/openapi.json');
    expect(Object.keys(doc.paths['/api/retention']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '403']));
  });
});

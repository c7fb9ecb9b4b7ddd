// GET /api/retention: the period Claude Code keeps plans and transcripts (the user settings'
// cleanupPeriodDays, else 30), the folder it cleans, and what it will delete within a week with what the
// viewer keeps of it, through a real server on loopback over a temp home whose files' mtimes are set.
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Running } from '../helpers/http.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { TempHome, eventually, uuid } from '../helpers/home.js';

const DAY = 86_400_000;
let home: TempHome;
let cacheDir: string;
let server: Running;
let repo: string;
const files = { soon: '', overdue: '', fresh: '', withPrompts: '', noPrompts: '', recent: '' };
const iso = (file: string, plusDays = 0): string => new Date(statSync(file).mtimeMs + plusDays * DAY).toISOString();

interface Report {
  cleanupPeriodDays: number; source: string; setting: number | null; note: string | null; plansDir: string; within: number;
  plans: Record<string, unknown>[]; transcripts: Record<string, unknown>[];
  counts: Record<string, number>; transcriptsNote: string;
  keptTranscripts: { keeping: boolean; logs: number; goneLogs: number; keptBytes: number; limitBytes: number };
}

beforeAll(async () => {
  home = await TempHome.create('pmv-retention-');
  cacheDir = await mkdtemp(path.join(os.tmpdir(), 'pmv-retention-cache-'));
  repo = await home.repo('webapp');
  // Whole seconds: a sub-millisecond mtime would round differently in the answer and in the test.
  const ago = (days: number): Date => new Date(Math.floor((Date.now() - days * DAY) / 1000) * 1000);
  files.soon = await home.plan('due-soon.md', '# Due soon\n', ago(8));
  files.overdue = await home.plan('overdue.md', '# Overdue\n', ago(12));
  files.fresh = await home.plan('fresh.md', '# Fresh\n', ago(1));
  files.withPrompts = await home.session(repo, uuid(1), [null]);
  files.noPrompts = await home.session(repo, uuid(2), [null]);
  files.recent = await home.session(repo, uuid(3), [null]);
  await utimes(files.withPrompts, ago(9), ago(9));
  await utimes(files.noPrompts, ago(5), ago(5));
  await utimes(files.recent, ago(1), ago(1));
  await home.write('history.jsonl', JSON.stringify({ display: 'hi', pastedContents: {}, timestamp: Date.now() - 9 * DAY, project: repo, sessionId: uuid(1) }) + '\n');
  await home.write('settings.json', JSON.stringify({ cleanupPeriodDays: 10 }));
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, cacheDir });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
  await rm(cacheDir, { recursive: true, force: true });
});

describe('GET /api/retention', () => {
  it('lists what Claude Code deletes within a week, soonest first, and what the viewer keeps of it', async () => {
    // The viewer observes every plan once after start, in the background: then it keeps them. Its copies of
    // the idle transcripts are made in the background too: a pass now makes them.
    await server.viewer.keepNow();
    const report = await eventually(async () => {
      const r = await server.json<Report>('/api/retention');
      return r.counts.plansKept === 2 ? r : null;
    });
    if (report === null) throw new Error('the plans were never kept');
    expect(report).toMatchObject({ cleanupPeriodDays: 10, source: 'settings', setting: 10, note: null, plansDir: path.join(home.claude, 'plans'), within: 7 });
    expect(report.plans).toEqual([
      { filename: 'overdue.md', filepath: files.overdue, modified: iso(files.overdue), deletesAt: iso(files.overdue, 10), kept: true },
      { filename: 'due-soon.md', filepath: files.soon, modified: iso(files.soon), deletesAt: iso(files.soon, 10), kept: true },
    ]);
    expect(report.transcripts).toEqual([
      { sessionId: uuid(1), file: files.withPrompts, project: 'webapp', modified: iso(files.withPrompts), deletesAt: iso(files.withPrompts, 10), kept: true, keptFacts: 'prompt-history' },
      { sessionId: uuid(2), file: files.noPrompts, project: null, modified: iso(files.noPrompts), deletesAt: iso(files.noPrompts, 10), kept: true, keptFacts: 'none' },
    ]);
    expect(report.counts).toEqual({ plans: 2, plansKept: 2, transcripts: 2, transcriptsWithPrompts: 1, transcriptsKept: 2 });
    expect(report.transcriptsNote).toMatch(/keeps a compressed copy of each transcript idle for an hour/);
    // All three logs are idle: each is kept, and what they take is shown with the bound.
    expect(report.keptTranscripts).toMatchObject({ keeping: true, logs: 3, goneLogs: 0, limitBytes: 200 * 1024 * 1024 });
    expect(report.keptTranscripts.keptBytes).toBeGreaterThan(0);
    new OpenApiChecker(await server.json('/api/openapi.json')).assertResponse('GET', '/api/retention', 200, 'application/json', report);
  });

  it('gives the same deletion time as the plan\'s history', async () => {
    const history = await server.json<{ retention: { deletesAt: string } }>('/api/plans/due-soon.md/history');
    expect(history.retention.deletesAt).toBe(iso(files.soon, 10));
  });

  it('falls back to 30 days when the setting is absent or not a positive number, and shows what it says', async () => {
    await writeFile(path.join(home.claude, 'settings.json'), JSON.stringify({ cleanupPeriodDays: -3 }));
    const negative = await server.json<Report>('/api/retention');
    expect(negative).toMatchObject({ cleanupPeriodDays: 30, source: 'default', setting: -3, plans: [], transcripts: [] });
    expect(negative.note).toMatch(/cleanupPeriodDays to -3/);
    await writeFile(path.join(home.claude, 'settings.json'), '{}');
    expect(await server.json<Report>('/api/retention')).toMatchObject({ cleanupPeriodDays: 30, source: 'default', setting: null, note: null });
  });

  it('is documented in the OpenAPI description', async () => {
    const doc = await server.json<{ paths: Record<string, { get?: { responses: Record<string, unknown> } }> }>('/api/openapi.json');
    expect(Object.keys(doc.paths['/api/retention']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '403']));
  });
});

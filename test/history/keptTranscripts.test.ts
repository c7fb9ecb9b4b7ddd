// Transcripts kept past Claude Code's cleanup: a real server on loopback over a temp home whose session wrote
// and got approved a plan; the viewer copies the idle log under its cache dir, the log is deleted, and the
// session's card (kept), its plan's versions and its conversation are still served, after a restart too; a
// truncated copy is skipped with a warning; the bound drops the oldest logs' copies first; a limit of 0 keeps
// nothing.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, truncate, utimes, writeFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { PlanVersion, SessionCard } from '../../src/domain/types.js';
import { Viewer } from '../../src/viewer.js';
import { startServer, type Running } from '../helpers/http.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { APPROVED, edit, exitPlanMode, prompt, toolResult, write, type LineContext } from './transcript.js';

const HOUR = 3_600_000;
const A = uuid(0xa);
const V1 = '# Plan: Kept\n\n1. Copy the transcript\n';
const V2 = '# Plan: Kept\n\n1. Copy the transcript under the cache dir\n';
const at = (minute: number): string => new Date(Date.UTC(2026, 10, 19, 9, minute)).toISOString();

const homes: TempHome[] = [];
const servers: Running[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
  for (const home of homes) await home.cleanup();
});

interface Setup { home: TempHome; cacheDir: string; log: string; project: string }

/** A home whose session A wrote a plan, edited it and had it approved; its log idle for two hours. */
async function setup(): Promise<Setup> {
  const home = await TempHome.create('pmv-kept-');
  homes.push(home);
  const repo = await home.repo('webapp');
  const project = path.join(home.claude, 'projects', encodeCwd(repo));
  const plan = path.join(home.claude, 'plans', 'kept-plan-calm-heron.md');
  const a: LineContext = { cwd: repo, sessionId: A, slug: 'kept-plan-calm-heron', at: at(0) };
  const now = (minute: number): LineContext => ({ ...a, at: at(minute) });
  const exit = exitPlanMode(now(4));
  const log = path.join(project, `${A}.jsonl`);
  await mkdir(project, { recursive: true });
  await writeFile(log, [
    prompt({ ...a, slug: undefined }, 'Keep my transcripts please'),
    write(now(2), plan, V1),
    edit(now(3), plan, 'the transcript', 'the transcript under the cache dir'),
    exit.line,
    toolResult(now(5), exit.id, APPROVED),
  ].join('\n') + '\n');
  await utimes(log, new Date(Date.now() - 2 * HOUR), new Date(Date.now() - 2 * HOUR));
  await home.plan('kept-plan-calm-heron.md', V2);
  return { home, cacheDir: path.join(home.root, 'cache'), log, project };
}

async function start(s: Setup, historyLimitBytes?: number): Promise<Running> {
  const server = await startServer({ claudeDir: s.home.claude, homeDir: s.home.root, cacheDir: s.cacheDir, historyLimitBytes });
  servers.push(server);
  return server;
}

async function keptDir(cacheDir: string): Promise<string | null> {
  const names = existsSync(cacheDir) ? await readdir(cacheDir) : [];
  const name = names.find((n) => n.startsWith('kept-logs-'));
  return name === undefined ? null : path.join(cacheDir, name);
}

async function history(server: Running): Promise<{ versions: PlanVersion[] }> {
  return server.json<{ versions: PlanVersion[] }>('/api/plans/kept-plan-calm-heron.md/history');
}

async function versionText(server: Running, id: string): Promise<string> {
  return (await server.json<{ content: string }>(`/api/plans/kept-plan-calm-heron.md/versions/${encodeURIComponent(id)}`)).content;
}

async function transcriptTexts(server: Running): Promise<string[]> {
  const page = await server.json<{ entries: { text: string }[] }>(`/api/sessions/${A}/transcript`);
  return page.entries.map((e) => e.text);
}

/** What is served of session A once its log is gone: its card (kept), its plan's versions, its conversation. */
async function expectServedFromCopy(server: Running): Promise<void> {
  const card = await server.json<SessionCard>(`/api/sessions/${A}`);
  expect(card).toMatchObject({ sessionId: A, source: 'transcript', kept: true, firstPrompt: 'Keep my transcripts please' });
  new OpenApiChecker(await server.json('/api/openapi.json')).assertResponse('GET', '/api/sessions/{sessionId}', 200, 'application/json', card);
  const h = await history(server);
  const fromSession = h.versions.filter((v) => v.sessionId === A);
  expect(fromSession.map((v) => v.source)).toEqual(['write', 'edit']);
  expect(await versionText(server, fromSession[0]!.id)).toBe(V1);
  expect(await versionText(server, fromSession[1]!.id)).toBe(V2);
  expect(await transcriptTexts(server)).toContain('Keep my transcripts please');
}

describe('a transcript deleted after the viewer kept it', () => {
  it('keeps its card, its plan versions and its conversation, after a restart too, and drops a truncated copy with a warning', async () => {
    const s = await setup();
    let server = await start(s);
    await server.viewer.keepNow();
    expect(server.viewer.kept.has(s.log)).toBe(true);
    const dir = await keptDir(s.cacheDir);
    expect(dir).not.toBeNull();
    expect((await readdir(path.join(dir!, 'objects'))).filter((n) => n.endsWith('.gz'))).toHaveLength(1);

    await rm(s.log);
    await server.viewer.logChanged(s.log);
    await server.viewer.keptSettled();
    await expectServedFromCopy(server);
    // Nothing of the copy is outside the cache dir.
    expect(existsSync(s.log)).toBe(false);
    const retention = await server.json<{ keptTranscripts: Record<string, unknown>; transcripts: unknown[] }>('/api/retention');
    expect(retention.keptTranscripts).toMatchObject({ keeping: true, logs: 1, goneLogs: 1 });

    // A restart on the same cache dir, the log still gone.
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    server = await start(s);
    await server.viewer.keptSettled();
    await expectServedFromCopy(server);
    expect(server.warnings.filter((w) => /kept/.test(w))).toEqual([]);

    // The session index built anew (its cache cleared, as new derivation rules do): the facts come from the copy.
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    for (const name of await readdir(s.cacheDir)) if (name.startsWith('session-index-')) await rm(path.join(s.cacheDir, name));
    server = await start(s);
    await server.viewer.keptSettled();
    await expectServedFromCopy(server);

    // A truncated copy: a warning, no crash, and the session is gone.
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const object = (await readdir(path.join(dir!, 'objects'))).find((n) => n.endsWith('.gz'))!;
    await truncate(path.join(dir!, 'objects', object), Math.floor((await stat(path.join(dir!, 'objects', object))).size / 2));
    await rm(path.join(dir!, 'open'), { recursive: true, force: true });
    server = await start(s);
    await server.viewer.keptSettled();
    expect(server.warnings.some((w) => /kept copy of .* is unreadable/.test(w))).toBe(true);
    expect((await server.get(`/api/sessions/${A}`)).status).toBe(404);
    expect((await history(server)).versions.filter((v) => v.sessionId === A)).toEqual([]);
    expect(server.viewer.kept.has(s.log)).toBe(false);
  });

  it('keeps nothing with --history-limit 0: a deleted transcript is gone', async () => {
    const s = await setup();
    const server = await start(s, 0);
    await server.viewer.keepNow();
    expect(await keptDir(s.cacheDir)).toBeNull();
    expect((await server.json<{ keptTranscripts: Record<string, unknown> }>('/api/retention')).keptTranscripts).toEqual({ keeping: false, logs: 0, goneLogs: 0, keptBytes: 0, limitBytes: 0 });
    await rm(s.log);
    await server.viewer.logChanged(s.log);
    expect((await server.get(`/api/sessions/${A}`)).status).toBe(404);
  });
});

describe('the agent\'s process', () => {
  it('keeps no copy (only the server does)', async () => {
    const s = await setup();
    const viewer = await Viewer.open({
      claudeDir: s.home.claude, homeDir: s.home.root, logger: { warn: () => undefined }, watch: false, cacheDir: s.cacheDir, literalSearch: false,
    });
    try {
      await viewer.keepNow();
      expect(viewer.kept.has(s.log)).toBe(false);
      expect(await keptDir(s.cacheDir)).toBeNull();
    } finally {
      await viewer.close();
    }
  });
});

describe('the bound', () => {
  it('drops the copies of the logs with the oldest mtimes first', async () => {
    const s = await setup();
    // Two more logs of incompressible lines, 64 KiB each: the bound holds one of them and A's.
    const old = path.join(s.project, `${uuid(0xb)}.jsonl`);
    const newer = path.join(s.project, `${uuid(0xc)}.jsonl`);
    for (const [file, hours] of [[old, 5], [newer, 3]] as const) {
      const lines = Array.from({ length: 16 }, () => JSON.stringify({ type: 'user', noise: randomBytes(3000).toString('base64') }));
      await writeFile(file, lines.join('\n') + '\n');
      await utimes(file, new Date(Date.now() - hours * HOUR), new Date(Date.now() - hours * HOUR));
    }
    const server = await start(s, 80 * 1024);
    await server.viewer.keepNow();
    expect(server.viewer.kept.has(s.log)).toBe(true);
    expect(server.viewer.kept.has(newer)).toBe(true);
    expect(server.viewer.kept.has(old)).toBe(false);
    expect(server.viewer.kept.keptBytes).toBeLessThanOrEqual(80 * 1024);
  });
});

// A plan's story from real-shaped transcripts and files, through the HTTP API: versions from Write, Edit,
// MultiEdit and replace_all, a gap where an edit does not apply, a subagent's write, approved and rejected
// ExitPlanMode with the user's words, a session resumed under a new slug, a plan renamed by a hook and
// linked through planFilePath, a plan deleted from disk and still readable, and a hand edit observed.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchivedPlan, PlanEvent, PlanVersion, SessionCard } from '../../src/domain/types.js';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, eventually, TempHome, uuid } from '../helpers/home.js';
import {
  APPROVED, edit, exitPlanMode, meta, multiEdit, planModeAttachment, prompt, rejected, toolResult, write, type LineContext,
} from './transcript.js';

let home: TempHome;
let server: Running;
let plans: string;
let repo: string;

const A = uuid(0xa);
const B = uuid(0xb);
const C = uuid(0xc);
const D = uuid(0xd);
const at = (minute: number): string => new Date(Date.UTC(2026, 10, 19, 9, minute)).toISOString();

interface History {
  filename: string;
  versions: PlanVersion[];
  events: PlanEvent[];
  sessions: string[];
  retention: { cleanupPeriodDays: number; deletesAt: string | null };
}

const history = (name: string): Promise<History> => server.json<History>(`/api/plans/${encodeURIComponent(name)}/history`);
const version = async (name: string, id: string): Promise<string> =>
  (await server.json<{ content: string }>(`/api/plans/${encodeURIComponent(name)}/versions/${encodeURIComponent(id)}`)).content;

async function log(file: string, lines: string[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, lines.join('\n') + '\n');
}

const V1 = '# Plan: Dark mode\n\n## Steps\n\n1. Add a toggle\n2. Store the choice\n';
const V5 = '# Plan: Dark mode, again\n\nStart over: follow the system setting.\n';

beforeAll(async () => {
  home = await TempHome.create('pmv-history-');
  repo = await home.repo('webapp');
  plans = path.join(home.claude, 'plans');
  const project = path.join(home.claude, 'projects', encodeCwd(repo));
  const dark = path.join(plans, 'dark-mode-happy-otter.md');
  const a: LineContext = { cwd: repo, sessionId: A, slug: 'dark-mode-happy-otter', at: at(0) };
  const now = (minute: number): LineContext => ({ ...a, at: at(minute) });
  const exit1 = exitPlanMode(now(6));
  const exit2 = exitPlanMode(now(11));
  await log(path.join(project, `${A}.jsonl`), [
    prompt({ ...a, slug: undefined }, 'Add a dark mode to the web app'),
    planModeAttachment(now(1), 'plan_mode', dark),
    write(now(2), dark, V1),
    edit(now(3), dark, 'Add a toggle', 'Add a theme toggle'),
    multiEdit(now(4), dark, [{ old_string: '## Steps', new_string: '## Steps to take' }, { old_string: 'Store the choice', new_string: 'Remember the choice' }]),
    edit(now(5), dark, 'the', 'THE', true),
    exit1.line,
    toolResult(now(7), exit1.id, rejected('Add tests first, please.'), true),
    edit(now(8), dark, 'a sentence that was never there', 'x'),
    edit(now(9), dark, 'THE', 'the'),
    write(now(10), dark, V5),
    exit2.line,
    toolResult(now(12), exit2.id, APPROVED),
    planModeAttachment(now(13), 'plan_mode_exit', dark),
    meta.aiTitle(A, 'Dark mode for the web app'),
    meta.customTitle(A, 'Theme work'),
    meta.lastPrompt(A, 'ship it'),
    meta.cost(A, 1.25, 120, 30),
  ]);
  // A subagent of A writes its own plan.
  const agentPlan = path.join(plans, 'dark-mode-happy-otter-agent-a1b2c3d4e5f6a7b8c.md');
  await log(path.join(project, A, 'subagents', 'agent-a1b2c3d4e5f6a7b8c.jsonl'), [
    write({ ...now(20), agentId: 'a1b2c3d4e5f6a7b8c' }, agentPlan, '# Research: themes\n'),
  ]);
  await writeFile(path.join(project, A, 'subagents', 'agent-a1b2c3d4e5f6a7b8c.meta.json'), JSON.stringify({ agentType: 'Plan', description: 'Research themes', toolUseId: 'toolu_01research' }));
  await home.plan('dark-mode-happy-otter-agent-a1b2c3d4e5f6a7b8c.md', '# Research: themes\n');
  // B resumes A's plan, then gets a new slug and a plan of its own.
  const second = path.join(plans, 'second-plan-brave-lynx.md');
  await log(path.join(project, `${B}.jsonl`), [
    prompt({ cwd: repo, sessionId: B, slug: 'dark-mode-happy-otter', at: at(30) }, 'continue'),
    write({ cwd: repo, sessionId: B, slug: 'second-plan-brave-lynx', at: at(31) }, second, '# Second plan\n'),
  ]);
  await home.plan('second-plan-brave-lynx.md', '# Second plan\n');
  // C's plan was renamed by a hook; plan mode names the new path.
  const renamed = path.join(plans, '2026-11-19-renamed.md');
  await log(path.join(project, `${C}.jsonl`), [
    write({ cwd: repo, sessionId: C, slug: 'renamed-slug-cool-fox', at: at(40) }, path.join(plans, 'renamed-slug-cool-fox.md'), '# Renamed\n'),
    planModeAttachment({ cwd: repo, sessionId: C, slug: 'renamed-slug-cool-fox', at: at(41) }, 'plan_mode_reentry', renamed),
  ]);
  await home.plan('2026-11-19-renamed.md', '# Renamed\n');
  // D wrote a plan that is gone from disk now.
  await log(path.join(project, `${D}.jsonl`), [
    write({ cwd: repo, sessionId: D, slug: 'gone-plan-old-owl', at: at(50) }, path.join(plans, 'gone-plan-old-owl.md'), '# Gone plan\n\nStill readable.\n'),
  ]);
  // On disk: V5 and a hand edit after it.
  await home.plan('dark-mode-happy-otter.md', `${V5}\nHand-written note.\n`);
  await home.plan('hand-made.md', '# Hand made\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: true, cacheDir: path.join(home.root, 'cache') });
  await server.viewer.history.ready;
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('a plan rewritten by Write, Edit and MultiEdit', () => {
  it('has every version, oldest first, rebuilt byte for byte', async () => {
    const h = await history('dark-mode-happy-otter.md');
    expect(h.versions.map((v) => [v.source, v.at, v.sessionId, v.gapBefore])).toEqual([
      ['write', at(2), A, false],
      ['edit', at(3), A, false],
      ['edit', at(4), A, false],
      ['edit', at(5), A, false],
      ['write', at(10), A, true],
      ['disk', expect.any(String), null, false],
    ]);
    const texts = await Promise.all(h.versions.map((v) => version('dark-mode-happy-otter.md', v.id)));
    const v2 = V1.replace('Add a toggle', 'Add a theme toggle');
    const v3 = v2.replace('## Steps', '## Steps to take').replace('Store the choice', 'Remember the choice');
    expect(texts).toEqual([V1, v2, v3, v3.split('the').join('THE'), V5, `${V5}\nHand-written note.\n`]);
    for (const [i, v] of h.versions.entries()) {
      expect(v.size).toBe(Buffer.byteLength(texts[i]!));
      expect(v.lineCount).toBe(texts[i]!.split('\n').length - 1);
    }
  });

  it('shows plan mode around the versions: entered, rejected with the user\'s words, approved, exited', async () => {
    const h = await history('dark-mode-happy-otter.md');
    // A rejection or an approval is dated by the person's answer (the result line), not by the call.
    expect(h.events).toEqual([
      { at: at(1), kind: 'plan-mode-entered', sessionId: A, feedback: null },
      { at: at(7), kind: 'plan-rejected', sessionId: A, feedback: 'Add tests first, please.' },
      { at: at(12), kind: 'plan-approved', sessionId: A, feedback: null },
      { at: at(13), kind: 'plan-mode-exited', sessionId: A, feedback: null },
    ]);
  });

  it('lists every session of the plan: the one that wrote it and the one that resumed it', async () => {
    expect((await history('dark-mode-happy-otter.md')).sessions).toEqual([A, B].sort());
    // The spec's sessionId stays the last one.
    const listed = (await server.json<{ plans: { filename: string; sessionId: string }[] }>('/api/plans')).plans;
    expect(listed.find((p) => p.filename === 'dark-mode-happy-otter.md')?.sessionId).toBe(B);
  });

  it('answers 404 for an unknown plan or version', async () => {
    expect((await server.get('/api/plans/nope.md/history')).status).toBe(404);
    expect((await server.get('/api/plans/nope.md/history')).body).toBe('Plan not found');
    const res = await server.get('/api/plans/dark-mode-happy-otter.md/versions/t0000000000000000');
    expect([res.status, res.body]).toEqual([404, 'Version not found']);
  });
});

describe('other stories', () => {
  it('keeps a subagent\'s write with its agent', async () => {
    const h = await history('dark-mode-happy-otter-agent-a1b2c3d4e5f6a7b8c.md');
    expect(h.versions.map((v) => [v.source, v.sessionId, v.agentId])).toEqual([['write', A, 'a1b2c3d4e5f6a7b8c']]);
  });

  it('links a plan a hook renamed to its session through planFilePath, with the writes of its first name', async () => {
    const h = await history('2026-11-19-renamed.md');
    expect(h.sessions).toEqual([C]);
    expect(h.events.map((e) => e.kind)).toEqual(['plan-mode-entered']);
    expect(h.versions.map((v) => [v.source, v.sessionId])).toEqual([['write', C]]);
    expect((await server.json<{ plans: ArchivedPlan[] }>('/api/archive')).plans.map((p) => p.filename)).not.toContain('renamed-slug-cool-fox.md');
  });

  it('keeps a plan deleted from disk readable, in the archive and not in the list', async () => {
    const { plans: archived } = await server.json<{ plans: ArchivedPlan[] }>('/api/archive');
    expect(archived.map((p) => [p.filename, p.sessionId, p.project, p.lastVersionAt])).toEqual([['gone-plan-old-owl.md', D, 'webapp', at(50)]]);
    const listed = (await server.json<{ plans: { filename: string }[] }>('/api/plans')).plans.map((p) => p.filename);
    expect(listed).not.toContain('gone-plan-old-owl.md');
    const h = await history('gone-plan-old-owl.md');
    expect(await version('gone-plan-old-owl.md', h.versions[0]!.id)).toBe('# Gone plan\n\nStill readable.\n');
  });

  it('lists the same archive in steps as in one call, a turn between the steps', async () => {
    const stories = server.viewer.history.stories;
    let pauses = 0;
    const stepped = await stories.archiveInSteps(async () => {
      pauses++;
      await new Promise((resolve) => setImmediate(resolve));
    });
    expect(pauses).toBe(3);
    expect(stepped).toEqual(stories.archive());
    expect(stepped.map((p) => p.filename)).toContain('gone-plan-old-owl.md');
  });

  it('keeps the contents the viewer saw of a hand-edited plan, and the plan once deleted', async () => {
    const file = path.join(plans, 'hand-made.md');
    await writeFile(file, '# Hand made\n\nSecond version.\n');
    expect(await eventually(async () => (await history('hand-made.md')).versions.length === 2, 15_000)).toBe(true);
    const h = await history('hand-made.md');
    // The first one as seen at start; the second is the file on disk now.
    expect(h.versions.map((v) => v.source)).toEqual(['observed', 'disk']);
    expect(await version('hand-made.md', h.versions[0]!.id)).toBe('# Hand made\n');
    // The history above shows the file on disk as it is; the viewer keeps that content once its watcher's
    // change has been observed (in the background), which is what a deletion leaves readable.
    expect(await eventually(() => server.viewer.history.observed.of(file)?.versions.length === 2, 15_000)).toBe(true);
    await rm(file);
    expect(await eventually(async () => (await server.json<{ plans: ArchivedPlan[] }>('/api/archive')).plans.some((p) => p.filename === 'hand-made.md'), 15_000)).toBe(true);
    const archived = (await server.json<{ plans: ArchivedPlan[] }>('/api/archive')).plans.find((p) => p.filename === 'hand-made.md')!;
    expect(archived.title).toBe('Hand made');
    expect(archived.deletedAt).not.toBeNull();
    const after = await history('hand-made.md');
    expect(await version('hand-made.md', after.versions.at(-1)!.id)).toBe('# Hand made\n\nSecond version.\n');
  });

  it('says when Claude Code will delete a plan of the shared folder', async () => {
    const h = await history('second-plan-brave-lynx.md');
    const listed = (await server.json<{ plans: { filename: string; modified: string }[] }>('/api/plans')).plans.find((p) => p.filename === 'second-plan-brave-lynx.md')!;
    expect(h.retention).toEqual({ cleanupPeriodDays: 30, deletesAt: new Date(Date.parse(listed.modified) + 30 * 86_400_000).toISOString() });
  });
});

describe('session cards', () => {
  it('tells a session\'s title, prompts, place, cost, subagents, plans and how to resume it', async () => {
    const card = await server.json<SessionCard>(`/api/sessions/${A}`);
    expect(card).toEqual({
      sessionId: A,
      title: 'Theme work',
      firstPrompt: 'Add a dark mode to the web app',
      lastPrompt: 'ship it',
      gitBranch: 'main',
      cwd: repo,
      project: 'webapp',
      version: '2.1.329',
      entrypoint: 'cli',
      firstAt: at(0),
      lastAt: at(20),
      costUsd: 1.25,
      linesAdded: 120,
      linesRemoved: 30,
      subagents: [{ agentId: 'a1b2c3d4e5f6a7b8c', type: 'Plan', description: 'Research themes', toolUseId: 'toolu_01research' }],
      plans: ['dark-mode-happy-otter-agent-a1b2c3d4e5f6a7b8c.md', 'dark-mode-happy-otter.md'],
      unreadLines: 0,
      resumeCommand: `cd ${repo} && claude --resume ${A}`,
      source: 'transcript',
      kept: false,
    });
  });

  it('gives a session that resumed under a new slug the plans of both slugs', async () => {
    const card = await server.json<SessionCard>(`/api/sessions/${B}`);
    // A subagent's plan belongs to its slug's session (the list's rule), B among them.
    expect(card.plans).toEqual(['dark-mode-happy-otter-agent-a1b2c3d4e5f6a7b8c.md', 'dark-mode-happy-otter.md', 'second-plan-brave-lynx.md']);
  });

  it('answers 404 for a session no log names', async () => {
    const res = await server.get(`/api/sessions/${uuid(0xeeee)}`);
    expect([res.status, res.body]).toEqual([404, 'Session not found']);
  });
});

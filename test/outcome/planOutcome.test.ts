// GET /api/plans/{filename}/outcome on a real server over a transcript in Claude Code's shapes: a plan
// rejected, revised and approved, then edits (one with a structuredPatch sidecar the person modified, one
// new file), a failing then passing test run, a commit, a task list, a PR link, a subagent's edit, model
// usage (one answer written on two lines), a turn's duration, and the session moving on to another plan.
// The figures are worked out by hand below.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanOutcome } from '../../src/contract/outcome.js';
import { TempHome, uuid, encodeCwd } from '../helpers/home.js';
import { startServer, type Running } from '../helpers/http.js';
import { OpenApiChecker } from '../helpers/openapi.js';
import { APPROVED, exitPlanMode, modelAnswer, prompt, rejected, toolResult, toolUse, withSidecar, write, type LineContext } from '../history/transcript.js';

const SESSION = uuid(0x40);
let home: TempHome;
let server: Running;

const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 10, 10, 10, minute, second)).toISOString();

beforeAll(async () => {
  home = await TempHome.create();
  const repo = await home.repo('webapp');
  const plan = path.join(home.claude, 'plans', 'theme-toggle-calm-owl.md');
  const ctx = (minute: number, second = 0, agentId?: string): LineContext => ({ cwd: repo, sessionId: SESSION, slug: 'theme-toggle-calm-owl', at: at(minute, second), ...(agentId ? { agentId } : {}) });
  const e1 = exitPlanMode(ctx(2));
  const e2 = exitPlanMode(ctx(4));
  const edit = toolUse(ctx(6), 'Edit', { file_path: `${repo}/src/theme.ts`, old_string: 'a\nb\n', new_string: 'a\nB\nc\n' });
  const create = toolUse(ctx(7), 'Write', { file_path: `${repo}/src/toggle.tsx`, content: 'x\ny\nz\n' });
  const failing = toolUse(ctx(8), 'Bash', { command: 'npm test', description: 'Run the tests' });
  const passing = toolUse(ctx(9), 'Bash', { command: 'npm test', description: 'Run the tests' });
  const commit = toolUse(ctx(10), 'Bash', { command: "git add -A && git commit -m \"Add the theme toggle\"" });
  const todo = toolUse(ctx(11), 'TodoWrite', { todos: [{ content: 'Add toggle', status: 'completed', activeForm: 'Adding' }, { content: 'Write docs', status: 'pending', activeForm: 'Writing' }] });
  const task = toolUse(ctx(11, 30), 'Task', { description: 'Finish the theme', prompt: 'Add a line', subagent_type: 'general-purpose' });
  const e3 = exitPlanMode(ctx(13));
  const later = toolUse(ctx(14), 'Edit', { file_path: `${repo}/src/other.ts`, old_string: 'q', new_string: 'r' });
  await home.plan('theme-toggle-calm-owl.md', '# Theme toggle\n\n1. Edit src/theme.ts\n2. Run `npm test` until green\n3. Write docs for the toggle\n4. Update src/missing.ts\n\n```sh\n- not a step\n```\n');
  await home.session(repo, SESSION, [], [
    prompt(ctx(0), 'Plan a theme toggle'),
    write(ctx(1), plan, '# Theme toggle\n'),
    e1.line, toolResult(ctx(3), e1.id, rejected('Name the file.'), true),
    e2.line, toolResult(ctx(5), e2.id, APPROVED),
    edit.line,
    modelAnswer(ctx(6, 10), 'claude-opus-4-5', 'msg_a', { input_tokens: 1000, output_tokens: 2000, cache_read_input_tokens: 10000, cache_creation_input_tokens: 4000 }),
    // The same answer's next content block: its usage again, counted once.
    modelAnswer(ctx(6, 11), 'claude-opus-4-5', 'msg_a', { input_tokens: 1000, output_tokens: 2000, cache_read_input_tokens: 10000, cache_creation_input_tokens: 4000 }),
    withSidecar(toolResult(ctx(6, 30), edit.id, 'The file has been updated.'), { filePath: `${repo}/src/theme.ts`, structuredPatch: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 2, lines: ['-b', '+B', '+c'] }], userModified: true }),
    create.line, withSidecar(toolResult(ctx(7, 5), create.id, 'File created successfully'), { type: 'create', filePath: `${repo}/src/toggle.tsx`, content: 'x\ny\nz\n' }),
    failing.line, toolResult(ctx(8, 20), failing.id, 'FAIL src/theme.test.ts', true),
    passing.line, toolResult(ctx(9, 20), passing.id, 'Tests 4 passed'),
    modelAnswer(ctx(9, 30), 'claude-sonnet-4-5', 'msg_b', { input_tokens: 500, output_tokens: 100 }),
    modelAnswer(ctx(9, 40), 'mystery-1', 'msg_c', { input_tokens: 50 }),
    commit.line, toolResult(ctx(10, 5), commit.id, '[main 1a2b3c4] Add the theme toggle'),
    todo.line, toolResult(ctx(11, 5), todo.id, 'Todos have been modified successfully'),
    task.line,
    JSON.stringify({ type: 'pr-link', prNumber: 42, prUrl: 'https://github.com/acme/webapp/pull/42', prRepository: 'acme/webapp', sessionId: SESSION, timestamp: at(12) }),
    JSON.stringify({ parentUuid: null, isSidechain: false, type: 'system', subtype: 'turn_duration', durationMs: 300_000, timestamp: at(12), uuid: 'turn-1', cwd: repo, sessionId: SESSION }),
    // The session moves on: another plan written, then approved.
    write(ctx(12, 30), path.join(home.claude, 'plans', 'next-plan-brave-fox.md'), '# Next plan\n'),
    e3.line, toolResult(ctx(13, 30), e3.id, APPROVED),
    later.line, toolResult(ctx(14, 5), later.id, 'The file has been updated.'),
    modelAnswer(ctx(15), 'claude-opus-4-5', 'msg_d', { input_tokens: 9999 }),
  ]);
  // The subagent's edit, in its own log under the session.
  const sub = toolUse(ctx(11, 40, 'a1b2c3'), 'Edit', { file_path: `${repo}/src/theme.ts`, old_string: 'c\n', new_string: 'c\nd\n' });
  await home.write(path.join('projects', encodeCwd(repo), SESSION, 'subagents', 'agent-a1b2c3.jsonl'), [sub.line, toolResult(ctx(11, 45, 'a1b2c3'), sub.id, 'The file has been updated.')].join('\n') + '\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('a plan\'s outcome', () => {
  it('holds the work after its approval, until the session moves on, with figures worked out by hand', async () => {
    const outcome = await server.json<PlanOutcome>('/api/plans/theme-toggle-calm-owl.md/outcome');
    new OpenApiChecker(await server.json<Record<string, unknown>>('/api/openapi.json')).assertResponse('GET', '/api/plans/{filename}/outcome', 200, 'application/json', outcome);
    expect(outcome.status).toBe('approved');
    // One window, from the approval's answer (10:05; the call put the plan before the person at 10:04): the rejection
    // starts none; the write of another plan ends it, and that plan's approval is not this one's.
    expect(outcome.windows.map((w) => [w.approvedAt, w.endedAt, w.lastWorkAt])).toEqual([[at(5), at(12, 30), at(12)]]);
    // theme.ts: the patch's 2 added and 1 removed (modified by the person), and the subagent's 1 added.
    expect(outcome.files).toEqual([
      { path: expect.stringMatching(/src\/theme\.ts$/) as unknown as string, edits: 2, added: 3, removed: 1, userModified: true, failed: 0 },
      { path: expect.stringMatching(/src\/toggle\.tsx$/) as unknown as string, edits: 1, added: 3, removed: 0, userModified: false, failed: 0 },
    ]);
    expect(outcome.commands.map((c) => [c.command, c.kind, c.failed, c.message])).toEqual([
      ['npm test', 'test', true, null],
      ['npm test', 'test', false, null],
      ['git add -A && git commit -m "Add the theme toggle"', 'commit', false, 'Add the theme toggle'],
    ]);
    expect(outcome.tests).toEqual({ runs: 2, failed: 1, lastPassed: true });
    expect(outcome.builds).toEqual({ runs: 0, failed: 0, lastPassed: null });
    expect(outcome.commits).toEqual([{ at: at(10), message: 'Add the theme toggle' }]);
    expect(outcome.pullRequests).toEqual([{ url: 'https://github.com/acme/webapp/pull/42', number: 42, at: at(12) }]);
    expect(outcome.tasks).toEqual([{ content: 'Add toggle', status: 'completed' }, { content: 'Write docs', status: 'pending' }]);
    expect(outcome.subagents).toBe(1);
    expect(outcome.steps.map((st) => [st.line, st.status, st.evidence.map((e) => e.replace(/\/\S*\/src\//, '/src/'))])).toEqual([
      [3, 'done', ['changed /src/theme.ts']],
      [4, 'done', ['ran npm test (2×, last passed)']],
      [5, 'partly', ['task “Write docs”: pending']],
      [6, 'no-evidence', []],
    ]);
    expect(outcome.unplannedFiles.map((f) => path.basename(f))).toEqual(['toggle.tsx']);
    expect(outcome.unverified).toEqual([]);
    // From the approval (10:05) to the last work (the turn at 10:12); 5 minutes of it active.
    expect(outcome.time).toEqual({ wallMs: 420_000, activeMs: 300_000, waitingMs: 120_000 });
    // Opus 4.5: (1,000 × 5 + 2,000 × 25 + 4,000 × 6.25 + 10,000 × 0.5) / 1e6 = 0.085; Sonnet 4.5: (500 × 3 + 100 × 15) / 1e6 = 0.003.
    expect(outcome.tokens.byModel.map((m) => [m.model, m.input, m.output, m.cacheRead, m.cacheWrite, m.costUsd === null ? null : Number(m.costUsd.toFixed(6))])).toEqual([
      ['claude-opus-4-5', 1000, 2000, 10000, 4000, 0.085],
      ['claude-sonnet-4-5', 500, 100, 0, 0, 0.003],
      ['mystery-1', 50, 0, 0, 0, null],
    ]);
    expect(outcome.tokens.costUsd).toBeCloseTo(0.088, 9);
    expect(outcome.tokens.unpricedTokens).toBe(50);
  });

  it('answers 404 for a plan nobody has; the next plan\'s outcome holds the work after its own approval', async () => {
    expect((await server.get('/api/plans/nope.md/outcome')).status).toBe(404);
    const next = await server.json<PlanOutcome>('/api/plans/next-plan-brave-fox.md/outcome');
    expect(next.status).toBe('approved');
    expect(next.windows.map((w) => w.approvedAt)).toEqual([at(13, 30)]);
    expect(next.files.map((f) => path.basename(f.path))).toEqual(['other.ts']);
  });
});

describe('the plan_outcome MCP tool', () => {
  it('answers a summary by default and everything with detail, and a tool error for an unknown plan', async () => {
    const client = new Client({ name: 'pmv-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
    try {
      const call = async (args: Record<string, unknown>) => {
        const result = await client.callTool({ name: 'plan_outcome', arguments: args });
        return { isError: result.isError === true, text: (result.content as { text: string }[])[0]!.text };
      };
      const short = JSON.parse((await call({ filename: 'theme-toggle-calm-owl.md' })).text) as Record<string, unknown>;
      expect(short).toMatchObject({
        status: 'approved', approvals: 1, commands: 3, subagents: 1, costUsd: 0.088, unpricedTokens: 50,
        files: { count: 2, added: 6, removed: 1 },
        tests: { runs: 2, failed: 1, lastPassed: true },
        tasks: { total: 2, completed: 1, open: ['Write docs'] },
      });
      const full = JSON.parse((await call({ filename: 'theme-toggle-calm-owl.md', detail: true })).text) as PlanOutcome;
      expect(full).toEqual(await server.json<PlanOutcome>('/api/plans/theme-toggle-calm-owl.md/outcome'));
      const missing = await call({ filename: 'nope.md' });
      expect(missing).toEqual({ isError: true, text: 'No plan named nope.md, listed or archived' });
    } finally {
      await client.close();
    }
  });
});

describe('GET /api/costs', () => {
  interface Costs { by: string; rows: { key: string; costUsd: number; activeMs: number; tokens: number; sessions: number }[]; totalUsd: number; unpricedTokens: number }
  const round = (body: Costs) => body.rows.map((r) => ({ ...r, costUsd: Number(r.costUsd.toFixed(6)) }));

  it('groups the priced tokens and the active time by day, plan and project, between dates', async () => {
    // The answers above (0.085 + 0.003 of the first plan's work, 50 unpriced tokens) and one of Opus 4.5 after the
    // session moved on: 9,999 × 5 / 1e6 = 0.049995.
    const day = await server.json<Costs>('/api/costs?by=day');
    expect(round(day)).toEqual([{ key: '2026-11-10', costUsd: 0.137995, activeMs: 300_000, tokens: 27_649, sessions: 1 }]);
    expect(day.unpricedTokens).toBe(50);
    const plan = await server.json<Costs>('/api/costs?by=plan');
    expect(round(plan)).toEqual([
      { key: 'theme-toggle-calm-owl.md', costUsd: 0.088, activeMs: 300_000, tokens: 17_650, sessions: 1 },
      { key: 'next-plan-brave-fox.md', costUsd: 0.049995, activeMs: 0, tokens: 9_999, sessions: 1 },
    ]);
    expect((await server.json<Costs>('/api/costs?by=project')).rows.map((r) => r.key)).toEqual(['webapp']);
    expect((await server.json<Costs>('/api/costs?after=2026-11-11')).rows).toEqual([]);
    expect(round(await server.json<Costs>(`/api/costs?by=day&after=${encodeURIComponent(at(14))}&before=2026-11-10`))).toEqual([
      { key: '2026-11-10', costUsd: 0.049995, activeMs: 0, tokens: 9_999, sessions: 1 },
    ]);
    const bad = await server.get('/api/costs?after=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('after and before must be dates');
  });
});

describe('a session\'s transcript, paged', () => {
  interface Page { sessionId: string; agentId: string | null; entries: { cursor: number; kind: string; text: string; tool: string | null; isError: boolean }[]; nextCursor: number | null; totalBytes: number; subagents: string[] }

  it('pages through the whole conversation with the cursor, the same as one read, and opens a subagent\'s log', async () => {
    const whole = await server.json<Page>(`/api/sessions/${SESSION}/transcript?limit=1000`);
    expect(whole.nextCursor).toBeNull();
    expect(whole.subagents).toEqual(['a1b2c3']);
    // The permission-mode line before it is no entry.
    expect(whole.entries[0]).toMatchObject({ kind: 'prompt', text: 'Plan a theme toggle' });
    expect(whole.entries[0]!.cursor).toBeGreaterThan(0);
    expect(whole.entries.filter((e) => e.kind === 'tool-result' && e.isError).map((e) => e.text)).toEqual([rejected('Name the file.'), 'FAIL src/theme.test.ts']);
    expect(whole.entries.filter((e) => e.kind === 'tool-call').map((e) => e.tool)).toEqual(
      ['Write', 'ExitPlanMode', 'ExitPlanMode', 'Edit', 'Write', 'Bash', 'Bash', 'Bash', 'TodoWrite', 'Task', 'Write', 'ExitPlanMode', 'Edit'],
    );
    const paged: Page['entries'] = [];
    let cursor: number | null = 0;
    let pages = 0;
    while (cursor !== null) {
      const page: Page = await server.json<Page>(`/api/sessions/${SESSION}/transcript?cursor=${cursor}&limit=3`);
      paged.push(...page.entries);
      cursor = page.nextCursor;
      pages++;
    }
    expect(pages).toBeGreaterThan(5);
    expect(paged).toEqual(whole.entries);
    // An entry's cursor opens the transcript at its line (the call's text, then the call).
    const edit = whole.entries.find((e) => e.tool === 'Edit')!;
    expect((await server.json<Page>(`/api/sessions/${SESSION}/transcript?cursor=${edit.cursor}&limit=1`)).entries).toEqual(
      whole.entries.filter((e) => e.cursor === edit.cursor),
    );
    const sub = await server.json<Page>(`/api/sessions/${SESSION}/transcript?agent=a1b2c3`);
    expect(sub.agentId).toBe('a1b2c3');
    expect(sub.entries.map((e) => e.kind)).toEqual(['answer', 'tool-call', 'tool-result']);
  });

  it('answers 404 for an unknown session or subagent and 400 for a bad cursor', async () => {
    expect((await server.get(`/api/sessions/${uuid(0x99)}/transcript`)).status).toBe(404);
    expect((await server.get(`/api/sessions/${SESSION}/transcript?agent=nobody`)).status).toBe(404);
    expect((await server.get(`/api/sessions/${SESSION}/transcript?cursor=-1`)).status).toBe(400);
    expect((await server.get(`/api/sessions/${SESSION}/transcript?limit=0`)).status).toBe(400);
  });

  it('is the session_transcript MCP tool too', async () => {
    const client = new Client({ name: 'pmv-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
    try {
      const result = await client.callTool({ name: 'session_transcript', arguments: { sessionId: SESSION, limit: 2 } });
      const page = JSON.parse((result.content as { text: string }[])[0]!.text) as Page;
      expect(page).toEqual(await server.json<Page>(`/api/sessions/${SESSION}/transcript?limit=2`));
      const missing = await client.callTool({ name: 'session_transcript', arguments: { sessionId: uuid(0x99) } });
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

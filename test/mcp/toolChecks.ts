// What every MCP transport must answer, asserted through the SDK's own Client: each tool on the API
// fixture home (test/http/fixture.ts), and bad arguments answered as tool errors.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { encodeCwd, uuid } from '../helpers/home.js';
import type { Fixture } from '../http/fixture.js';

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args })) as ToolAnswer;
}

/** The tool's JSON answer; fails the test on a tool error. */
// The answers are asserted field by field below: typing each tool's JSON here would only repeat them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function answer<T = Record<string, any>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(client, name, args);
  expect(result.isError ?? false, result.content[0]?.text).toBe(false);
  return JSON.parse(result.content[0]!.text) as T;
}

/** The tool error's text; fails the test when the call succeeded. */
export async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError, JSON.stringify(result)).toBe(true);
  return result.content[0]!.text;
}

export async function checkEveryTool(client: Client, fixture: Fixture): Promise<void> {
  const { home, webapp } = fixture;
  const source = encodeCwd(webapp);
  const planFile = path.join(home.claude, 'plans', 'jolly-juggling-penguin.md');

  const tools = (await client.listTools()).tools;
  expect(tools.map((t) => t.name).sort()).toEqual(['get_memory', 'get_plan', 'get_session', 'list_plans', 'memory_blame', 'memory_changes', 'memory_health', 'memory_history', 'plan_history', 'plan_outcome', 'search', 'session_transcript']);
  for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);

  // search: a plan and a memory entry, with the line each matched on.
  const plans = await answer(client, 'search', { query: 'css VARIABLES' });
  expect(plans.total).toBe(1);
  expect(plans.results[0]).toEqual({
    kind: 'plan', id: 'jolly-juggling-penguin.md', title: 'Add dark mode', project: 'webapp', modified: '2026-11-20T11:50:00.000Z',
    path: planFile, snippets: [{ line: 3, text: 'Use CSS variables.' }],
  });
  const memory = await answer(client, 'search', { query: 'table tests' });
  expect(memory.results).toEqual([expect.objectContaining({
    kind: 'memory', id: `${source}/notes/testing.md`, title: 'testing-style', project: 'webapp', snippets: [{ line: 5, text: 'Table tests. Σίγμα' }],
  })]);
  // Sessions too: the id for get_session, the log as the path, the matched line in it.
  const sessions = await answer(client, 'search', { query: 'in:sessions message' });
  expect(sessions.results.length).toBeGreaterThan(0);
  for (const result of sessions.results) expect(result.kind).toBe('session');
  const first = sessions.results.find((r: { id: string }) => r.id === uuid(1));
  expect(first.path).toBe(path.join(home.claude, 'projects', encodeCwd(webapp), `${uuid(1)}.jsonl`));
  const logLines = (await readFile(first.path, 'utf8')).split('\n');
  expect(first.snippets.length).toBeGreaterThan(0);
  for (const snippet of first.snippets) expect(logLines[snippet.line - 1]).toContain('message');
  const limited = await answer(client, 'search', { query: 'plan', limit: 1 });
  expect(limited.results).toHaveLength(1);
  expect(limited.total).toBeGreaterThan(1);

  // list_plans with each filter.
  const webappPlans = await answer(client, 'list_plans', { project: 'webapp' });
  expect(webappPlans.plans.map((p: { filename: string }) => p.filename).sort()).toEqual(['jolly-juggling-penguin-agent-a7b1cd4effbcbdebe.md', 'jolly-juggling-penguin.md', 'repo-plan.md']);
  const recent = await answer(client, 'list_plans', { since: '2026-11-20T11:45:00Z' });
  expect(recent.plans.map((p: { filename: string }) => p.filename)).toEqual(['jolly-juggling-penguin.md']);
  const one = await answer(client, 'list_plans', { limit: 1 });
  expect(one.plans).toHaveLength(1);
  expect(one.total).toBe(6);

  // get_plan: metadata, the content as on disk, the session card.
  const plan = await answer(client, 'get_plan', { filename: 'jolly-juggling-penguin.md' });
  expect(plan.metadata).toMatchObject({ filename: 'jolly-juggling-penguin.md', title: 'Add dark mode', sessionId: uuid(1), project: 'webapp' });
  expect(plan.content).toBe(await readFile(planFile, 'utf8'));
  expect(plan.truncated).toBe(false);
  expect(plan.session).toMatchObject({ sessionId: uuid(1), cwd: webapp, resumeCommand: `cd ${webapp} && claude --resume ${uuid(1)}` });

  // plan_history, and a version of it through get_plan.
  const history = await answer(client, 'plan_history', { filename: 'jolly-juggling-penguin.md' });
  expect(history.filename).toBe('jolly-juggling-penguin.md');
  expect(history.versions.length).toBeGreaterThan(0);
  expect(history.sessions).toContain(uuid(1));
  const versionId = history.versions.at(-1).id as string;
  const version = await answer(client, 'get_plan', { filename: 'jolly-juggling-penguin.md', version: versionId });
  expect(version.version).toBe(versionId);
  expect(version.content).toBe(plan.content);

  // get_memory: content and links both ways.
  const entry = await answer(client, 'get_memory', { id: `${source}/user-role.md` });
  expect(entry.metadata).toMatchObject({ id: `${source}/user-role.md`, name: 'user-role', description: 'Senior backend engineer', type: 'user' });
  expect(entry.content).toContain('Prefers Go. See [[testing-style]].');
  expect(entry.links).toEqual(['notes/testing.md']);
  expect(entry.linkedFrom).toEqual(['MEMORY.md']);

  // memory_health: the dangling link of MEMORY.md and the topic it does not link, per source.
  const summary = await answer(client, 'memory_health');
  expect(summary).toMatchObject({ sources: [{ id: source, orphanCount: 1, findingCount: 1, findingsByKind: { dangling: 1 } }], findings: 1, findingsByKind: { dangling: 1 } });
  const health = await answer(client, 'memory_health', { detail: true });
  expect(health.sources).toHaveLength(1);
  expect(health.sources[0]).toMatchObject({
    id: source, project: 'webapp', active: true, entryCount: 2, orphans: ['notes/testing.md'],
    index: { danglingLinks: ['missing.md'], overLineLimit: false, overByteLimit: false },
  });
  // The literal `orphans` lists notes/testing.md, but it is no orphan (user-role.md links it, so Claude Code can
  // reach it): the problems in words agree with the findings (one definition, orphans.ts).
  expect(health.sources[0].problems).toEqual(['1 link(s) in MEMORY.md point to no entry']);
  // The memory-care findings of the same source, with the fix the viewer offers.
  expect(health.sources[0].findings).toEqual([
    { kind: 'dangling', file: 'MEMORY.md', line: 4, message: 'Links to missing.md, which does not exist in this folder.', fix: 'remove-link' },
  ]);
  expect((await answer(client, 'memory_health', { source })).sources).toHaveLength(1);

  // get_session: the card with the command that resumes it.
  const card = await answer(client, 'get_session', { sessionId: uuid(1) });
  expect(card).toMatchObject({ sessionId: uuid(1), project: 'webapp', gitBranch: 'main', resumeCommand: `cd ${webapp} && claude --resume ${uuid(1)}` });
  expect(card.plans).toContain('jolly-juggling-penguin.md');
}

export async function checkBadArguments(client: Client, fixture: Fixture): Promise<void> {
  const source = encodeCwd(fixture.webapp);
  expect(await toolError(client, 'search', { query: 5 })).toMatch(/query/);
  expect(await toolError(client, 'search', {})).toMatch(/query/);
  expect(await toolError(client, 'search', { query: 'x', limit: 0 })).toMatch(/limit/);
  expect(await toolError(client, 'search', { query: 'auth after:yesterday' })).toMatch(/after/);
  expect(await toolError(client, 'list_plans', { since: 'last tuesday' })).toMatch(/since/);
  expect(await toolError(client, 'list_plans', { limit: 'all' })).toMatch(/limit/);
  expect(await toolError(client, 'get_plan', { filename: 'no-such-plan.md' })).toMatch(/no-such-plan\.md/);
  expect(await toolError(client, 'get_plan', { filename: '../settings.json' })).toMatch(/No plan/);
  expect(await toolError(client, 'get_plan', { filename: 'jolly-juggling-penguin.md', version: 'nope' })).toMatch(/No version/);
  expect(await toolError(client, 'plan_history', { filename: 'no-such-plan.md' })).toMatch(/No plan/);
  expect(await toolError(client, 'get_memory', { id: `${source}/../../../../etc/passwd` })).toMatch(/No memory entry/);
  expect(await toolError(client, 'memory_health', { source: 'nope' })).toMatch(/No memory source/);
  expect(await toolError(client, 'get_session', { sessionId: uuid(99) })).toMatch(/No session/);
  expect(await toolError(client, 'get_session', {})).toMatch(/sessionId/);
  expect(await toolError(client, 'no_such_tool', {})).toMatch(/no_such_tool/);
  // Still serving after all of those.
  expect((await answer(client, 'list_plans', { limit: 1 })).plans).toHaveLength(1);
}

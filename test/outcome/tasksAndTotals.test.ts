// The task list of a plan's outcome from the newer task tools (TaskCreate, TaskUpdate) and the `task_status`
// attachments Claude Code writes (attachment first in the line, its keys in an order of their own), and a session's own
// total (a cost-state line) winning over the price table in GET /api/costs, in Claude Code's shapes on a real
// server. Figures worked out by hand below.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanOutcome } from '../../src/contract/outcome.js';
import { TempHome, uuid } from '../helpers/home.js';
import { startServer, type Running } from '../helpers/http.js';
import { APPROVED, exitPlanMode, modelAnswer, prompt, toolResult, toolUse, withSidecar, write, type LineContext } from '../history/transcript.js';

const SESSION = uuid(0x41);
const OTHER = uuid(0x42);
let home: TempHome;
let server: Running;

const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 10, 12, 9, minute, second)).toISOString();

/** A `task_status` attachment line, the attachment before the line's other keys. */
function taskStatus(ctx: LineContext, fields: Record<string, unknown>): string {
  return JSON.stringify({
    attachment: { ...fields, type: 'task_status' }, type: 'attachment', parentUuid: null, isSidechain: false,
    uuid: `u-${ctx.at}`, timestamp: ctx.at, userType: 'external', cwd: ctx.cwd, sessionId: ctx.sessionId, version: '2.1.240',
  });
}

beforeAll(async () => {
  home = await TempHome.create();
  const repo = await home.repo('shop');
  const plan = path.join(home.claude, 'plans', 'cart-rework-quiet-elk.md');
  const ctx = (minute: number, second = 0, sessionId = SESSION): LineContext => ({ cwd: repo, sessionId, slug: 'cart-rework-quiet-elk', at: at(minute, second) });
  const exit = exitPlanMode(ctx(2));
  const a = toolUse(ctx(4), 'TaskCreate', { subject: 'Split the cart store', description: 'Move totals out', activeForm: 'Splitting' });
  const b = toolUse(ctx(5), 'TaskCreate', { subject: 'Drop the legacy API', description: '…', activeForm: 'Dropping' });
  const c = toolUse(ctx(6), 'TaskCreate', { subject: 'Write the migration note', description: '…', activeForm: 'Writing' });
  const done = toolUse(ctx(7), 'TaskUpdate', { taskId: '1', status: 'completed' });
  const gone = toolUse(ctx(8), 'TaskUpdate', { taskId: '2', status: 'deleted' });
  const renamed = toolUse(ctx(9), 'TaskUpdate', { taskId: '3', status: 'in_progress', subject: 'Write the upgrade note' });
  const refused = toolUse(ctx(10), 'TaskUpdate', { taskId: '3', status: 'completed' });
  await home.plan('cart-rework-quiet-elk.md', '# Cart rework\n\n1. Split the cart store\n');
  await home.session(repo, SESSION, [], [
    prompt(ctx(0), 'Plan the cart rework'),
    write(ctx(1), plan, '# Cart rework\n'),
    exit.line, toolResult(ctx(3), exit.id, APPROVED),
    // The first id from the result's sidecar, the others from its text.
    a.line, withSidecar(toolResult(ctx(4, 5), a.id, 'Task #1 created successfully: Split the cart store'), { task: { id: '1', subject: 'Split the cart store' } }),
    b.line, toolResult(ctx(5, 5), b.id, 'Task #2 created successfully: Drop the legacy API'),
    c.line, toolResult(ctx(6, 5), c.id, 'Task #3 created successfully: Write the migration note'),
    done.line, toolResult(ctx(7, 5), done.id, 'Updated task #1 status'),
    gone.line, toolResult(ctx(8, 5), gone.id, 'Updated task #2 deleted'),
    renamed.line, toolResult(ctx(9, 5), renamed.id, 'Updated task #3 subject, status'),
    // A call that failed changes nothing.
    refused.line, toolResult(ctx(10, 5), refused.id, 'Task not found', true),
    // Claude Code reports task changes as attachments: #3 done, a task the calls never made, and one it cannot read.
    taskStatus(ctx(10, 20), { status: 'completed', taskId: '3' }),
    taskStatus(ctx(10, 30), { task_id: 9, description: 'Run the cart benchmarks', status: 'in_progress' }),
    taskStatus(ctx(10, 40), { status: 'completed' }),
    // Priced by the table: Sonnet 4.5, (1,000,000 × 3) / 1e6 = 3.00 at 09:11 and (200,000 × 15) / 1e6 = 3.00 at 09:12.
    modelAnswer(ctx(11), 'claude-sonnet-4-5', 'msg_1', { input_tokens: 1_000_000 }),
    modelAnswer(ctx(12), 'claude-sonnet-4-5', 'msg_2', { output_tokens: 200_000 }),
    // The session's own total says 9.00: each answer counts 9 × 3 / 6 = 4.50.
    JSON.stringify({ type: 'cost-state', totalCostUSD: 9, totalLinesAdded: 10, totalLinesRemoved: 2, modelUsage: {}, sessionId: SESSION, timestamp: at(13) }),
  ]);
  // Another session with no cost-state line: the table's price, (100,000 × 3) / 1e6 = 0.30.
  await home.session(repo, OTHER, [], [
    prompt(ctx(20, 0, OTHER), 'Another question'),
    modelAnswer(ctx(21, 0, OTHER), 'claude-sonnet-4-5', 'msg_3', { input_tokens: 100_000 }),
  ]);
  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('a plan worked through the task tools', () => {
  it('lists the tasks as they ended: created, updated, renamed, a deleted one gone, a failed update ignored, attachments applied', async () => {
    const outcome = await server.json<PlanOutcome>('/api/plans/cart-rework-quiet-elk.md/outcome');
    expect(outcome.tasks).toEqual([
      { content: 'Split the cart store', status: 'completed' },
      { content: 'Write the upgrade note', status: 'completed' },
      { content: 'Run the cart benchmarks', status: 'in_progress' },
    ]);
    expect(outcome.steps.map((s) => [s.status, s.evidence])).toEqual([['done', ['task “Split the cart store”: completed']]]);
  });
});

describe('a session that states its own total', () => {
  it('counts that total in the costs, spread over its answers as their prices are', async () => {
    const byDay = await server.json<{ rows: { key: string; costUsd: number }[]; totalUsd: number }>('/api/costs?by=day');
    // 9.00 for the first session, 0.30 for the other.
    expect(byDay.rows.map((r) => [r.key, Number(r.costUsd.toFixed(6))])).toEqual([['2026-11-12', 9.3]]);
    expect(byDay.totalUsd).toBeCloseTo(9.3, 9);
    const early = await server.json<{ rows: { costUsd: number }[] }>(`/api/costs?by=day&before=${encodeURIComponent(at(11, 30))}`);
    expect(early.rows.map((r) => Number(r.costUsd.toFixed(6)))).toEqual([4.5]);
  });
});

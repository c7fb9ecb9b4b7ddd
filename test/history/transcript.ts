// Session-log lines in the shapes Claude Code writes for plans (docs/claude-code-formats.md): tool calls of
// Write, Edit, MultiEdit and ExitPlanMode, their results, model answers with usage, plan-mode attachments,
// and metadata lines.
import { randomUUID } from 'node:crypto';

export interface LineContext {
  cwd: string;
  sessionId: string;
  slug?: string;
  agentId?: string;
  /** ISO timestamp of the line. */
  at: string;
}

function tail(ctx: LineContext, type: string): Record<string, unknown> {
  return {
    uuid: randomUUID(),
    timestamp: ctx.at,
    ...(ctx.agentId ? { agentId: ctx.agentId } : {}),
    userType: 'external',
    entrypoint: 'cli',
    cwd: ctx.cwd,
    sessionId: ctx.sessionId,
    version: '2.1.329',
    gitBranch: 'main',
    ...(ctx.slug ? { slug: ctx.slug } : {}),
    type,
  };
}

function conversation(ctx: LineContext, type: 'user' | 'assistant', message: Record<string, unknown>): string {
  // Claude Code's key order: parentUuid, isSidechain, (userType/cwd... at the end); type before message.
  const t = tail(ctx, type);
  const { type: _t, ...rest } = t;
  return JSON.stringify({ parentUuid: null, isSidechain: Boolean(ctx.agentId), type, message, ...rest });
}

export function toolUse(ctx: LineContext, name: string, input: Record<string, unknown>, id = `toolu_${randomUUID().replace(/-/g, '').slice(0, 24)}`): { line: string; id: string } {
  const message = {
    model: 'claude-opus-4-5', id: `msg_${randomUUID()}`, type: 'message', role: 'assistant',
    content: [{ type: 'text', text: 'Writing the plan.' }, { type: 'tool_use', id, name, input }],
    stop_reason: 'tool_use',
  };
  return { line: conversation(ctx, 'assistant', message), id };
}

export function write(ctx: LineContext, filePath: string, content: string): string {
  return toolUse(ctx, 'Write', { file_path: filePath, content }).line;
}

export function edit(ctx: LineContext, filePath: string, oldString: string, newString: string, replaceAll = false): string {
  return toolUse(ctx, 'Edit', { file_path: filePath, old_string: oldString, new_string: newString, ...(replaceAll ? { replace_all: true } : {}) }).line;
}

export function multiEdit(ctx: LineContext, filePath: string, edits: { old_string: string; new_string: string; replace_all?: boolean }[]): string {
  return toolUse(ctx, 'MultiEdit', { file_path: filePath, edits }).line;
}

export function exitPlanMode(ctx: LineContext): { line: string; id: string } {
  return toolUse(ctx, 'ExitPlanMode', { allowedPrompts: [] });
}

export function toolResult(ctx: LineContext, toolUseId: string, content: string, isError = false): string {
  return conversation(ctx, 'user', { role: 'user', content: [{ tool_use_id: toolUseId, type: 'tool_result', content, is_error: isError }] });
}

/** A line with a `toolUseResult` sidecar added (the result lines of Write/Edit, of TaskCreate, ...). */
export function withSidecar(line: string, sidecar: Record<string, unknown>): string {
  return JSON.stringify({ ...(JSON.parse(line) as Record<string, unknown>), toolUseResult: sidecar });
}

/** An assistant line of the model answer `id` with its token usage (one line per content block in real logs). */
export function modelAnswer(ctx: LineContext, model: string, id: string, usage: Record<string, number>): string {
  return conversation(ctx, 'assistant', { model, id, type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done.' }], usage });
}

export function prompt(ctx: LineContext, text: string): string {
  return conversation(ctx, 'user', { role: 'user', content: text });
}

export function planModeAttachment(ctx: LineContext, kind: 'plan_mode' | 'plan_mode_exit' | 'plan_mode_reentry', planFilePath: string): string {
  const t = tail(ctx, 'attachment');
  const { type: _t, ...rest } = t;
  return JSON.stringify({
    parentUuid: null, isSidechain: false, type: 'attachment',
    attachment: { type: kind, reminderType: 'full', isSubAgent: false, planFilePath, planExists: true }, ...rest,
  });
}

export const meta = {
  aiTitle: (sessionId: string, title: string) => JSON.stringify({ type: 'ai-title', aiTitle: title, sessionId }),
  customTitle: (sessionId: string, title: string) => JSON.stringify({ type: 'custom-title', customTitle: title, sessionId }),
  summary: (title: string) => JSON.stringify({ type: 'summary', summary: title, leafUuid: randomUUID() }),
  lastPrompt: (sessionId: string, text: string) => JSON.stringify({ type: 'last-prompt', lastPrompt: text, sessionId }),
  cost: (sessionId: string, usd: number, added: number, removed: number) =>
    JSON.stringify({ type: 'cost-state', totalCostUSD: usd, totalLinesAdded: added, totalLinesRemoved: removed, modelUsage: {}, sessionId }),
};

export const APPROVED = 'User has approved your plan. You can now start coding.';
export const rejected = (words: string) => `The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\n${words}`;

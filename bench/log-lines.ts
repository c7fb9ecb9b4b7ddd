// Session-log lines in Claude Code's JSON Lines format (conversation, metadata, plan-mode attachment), and
// the runner's helpers that write extra lines into a log.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileWriter } from './file-writer.js';
import { FillerPool } from './filler-pool.js';
import type { EditInput, StoryStep } from './plan-story.js';
import { Rng } from './rng.js';
import { THING } from './vocabulary.js';

export interface LineContext {
  cwd: string;
  sessionId: string;
  slug: string | null;
  agentId: string | null;
  time: number;
  parent: string | null;
}

export const MB = 1024 * 1024;
export const HUGE_MIN = 256 * 1024;
export const HUGE_MAX = 4 * MB;

/** The common tail of conversation lines, in the order Claude Code writes it. */
export function tail(rng: Rng, ctx: LineContext): string {
  const uuid = rng.uuid();
  ctx.parent = uuid;
  ctx.time += rng.int(50, 40_000);
  return `,"uuid":"${uuid}","timestamp":"${new Date(ctx.time).toISOString()}"` +
    (ctx.agentId ? `,"agentId":"${ctx.agentId}"` : '') +
    `,"userType":"external","entrypoint":"cli","cwd":${JSON.stringify(ctx.cwd)},"sessionId":"${ctx.sessionId}"` +
    `,"version":"2.1.329","gitBranch":"main"` + (ctx.slug ? `,"slug":"${ctx.slug}"` : '') + '}\n';
}

export function head(ctx: LineContext): string {
  return `{"parentUuid":${ctx.parent ? `"${ctx.parent}"` : 'null'},"isSidechain":${ctx.agentId ? 'true' : 'false'}`;
}

export class LineFactory {
  hugeLines = 0;
  hugeBytes = 0;
  lines = 0;
  torn = 0;

  constructor(private readonly rng: Rng, private readonly pool: FillerPool, private readonly hugeShare: number) {}

  /** One conversation line (maybe huge, maybe torn) within `remaining` bytes of budget; returns bytes written. */
  conversation(w: FileWriter, ctx: LineContext, remaining: number): void {
    const rng = this.rng;
    this.lines++;
    if (remaining >= HUGE_MIN && rng.chance(this.hugeShare)) {
      const len = Math.min(rng.logUniform(HUGE_MIN, HUGE_MAX), remaining);
      const before = w.written;
      this.toolResult(w, ctx, len);
      this.hugeLines++;
      this.hugeBytes += w.written - before;
      return;
    }
    const r = rng.next();
    // Keep normal lines inside the file's budget so the total lands close to the requested volume.
    const cap = (n: number): number => Math.max(40, Math.min(n, remaining - 700));
    if (r < 0.15) {
      this.write(w, ctx, `${head(ctx)},"type":"user","message":{"role":"user","content":"`, cap(rng.logUniform(40, 3000)), '"}');
    } else if (r < 0.5) {
      this.write(w, ctx, `${head(ctx)},"message":{"id":"msg_01${rng.hex(22)}","type":"message","role":"assistant",` +
        `"model":"claude-opus-4-5","content":[{"type":"text","text":"`, cap(rng.logUniform(80, 6000)),
      `"}],"stop_reason":null,"usage":{"input_tokens":${rng.int(3, 9000)},"output_tokens":${rng.int(1, 4000)}}},` +
        `"requestId":"req_011${rng.hex(20)}","type":"assistant"`);
    } else if (r < 0.68) {
      const tool = rng.pick(['Read', 'Bash', 'Grep', 'Edit', 'Glob']);
      const input = tool === 'Bash' ? `{"command":"npm test -- ${rng.pick(THING)}","description":"run tests"}`
        : `{"file_path":${JSON.stringify(`${ctx.cwd}/src/${rng.pick(THING)}.ts`)}}`;
      w.write(`${head(ctx)},"message":{"id":"msg_01${rng.hex(22)}","type":"message","role":"assistant",` +
        `"model":"claude-opus-4-5","content":[{"type":"tool_use","id":"toolu_01${rng.hex(22)}","name":"${tool}",` +
        `"input":${input}}],"stop_reason":"tool_use"},"type":"assistant"` + tail(rng, ctx));
    } else if (r < 0.95) {
      this.toolResult(w, ctx, cap(rng.logUniform(300, 60_000)));
    } else {
      w.write(`${head(ctx)},"type":"progress","data":{"type":"hook_progress","hookEvent":"PostToolUse",` +
        `"hookName":"PostToolUse:Edit"},"toolUseID":"toolu_01${rng.hex(22)}","parentToolUseID":"toolu_01${rng.hex(22)}"` +
        tail(rng, ctx));
    }
  }

  private toolResult(w: FileWriter, ctx: LineContext, len: number): void {
    this.write(w, ctx, `${head(ctx)},"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01` +
      `${this.rng.hex(22)}","type":"tool_result","content":"`, len,
    '","is_error":false}]},"toolUseResult":{"stderr":"","interrupted":false,"isImage":false}');
  }

  private write(w: FileWriter, ctx: LineContext, prefix: string, len: number, suffix: string): void {
    const fill = this.pool.slice(this.rng, len);
    // A torn line: Claude Code died mid-write; the next line starts on a fresh line.
    if (len < HUGE_MIN && this.rng.chance(1 / 4000)) {
      this.torn++;
      w.write(prefix);
      w.write(fill.subarray(0, Math.floor(fill.length / 2)));
      w.write('\n');
      return;
    }
    w.write(prefix);
    w.write(fill);
    w.write(suffix + tail(this.rng, ctx));
  }

  planModeAttachment(w: FileWriter, ctx: LineContext, planFile: string): void {
    w.write(`{"type":"permission-mode","permissionMode":"plan","sessionId":"${ctx.sessionId}"}\n`);
    w.write(`${head(ctx)},"type":"attachment","attachment":{"type":"plan_mode","reminderType":"full",` +
      `"isSubAgent":false,"planFilePath":${JSON.stringify(planFile)},"planExists":false}` + tail(this.rng, ctx));
    this.lines += 2;
  }

  /** Claude Code's attachment when plan mode ends (after an approved ExitPlanMode). */
  planModeExitAttachment(w: FileWriter, ctx: LineContext, planFile: string): void {
    w.write(`${head(ctx)},"type":"attachment","attachment":{"type":"plan_mode_exit","planFilePath":${JSON.stringify(planFile)},` +
      `"planExists":true}` + tail(this.rng, ctx));
    this.lines++;
  }

  /** One step of a plan's story (plan-story.ts) on `planFile`: the tool call and its result, as Claude Code writes them. */
  storyStep(w: FileWriter, ctx: LineContext, planFile: string, step: StoryStep): void {
    const path = planFile;
    switch (step.kind) {
      case 'write':
        this.toolCall(w, ctx, 'Write', { file_path: path, content: step.content }, {
          content: step.before === null ? `File created successfully at: ${path}` : `The file ${path} has been updated.`, isError: false,
          toolUseResult: {
            type: step.before === null ? 'create' : 'update', filePath: path, content: step.content, structuredPatch: [],
            originalFile: step.before, userModified: false,
          },
        });
        return;
      case 'edit':
        this.toolCall(w, ctx, 'Edit', { file_path: path, ...step.edit }, {
          content: `The file ${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
            numbered(step.edit.new_string), isError: false,
          toolUseResult: {
            filePath: path, oldString: step.edit.old_string, newString: step.edit.new_string, originalFile: step.before,
            structuredPatch: [patchOf(step.before, step.edit)], userModified: false, replaceAll: step.edit.replace_all === true,
          },
        });
        return;
      case 'multi':
        this.toolCall(w, ctx, 'MultiEdit', { file_path: path, edits: step.edits }, {
          content: `Applied ${step.edits.length} edits to ${path}:\n` +
            step.edits.map((e, i) => `${i + 1}. Replaced "${e.old_string.slice(0, 40)}..." with "${e.new_string.slice(0, 40)}..."`).join('\n'),
          isError: false,
          toolUseResult: { filePath: path, edits: step.edits, originalFileContents: step.before, structuredPatch: [], userModified: false },
        });
        return;
      case 'gap': {
        const error = `String to replace not found in file.\nString: ${step.edit.old_string}`;
        this.toolCall(w, ctx, 'Edit', { file_path: path, ...step.edit }, {
          content: `<tool_use_error>${error}</tool_use_error>`, isError: true, toolUseResult: `Error: ${error}`,
        });
        return;
      }
      case 'exit':
        this.toolCall(w, ctx, 'ExitPlanMode', { allowedPrompts: [] }, step.approved
          ? { content: `User has approved your plan. You can now start coding. Start with updating your todo list if applicable\n\n` +
              `Your plan has been saved to: ${path}\nYou can refer back to it if needed during implementation.`, isError: false, toolUseResult: null }
          : {
            content: step.feedback === null
              ? 'The user doesn\'t want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.'
              : `The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\n${step.feedback}`,
            isError: true, toolUseResult: null,
          });
    }
  }

  /** A tool_use block in an assistant line, then its tool_result in a user line (with `toolUseResult` unless null). */
  toolCall(w: FileWriter, ctx: LineContext, name: string, input: unknown, result: { content: string; isError: boolean; toolUseResult: unknown }): void {
    const rng = this.rng;
    const id = `toolu_01${rng.hex(22)}`;
    w.write(`${head(ctx)},"message":{"id":"msg_01${rng.hex(22)}","type":"message","role":"assistant","model":"claude-opus-4-5",` +
      `"content":[{"type":"text","text":"${rng.pick(['Let me write the plan.', 'Updating the plan.', 'I will revise the plan.', 'The plan is ready.'])}"},` +
      `{"type":"tool_use","id":"${id}","name":"${name}","input":${JSON.stringify(input)}}],"stop_reason":"tool_use",` +
      `"usage":{"input_tokens":${rng.int(3, 9000)},"output_tokens":${rng.int(1, 4000)}}},"requestId":"req_011${rng.hex(20)}","type":"assistant"` +
      tail(rng, ctx));
    w.write(`${head(ctx)},"type":"user","message":{"role":"user","content":[{"tool_use_id":"${id}","type":"tool_result",` +
      `"content":${JSON.stringify(result.content)},"is_error":${result.isError}}]}` +
      (result.toolUseResult === null ? '' : `,"toolUseResult":${JSON.stringify(result.toolUseResult)}`) + tail(rng, ctx));
    this.lines += 2;
  }

  metadata(w: FileWriter, ctx: LineContext, kind: 'start' | 'resume' | 'end', title: string): void {
    const rng = this.rng;
    if (kind === 'start') {
      w.write(`{"type":"permission-mode","permissionMode":"default","sessionId":"${ctx.sessionId}"}\n`);
      w.write(`{"type":"file-history-snapshot","messageId":"${rng.uuid()}","snapshot":{"messageId":"${rng.uuid()}",` +
        `"trackedFileBackups":{},"timestamp":"${new Date(ctx.time).toISOString()}"},"isSnapshotUpdate":false}\n`);
      this.lines += 2;
    } else if (kind === 'resume') {
      w.write(`{"type":"last-prompt","lastPrompt":${JSON.stringify(title.toLowerCase())},"sessionId":"${ctx.sessionId}"}\n`);
      w.write(`{"type":"permission-mode","permissionMode":"default","sessionId":"${ctx.sessionId}"}\n`);
      this.lines += 2;
    } else {
      w.write(`{"type":"ai-title","aiTitle":${JSON.stringify(title)},"sessionId":"${ctx.sessionId}"}\n`);
      w.write(`{"type":"last-prompt","lastPrompt":${JSON.stringify(title.toLowerCase())},"sessionId":"${ctx.sessionId}"}\n`);
      w.write(`{"type":"summary","summary":${JSON.stringify(title)},"leafUuid":"${ctx.parent ?? rng.uuid()}"}\n`);
      this.lines += 3;
    }
  }
}

/** `cat -n` of a few lines. */
function numbered(text: string): string {
  return text.split('\n').slice(0, 6).map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n');
}

/** The hunk of an edit's first replacement, as Claude Code's structuredPatch gives it. */
function patchOf(before: string, edit: EditInput): { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] } {
  const at = before.indexOf(edit.old_string);
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1 && i < at; i = before.indexOf('\n', i + 1)) line++;
  const oldLines = edit.old_string.split('\n');
  const newLines = edit.new_string.split('\n');
  return {
    oldStart: line, oldLines: oldLines.length, newStart: line, newLines: newLines.length,
    lines: [...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`)],
  };
}

/** Builds one extra log line (for the runner's append tests), in the same format. */
export function conversationLine(rng: Rng, ctx: LineContext, text: string): string {
  return `${head(ctx)},"type":"user","message":{"role":"user","content":${JSON.stringify(text)}}` + tail(rng, ctx);
}

/**
 * Writes `bytes` of realistic log lines (normal and one big tool output) for ctx to an open file, ending with a line
 * whose slug is `finalSlug`. Used by the runner to build the 200 MB log and the 1 MB appends.
 */
export function writeLogChunk(file: string, opts: {
  seed: number; ctx: LineContext; bytes: number; hugeShare: number; finalSlug: string | null; append: boolean;
}): number {
  const rng = new Rng(opts.seed);
  const pool = new FillerPool(rng, Math.max(2 * MB, Math.min(10 * MB, opts.bytes + MB)));
  const lines = new LineFactory(rng, pool, opts.hugeShare);
  const w = new FileWriter(file, Buffer.allocUnsafe(4 * MB), opts.append ? 'a' : 'w');
  const lastLineRoom = 2048;
  while (w.written < opts.bytes - lastLineRoom) lines.conversation(w, opts.ctx, opts.bytes - lastLineRoom - w.written);
  if (opts.finalSlug) opts.ctx.slug = opts.finalSlug;
  w.write(conversationLine(rng, opts.ctx, 'Now write the plan.'));
  w.close();
  return w.written;
}

/** The huge-line share of the 1 MB the append tests add (on the server and in process): one big tool output among a few lines. */
export const APPEND_HUGE_SHARE = 0.3;

/** writeLogChunk()'s lines as bytes, to append later (written through a temp file, then removed). */
export function logChunkBytes(opts: { seed: number; ctx: LineContext; bytes: number; hugeShare: number; finalSlug: string | null }): Buffer {
  const tmp = path.join(os.tmpdir(), `pmv-bench-chunk-${process.pid}.jsonl`);
  try {
    writeLogChunk(tmp, { ...opts, append: false });
    return fs.readFileSync(tmp);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

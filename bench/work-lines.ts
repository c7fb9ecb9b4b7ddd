// The work a session does after its plan is approved, as Claude Code logs it: a todo list, edits of the
// project's files (with the sidecars Claude Code writes), a failing then passing test run, a commit, sometimes
// a pull request, and the turn's duration. What the outcome endpoint reads on the heavy home.

import type { FileWriter } from './file-writer.js';
import { head, tail, type LineContext, type LineFactory } from './log-lines.js';
import type { Rng } from './rng.js';
import { PKG, THING, VERB } from './vocabulary.js';

/** Writes one approved plan's work into the log at `w` (counted in `lines.lines`). */
export function writeWorkAfterApproval(lines: LineFactory, rng: Rng, w: FileWriter, ctx: LineContext): void {
  const todos = Array.from({ length: rng.int(3, 6) }, () => `${rng.pick(VERB)} ${rng.pick(THING)}`);
  const todoList = (done: number) => todos.map((content, i) => ({
    content, activeForm: content, status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
  }));
  lines.toolCall(w, ctx, 'TodoWrite', { todos: todoList(0) }, { content: 'Todos have been modified successfully.', isError: false, toolUseResult: null });
  const files = Array.from({ length: rng.int(2, 6) }, () => `${ctx.cwd}/src/${rng.pick(PKG)}/${rng.pick(THING)}.ts`);
  for (const file of files) {
    const before = `export function ${rng.pick(THING).replace(/-/g, '_')}() {\n  return ${rng.int(1, 99)};\n}\n`;
    const oldLine = before.split('\n')[1]!;
    const newLine = `  return ${rng.int(100, 999)};`;
    lines.toolCall(w, ctx, 'Edit', { file_path: file, old_string: oldLine, new_string: newLine }, {
      content: `The file ${file} has been updated.`, isError: false,
      toolUseResult: {
        filePath: file, oldString: oldLine, newString: newLine, originalFile: before, userModified: false, replaceAll: false,
        structuredPatch: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, lines: [`-${oldLine}`, `+${newLine}`] }],
      },
    });
  }
  const created = `${ctx.cwd}/src/${rng.pick(PKG)}/${rng.pick(THING)}.test.ts`;
  lines.toolCall(w, ctx, 'Write', { file_path: created, content: 'import { test } from "vitest";\ntest("works", () => {});\n' }, {
    content: `File created successfully at: ${created}`, isError: false, toolUseResult: null,
  });
  lines.toolCall(w, ctx, 'Bash', { command: 'npm test', description: 'Run the tests' }, {
    content: 'FAIL src/core/login.test.ts\n  1 failed, 12 passed', isError: true, toolUseResult: null,
  });
  lines.toolCall(w, ctx, 'Bash', { command: 'npm test', description: 'Run the tests again' }, {
    content: 'Test Files  4 passed (4)\n     Tests  13 passed (13)', isError: false, toolUseResult: null,
  });
  lines.toolCall(w, ctx, 'TodoWrite', { todos: todoList(todos.length) }, { content: 'Todos have been modified successfully.', isError: false, toolUseResult: null });
  lines.toolCall(w, ctx, 'Bash', { command: `git add -A && git commit -m "${rng.pick(VERB)} ${rng.pick(THING)}"` }, {
    content: `[main ${rng.hex(7)}] commit\n ${files.length + 1} files changed`, isError: false, toolUseResult: null,
  });
  if (rng.chance(0.3)) {
    const n = rng.int(1, 4000);
    w.write(`{"type":"pr-link","prNumber":${n},"prUrl":"https://github.com/acme/app/pull/${n}","prRepository":"acme/app","sessionId":"${ctx.sessionId}","timestamp":"${new Date(ctx.time).toISOString()}"}\n`);
    lines.lines++;
  }
  w.write(`${head(ctx)},"type":"system","subtype":"turn_duration","durationMs":${rng.int(20_000, 900_000)},"isMeta":false` + tail(rng, ctx));
  lines.lines++;
}

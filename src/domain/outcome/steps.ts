// The plan against the work: each step of the plan (its numbered, bulleted and checklist items) matched to
// evidence in the work after its approval. A heuristic, kept simple enough to explain in the UI: a step
// that names files is done when they were all changed, partly when some were; a step that matches a task
// (two words or more, and most of the shorter text's) follows the task's state; a step naming a command follows that command's runs.
// Nothing but the texts at hand is used: no model, nothing leaves the machine.

export type StepStatus = 'done' | 'partly' | 'no-evidence';

export interface PlanStep {
  line: number;
  text: string;
  status: StepStatus;
  evidence: string[];
}

export interface WorkEvidence {
  files: readonly string[];
  commands: readonly { command: string; failed: boolean | null; kind: string }[];
  tasks: readonly { content: string; status: string }[];
}

const MAX_STEPS = 200;
const ITEM = /^ {0,3}(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/;
const FENCE = /^ {0,3}(```|~~~)/;
/** A file a step names: a path with a folder or an extension, backticked or not. */
const FILE_TOKEN = /[\w@.-]*[\w-]\/[\w@./-]*[\w-]|[\w-]+\.(?:[a-z]{1,5})\b/gi;
const CODE = /`([^`\n]{2,200})`/g;
const WORD = /[\p{L}\p{N}]{4,}/gu;

/** The plan's steps: its list items outside code blocks, as written. */
export function planSteps(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length && out.length < MAX_STEPS; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) continue;
    const item = ITEM.exec(line);
    if (item) out.push({ line: i + 1, text: item[1]!.trim() });
  }
  return out;
}

/** Whether `file` (a changed file's path) is the one `token` names. */
function names(token: string, file: string): boolean {
  const t = token.replace(/^\.?\//, '');
  return file === t || file.endsWith(`/${t}`);
}

function words(text: string): Set<string> {
  return new Set([...text.toLowerCase().matchAll(WORD)].map((m) => m[0]));
}

export function matchSteps(markdown: string, work: WorkEvidence): PlanStep[] {
  return planSteps(markdown).map(({ line, text }) => {
    const evidence: string[] = [];
    let done = 0;
    let wanted = 0;
    let partial = false;
    const tokens = [...new Set([...text.matchAll(FILE_TOKEN)].map((m) => m[0]).filter((t) => !/^\d/.test(t) && !/^https?:/i.test(t)))];
    for (const token of tokens) {
      const hit = work.files.find((f) => names(token, f));
      // A token no changed file ends with may be a word like "e.g.": only counted when something matched.
      if (hit !== undefined) {
        wanted++;
        done++;
        evidence.push(`changed ${hit}`);
      } else if (token.includes('/') || /\.(?:tsx?|jsx?|css|md|json|ya?ml|py|go|rs|java|rb|sql|html|sh|toml)$/i.test(token)) {
        wanted++;
      }
    }
    for (const [, code] of text.matchAll(CODE)) {
      const runs = work.commands.filter((c) => c.command.includes(code!));
      if (runs.length === 0) continue;
      const last = runs.at(-1)!;
      wanted++;
      if (last.failed === false) done++;
      else partial = true;
      evidence.push(`ran ${code} (${runs.length}×, last ${last.failed === false ? 'passed' : last.failed === true ? 'failed' : 'no result'})`);
    }
    const own = words(text);
    if (own.size >= 2) {
      for (const task of work.tasks) {
        const theirs = words(task.content);
        const shared = [...own].filter((w) => theirs.has(w)).length;
        if (shared < 2 || shared / Math.min(own.size, theirs.size) < 0.6) continue;
        wanted++;
        if (task.status === 'completed') done++;
        else partial = true;
        evidence.push(`task “${task.content}”: ${task.status}`);
      }
    }
    const status: StepStatus = wanted > 0 && done === wanted && !partial ? 'done' : done > 0 || partial ? 'partly' : 'no-evidence';
    return { line, text, status, evidence };
  });
}

/** Changed files the plan never names (by path or by file name). */
export function unplannedFiles(markdown: string, files: readonly string[], planPath: string | null): string[] {
  const lower = markdown.toLowerCase();
  return files.filter((f) => {
    if (planPath !== null && f === planPath) return false;
    const base = f.split('/').pop()!.toLowerCase();
    return !lower.includes(base);
  });
}

/** What the plan asks to verify (tests, a build), by its words. */
export function askedVerification(markdown: string): { test: boolean; build: boolean } {
  return {
    test: /\b(?:tests?|testing|vitest|jest|pytest|playwright|e2e)\b/i.test(markdown),
    build: /\b(?:build|tsc|typecheck|compile)\b/i.test(markdown),
  };
}

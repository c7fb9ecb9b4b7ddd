// A task list's final states, from the calls that wrote it in the work's windows, in time order: a
// TodoWrite replaces the whole list; TaskCreate adds a task (its id from the result's `toolUseResult.task.id`,
// else the result's "Task #N"); TaskUpdate changes one task's status or subject, and "deleted" removes it; a
// `task_status` attachment (Claude Code reporting a task's change) does as a TaskUpdate, or adds the task it
// names when the list does not hold it yet. Its shape is not documented: it is read tolerantly (`taskId`,
// `task_id` or `id`; `status`; `subject`, `description`, `content` or `title`); one it cannot read changes nothing.
import type { PlanOutcome } from '../../contract/outcome.js';
import { readLineJsonAt } from '../transcripts/lineReads.js';
import { resultText } from '../transcripts/sessionTranscript.js';
import { TASK_STATUS, type WorkCall } from '../transcripts/extractors/work.js';
import { callInput, isObject, resultLine, type Json } from './callDetails.js';

export const TASK_TOOLS = new Set(['TodoWrite', 'TaskCreate', 'TaskUpdate', TASK_STATUS]);

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

interface Task {
  id: string | null;
  content: string;
  status: string;
}

/** `calls`: the task tools' calls of the windows with the log each sits in, oldest first. */
export function finalTasks(calls: readonly { file: string; call: WorkCall }[]): PlanOutcome['tasks'] {
  let tasks: Task[] = [];
  for (const { file, call } of calls) {
    if (call.error === true) continue;
    if (call.name === TASK_STATUS) {
      tasks = withStatus(tasks, attachmentOf(file, call));
      continue;
    }
    const input = callInput(file, call);
    if (input === null) continue;
    if (call.name === 'TodoWrite') {
      tasks = todoList(input.todos);
    } else if (call.name === 'TaskCreate') {
      const subject = typeof input.subject === 'string' ? input.subject : typeof input.description === 'string' ? input.description : null;
      if (subject !== null) tasks.push({ id: createdId(file, call), content: clip(subject, 500), status: 'pending' });
    } else if (call.name === 'TaskUpdate') {
      const id = typeof input.taskId === 'string' || typeof input.taskId === 'number' ? String(input.taskId) : null;
      const task = id === null ? undefined : tasks.find((t) => t.id === id);
      if (task === undefined) continue;
      if (input.status === 'deleted') tasks = tasks.filter((t) => t !== task);
      else if (typeof input.status === 'string') task.status = clip(input.status, 40);
      if (typeof input.subject === 'string') task.content = clip(input.subject, 500);
    }
  }
  return tasks.map(({ content, status }) => ({ content, status }));
}

function todoList(list: unknown): Task[] {
  if (!Array.isArray(list)) return [];
  const out: Task[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const { content, status, id } = item;
    if (typeof content === 'string' && typeof status === 'string') out.push({ id: typeof id === 'string' ? id : null, content: clip(content, 500), status: clip(status, 40) });
  }
  return out;
}

/** The id Claude Code gave a created task: its result's sidecar, else "Task #N" in the result's text. */
function createdId(file: string, call: WorkCall): string | null {
  const line = resultLine(file, call);
  if (line === null) return null;
  const sidecar = isObject(line.toolUseResult) && isObject(line.toolUseResult.task) ? line.toolUseResult.task.id : undefined;
  if (typeof sidecar === 'string' || typeof sidecar === 'number') return String(sidecar);
  const content = isObject(line.message) ? line.message.content : null;
  for (const item of Array.isArray(content) ? content : []) {
    if (!isObject(item) || item.type !== 'tool_result' || item.tool_use_id !== call.id) continue;
    const found = /Task #(\w+)/.exec(resultText(item.content));
    if (found !== null) return found[1]!;
  }
  return null;
}

/** The attachment a `task_status` line holds, or null. */
function attachmentOf(file: string, call: WorkCall): Json | null {
  const line = readLineJsonAt(file, call.line.start, call.line.end);
  return isObject(line) && isObject(line.attachment) ? line.attachment : null;
}

function withStatus(tasks: Task[], attachment: Json | null): Task[] {
  if (attachment === null) return tasks;
  const rawId = attachment.taskId ?? attachment.task_id ?? attachment.id;
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : null;
  const status = typeof attachment.status === 'string' ? clip(attachment.status, 40) : null;
  const subject = [attachment.subject, attachment.description, attachment.content, attachment.title].find((v): v is string => typeof v === 'string' && v !== '');
  const task = id === null ? undefined : tasks.find((t) => t.id === id);
  if (task === undefined) {
    return subject === undefined || status === 'deleted' ? tasks : [...tasks, { id, content: clip(subject, 500), status: status ?? 'pending' }];
  }
  if (status === 'deleted') return tasks.filter((t) => t !== task);
  if (status !== null) task.status = status;
  if (subject !== undefined) task.content = clip(subject, 500);
  return tasks;
}

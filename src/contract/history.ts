// The plan-history endpoints (extensions beyond interface 1.4.0): a plan's versions and plan-mode events,
// one version's text, the archive of plans that left the disk, and session cards. Same conventions as
// endpoints.ts: TypeBox schemas drive validation, the OpenAPI document and the types the domain and the
// UI import.
import {
  Array as TArray, Boolean as TBoolean, Integer, Literal, Number as TNumber, Object as TObject, Optional, String as TString, Union,
  type Static,
} from 'typebox';
import { NullableNumber, NullableString, textAnswer } from './schemaParts.js';
import { errors } from './endpoints.js';
import { RetentionSchema } from './retention.js';

const Type = { Array: TArray, Boolean: TBoolean, Integer, Literal, Number: TNumber, Object: TObject, String: TString, Union, Optional } as const;



export const PlanVersionSchema = Type.Object({
  id: Type.String({ description: 'Stable within a home: t… a tool call, a… a text a person approved, o… a content the viewer saw, d… the file on disk' }),
  at: NullableString('When this version was written (the tool call\'s timestamp, else the file\'s mtime)'),
  source: Type.Union([Type.Literal('write'), Type.Literal('edit'), Type.Literal('approved'), Type.Literal('observed'), Type.Literal('disk')], {
    description: 'write: a Write call (the whole text); edit: an Edit or MultiEdit applied to the version before; approved: the exact text a person approved in plan mode (ExitPlanMode\'s plan, its result\'s approved plan), when it differs from every other version; observed: a content the viewer saw of the file that no tool call explains; disk: the file now, when it is none of the others',
  }),
  sessionId: NullableString('The session that wrote it (tool calls only)'),
  agentId: NullableString('The subagent that wrote it, when a subagent did'),
  size: Type.Integer({ description: 'Bytes of its text (UTF-8)' }),
  lineCount: Type.Integer(),
  gapBefore: Type.Boolean({ description: 'Some change before it could not be rebuilt (an edit whose old text was not there, or a story starting with edits): the story resumes here' }),
}, { additionalProperties: false });

export const PlanEventSchema = Type.Object({
  at: NullableString('When it happened'),
  kind: Type.Union([Type.Literal('plan-mode-entered'), Type.Literal('plan-mode-exited'), Type.Literal('plan-approved'), Type.Literal('plan-rejected')]),
  sessionId: NullableString('The session it happened in'),
  feedback: NullableString('What the user typed when rejecting the plan, if anything'),
}, { additionalProperties: false });

export const ArchivedPlanSchema = Type.Object({
  filename: Type.String(),
  filepath: Type.String({ description: 'Where it was' }),
  title: Type.String({ description: 'The first heading of the last version the viewer kept; else the file name without .md' }),
  lastVersionAt: NullableString('When its last known version was written or seen'),
  deletedAt: NullableString('When the viewer found it gone, if it saw it go'),
  project: NullableString('Project of its session'),
  sessionId: NullableString('The session that last wrote it, else its slug\'s'),
}, { additionalProperties: false });

export const SessionCardSchema = Type.Object({
  sessionId: Type.String(),
  title: NullableString('The latest /rename, else its AI title, else its summary'),
  firstPrompt: NullableString('The first prompt the user typed in the session\'s own transcript (not a subagent\'s task, a slash command or its output)'),
  lastPrompt: NullableString('The last prompt the user typed (a last-prompt line, else the last typed prompt)'),
  gitBranch: NullableString('Git branch of its last line'),
  cwd: NullableString('The working directory the session started in (its project folder is named after it): where claude --resume finds it'),
  project: NullableString('Last path segment of cwd, or of the repository for a worktree (<repo>/.claude/worktrees/<name>)'),
  version: NullableString('Claude Code version of its last line'),
  entrypoint: NullableString('cli, claude-vscode, sdk-…'),
  firstAt: NullableString('The earliest timestamp of any of its lines (its subagents\' included)'),
  lastAt: NullableString('The latest timestamp of any of its lines (its subagents\' included)'),
  costUsd: NullableNumber('Total cost in USD, when a cost-state line says'),
  linesAdded: NullableNumber('Lines added, when a cost-state line says'),
  linesRemoved: NullableNumber('Lines removed, when a cost-state line says'),
  subagents: Type.Array(Type.Object({
    agentId: Type.String(),
    type: NullableString('agentType from its .meta.json'),
    description: NullableString('description from its .meta.json'),
    toolUseId: NullableString('The Task / Agent call that started it (toolUseId from its .meta.json): the session view nests its thread under that call'),
  }, { additionalProperties: false })),
  plans: Type.Array(Type.String(), { description: 'File names of listed plans it belongs to' }),
  unreadLines: Type.Integer({ description: 'Lines of its logs longer than the reader\'s per-line limit (32 MiB), whose facts are not known: when not 0, the card may miss what they hold' }),
  resumeCommand: Type.String({ description: 'cd <cwd> && claude --resume <sessionId>' }),
  source: Type.Optional(Type.Union([Type.Literal('transcript'), Type.Literal('prompt-history')], {
    description: 'transcript: the card comes from the session\'s logs; prompt-history: its transcript is gone (Claude Code\'s cleanup) and the card holds only what ~/.claude/history.jsonl tells (first and last prompt, times, cwd; the rest null or empty). Its prompts: GET /api/sessions/{sessionId}/prompts',
  })),
  promptCount: Type.Optional(Type.Integer({ description: 'Prompts history.jsonl holds of the session (prompt-history cards only)' })),
  kept: Type.Boolean({ description: 'true: the session\'s transcript is gone from disk (Claude Code\'s cleanup) and the viewer serves it, and everything derived from it, from the copy it kept under its cache dir (bounded by --history-limit); false otherwise' }),
}, { additionalProperties: false });

const PlanName = Type.Object({ filename: Type.String({ description: 'A plan file name, listed or archived' }) });

export const historyEndpoints = {
  history: {
    summary: 'A plan\'s versions and plan-mode events, oldest first (extension)',
    description: 'For plans listed by GET /api/plans and plans in GET /api/archive. Versions come from the transcripts\' Write/Edit/MultiEdit calls and the texts approved in plan mode, from contents the viewer saw, and from the file on disk; events from plan-mode attachments and ExitPlanMode answers. Answered once every log\'s facts are at hand (a request during the first scan, or while a restart restores them, waits), so a story is never built on part of them; `unreadLines` says whether a line was too long to read.',
    params: PlanName,
    response: {
      200: Type.Object({
        filename: Type.String(),
        versions: Type.Array(PlanVersionSchema),
        events: Type.Array(PlanEventSchema),
        sessions: Type.Array(Type.String(), { description: 'Every session of the plan: by its slug, by writing it, by plan mode naming it' }),
        unreadLines: Type.Integer({ description: 'Lines of these sessions\' logs longer than the reader\'s per-line limit (32 MiB), whose facts are not known: when not 0, versions or events they hold may be missing' }),
        retention: Type.Object({
          cleanupPeriodDays: Type.Number({ description: 'From the user settings (cleanupPeriodDays), else 30' }),
          deletesAt: NullableString('When Claude Code will delete the plan (its mtime plus the period); null for plans it does not delete (other folders, archived)'),
        }, { additionalProperties: false }),
      }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('No such plan, listed or archived', 'Plan not found'),
    },
  },
  version: {
    summary: 'The text of one version of a plan (extension)',
    description: 'A version that is the plan file on disk, when that file is large (over 1 MB), is read from the file and streamed, as GET /api/plans/{filename}/content is; the answer is the same JSON.',
    params: Type.Object({ filename: Type.String(), id: Type.String({ description: 'A version id from the plan\'s history' }) }),
    response: {
      200: Type.Object({ content: Type.String() }),
      400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('No such plan or version', 'Version not found'),
    },
  },
  archive: {
    summary: 'Plans no longer on disk whose versions are still readable (extension)',
    description: 'Newest first; one per file name. Not in GET /api/plans, which lists what is on disk.',
    response: { 200: Type.Object({ plans: Type.Array(ArchivedPlanSchema) }), 400: errors.badRequest, 403: errors.forbidden },
  },
  retention: {
    summary: 'What Claude Code will delete within a week, and what the viewer keeps of it (extension)',
    description: 'Claude Code deletes the plans of its shared plans folder and the session transcripts whose mtime is older than cleanupPeriodDays; a client computes a listed plan\'s deletion time from its `modified` when the plan is directly in `plansDir`. Plans in other folders (a project\'s plansDirectory) are not deleted. Waits for the transcripts to be read.',
    response: { 200: RetentionSchema, 400: errors.badRequest, 403: errors.forbidden },
  },
  restore: {
    summary: 'Restore an archived plan: its last version written back into its plans folder (extension)',
    description: 'Writes a new file under the plan\'s name in the folder it was in, never over an existing one. `versionId` is the last version\'s id as the client showed it: a newer one since answers 409. Refused (409) with --read-only, when the folder is gone, or when a file of that name is there again.',
    params: Type.Object({ filename: Type.String() }),
    body: Type.Object({ versionId: Type.String({ minLength: 1, maxLength: 200, description: 'The id of the archived plan\'s last version (GET /api/plans/{filename}/history)' }) }, { additionalProperties: false }),
    response: {
      200: Type.Object({ filename: Type.String(), filepath: Type.String({ description: 'Where the plan was written' }) }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden,
      404: textAnswer('No archived plan of that name', 'Plan not found in the archive'),
      409: textAnswer('Not written, and why', 'retire-plan.md is on disk again: nothing was overwritten'),
    },
  },
  session: {
    summary: 'A session\'s card (extension)',
    params: Type.Object({ sessionId: Type.String() }),
    response: { 200: SessionCardSchema, 400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('Neither a log nor ~/.claude/history.jsonl names this session', 'Session not found') },
  },
} as const;

export type PlanVersion = Static<typeof PlanVersionSchema>;
export type PlanEvent = Static<typeof PlanEventSchema>;
export type ArchivedPlan = Static<typeof ArchivedPlanSchema>;
export type SessionCard = Static<typeof SessionCardSchema>;
export type PlanHistoryBody = Static<(typeof historyEndpoints)['history']['response'][200]>;
export type ArchiveBody = Static<(typeof historyEndpoints)['archive']['response'][200]>;
export type RetentionPolicy = Static<(typeof historyEndpoints)['retention']['response'][200]>;

// GET /api/plans/{filename}/outcome (extension): what happened after a plan was approved, from the
// transcripts: files changed, commands (tests, builds, commits), pull requests, tasks, time and tokens.
import {
  Array as TArray, Boolean as TBoolean, Integer, Literal, Number as TNumber, Object as TObject, String as TString, Union, type Static,
} from 'typebox';
import { NullableBoolean, NullableNumber, NullableString, textAnswer } from './schemaParts.js';
import { errors } from './endpoints.js';

const Type = { Array: TArray, Boolean: TBoolean, Integer, Literal, Number: TNumber, Object: TObject, String: TString, Union } as const;

const WorkWindowSchema = Type.Object({
  sessionId: Type.String(),
  approvedAt: Type.String({ description: 'When the plan was approved: the work counted starts here' }),
  endedAt: NullableString('When the session moved on (a later ExitPlanMode or plan mode entered), null when the work runs to the end of the session'),
  lastWorkAt: NullableString('The last tool call, answer or turn counted'),
}, { additionalProperties: false });

const FileSchema = Type.Object({
  path: Type.String(),
  edits: Type.Integer({ description: 'Write, Edit, MultiEdit and NotebookEdit calls on it' }),
  added: Type.Integer({ description: 'Lines added: from the result\'s structuredPatch when Claude Code wrote one, else a line diff of the call\'s input (and originalFile)' }),
  removed: Type.Integer(),
  userModified: Type.Boolean({ description: 'The person changed a proposed edit of it (userModified)' }),
  failed: Type.Integer({ description: 'Calls on it that answered an error (a refused or failed edit)' }),
}, { additionalProperties: false });

const CommandSchema = Type.Object({
  command: Type.String({ description: 'As run (cut at 2,000 characters)' }),
  at: NullableString('When it ran'),
  kind: Type.Union([Type.Literal('test'), Type.Literal('build'), Type.Literal('commit'), Type.Literal('other')], { description: 'By its text (a heuristic): a test run, a build, a git commit, or other' }),
  failed: NullableBoolean('Its result was an error (a non-zero exit); null when no result was written'),
  message: NullableString('A commit\'s message (first line)'),
  agentId: NullableString('The subagent that ran it'),
}, { additionalProperties: false });

const ModelUsageSchema = Type.Object({
  model: Type.String(),
  input: Type.Integer(), output: Type.Integer(), cacheRead: Type.Integer(), cacheWrite: Type.Integer(),
  costUsd: NullableNumber('Priced with the table of pricesAsOf; null for a model the table does not know'),
}, { additionalProperties: false });

export const PlanOutcomeSchema = Type.Object({
  filename: Type.String(),
  status: Type.Union([Type.Literal('not-approved'), Type.Literal('approved')], { description: 'approved: at least one approval in a transcript; the work may still be going on' }),
  windows: Type.Array(WorkWindowSchema, { description: 'One per approval, oldest first' }),
  files: Type.Array(FileSchema, { description: 'Files written or edited in the windows, most lines changed first' }),
  commands: Type.Array(CommandSchema, { description: 'Shell commands run in the windows, in order' }),
  tests: Type.Object({ runs: Type.Integer(), failed: Type.Integer(), lastPassed: NullableBoolean('Whether the last test run passed; null when none ran') }, { additionalProperties: false }),
  builds: Type.Object({ runs: Type.Integer(), failed: Type.Integer(), lastPassed: NullableBoolean('Whether the last build passed; null when none ran') }, { additionalProperties: false }),
  commits: Type.Array(Type.Object({ at: NullableString('When'), message: NullableString('First line of its message') }, { additionalProperties: false })),
  pullRequests: Type.Array(Type.Object({ url: Type.String(), number: NullableNumber('Its number'), at: NullableString('When') }, { additionalProperties: false })),
  tasks: Type.Array(Type.Object({ content: Type.String(), status: Type.String({ description: 'pending, in_progress, completed, or what the list said' }) }, { additionalProperties: false }), {
    description: 'The task list at the end of the windows: the last TodoWrite list, with the tasks TaskCreate added and TaskUpdate changed (deleted ones gone)',
  }),
  subagents: Type.Integer({ description: 'Subagents started (Task / Agent calls) in the windows' }),
  steps: Type.Array(Type.Object({
    line: Type.Integer({ description: '1-based line of the step in the plan' }),
    text: Type.String(),
    status: Type.Union([Type.Literal('done'), Type.Literal('partly'), Type.Literal('no-evidence')]),
    evidence: Type.Array(Type.String(), { description: 'Why: files changed that it names, commands it names that ran, tasks that match it' }),
  }, { additionalProperties: false }), {
    description: 'The plan\'s list items (numbered, bulleted, checklists) matched to the work: a heuristic over the texts (files the step names, commands it quotes, tasks sharing most of its words), never a model',
  }),
  unplannedFiles: Type.Array(Type.String(), { description: 'Changed files the plan never names' }),
  unverified: Type.Array(Type.String(), { description: 'Verification the plan asks for (tests, a build) that never ran or last failed, in words' }),
  time: Type.Object({
    wallMs: Type.Integer({ description: 'From each approval to its last work, summed over windows' }),
    activeMs: Type.Integer({ description: 'Turn durations (system turn_duration lines) in the windows' }),
    waitingMs: Type.Integer({ description: 'wallMs - activeMs (never below 0): time the session waited on the person or stood idle' }),
  }, { additionalProperties: false }),
  tokens: Type.Object({
    byModel: Type.Array(ModelUsageSchema),
    costUsd: Type.Number({ description: 'Sum of the priced models' }),
    unpricedTokens: Type.Integer({ description: 'Tokens of models the price table does not know (not in costUsd)' }),
    pricesAsOf: Type.String({ description: 'Date of the price table (Anthropic\'s published API prices)' }),
  }, { additionalProperties: false }),
}, { additionalProperties: false });

export const outcomeEndpoints = {
  outcome: {
    summary: 'What happened after a plan was approved (extension)',
    description: 'Work after each approval in the plan\'s sessions, until the session moves to another plan or ends: files, commands, tests, builds, commits, pull requests, tasks, time and tokens. Waits for the transcripts to be read.',
    params: Type.Object({ filename: Type.String() }),
    response: { 200: PlanOutcomeSchema, 400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('No listed or archived plan of that name', 'Plan not found') },
  },
} as const;

export type PlanOutcome = Static<typeof PlanOutcomeSchema>;
export type WorkWindow = Static<typeof WorkWindowSchema>;
export type OutcomeCommand = Static<typeof CommandSchema>;
export type OutcomeFile = Static<typeof FileSchema>;

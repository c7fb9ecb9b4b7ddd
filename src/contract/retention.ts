// GET /api/retention's answer (extension): how long Claude Code keeps plans and transcripts, what it will
// delete within a week, and what the viewer keeps of it.
import { Array as TArray, Boolean as TBoolean, Integer, Literal, Number as TNumber, Object as TObject, String as TString, Union } from 'typebox';
import { NullableNumber, NullableString } from './schemaParts.js';

const Type = { Array: TArray, Boolean: TBoolean, Integer, Literal, Number: TNumber, Object: TObject, String: TString, Union } as const;

export const DuePlanSchema = Type.Object({
  filename: Type.String(),
  filepath: Type.String(),
  modified: Type.String({ description: 'The file\'s mtime, which Claude Code goes by' }),
  deletesAt: Type.String({ description: 'modified + cleanupPeriodDays (past: at Claude Code\'s next start)' }),
  kept: Type.Boolean({ description: 'The viewer holds this content of the plan among the versions it keeps (its cache dir): after the deletion it stays readable in the Archive' }),
}, { additionalProperties: false });

export const DueTranscriptSchema = Type.Object({
  sessionId: Type.String(),
  file: Type.String({ description: 'The session\'s main log' }),
  project: NullableString('Last path segment of its cwd, from history.jsonl'),
  modified: Type.String({ description: 'The log\'s mtime, which Claude Code goes by' }),
  deletesAt: Type.String({ description: 'modified + cleanupPeriodDays' }),
  kept: Type.Boolean({ description: 'The viewer keeps a copy of the log as it is now (under its cache dir, within --history-limit): after the deletion its session stays readable (its card says kept)' }),
  keptFacts: Type.Union([Type.Literal('prompt-history'), Type.Literal('none')], {
    description: 'prompt-history: history.jsonl holds its prompts, so its card (source: prompt-history) and prompts stay answerable; none: nothing of it remains',
  }),
}, { additionalProperties: false });

export const RetentionSchema = Type.Object({
  cleanupPeriodDays: Type.Number({ description: 'From the user settings (cleanupPeriodDays) when a positive number, else 30' }),
  source: Type.Union([Type.Literal('settings'), Type.Literal('default')], { description: 'Where cleanupPeriodDays comes from' }),
  setting: NullableNumber('cleanupPeriodDays as settings.json writes it (a number), even 0 or negative; null when absent'),
  note: NullableString('Why the setting is not used, when it is 0 or negative'),
  plansDir: Type.String({ description: 'The shared plans folder Claude Code cleans up (<claude dir>/plans); plans elsewhere are not deleted' }),
  within: Type.Integer({ description: 'The horizon in days (7): the lists hold what is deleted within it, overdue included' }),
  plans: Type.Array(DuePlanSchema, { description: 'Plans of plansDir due within the horizon, soonest first (at most 200; counts.plans tells all)' }),
  transcripts: Type.Array(DueTranscriptSchema, { description: 'Sessions\' main logs due within the horizon, soonest first (at most 200; counts.transcripts tells all)' }),
  counts: Type.Object({
    plans: Type.Integer(), plansKept: Type.Integer({ description: 'Of those plans, the ones kept' }),
    transcripts: Type.Integer(), transcriptsWithPrompts: Type.Integer({ description: 'Of those transcripts, the ones whose prompts history.jsonl holds' }),
    transcriptsKept: Type.Integer({ description: 'Of those transcripts, the ones the viewer keeps a copy of as they are now' }),
  }, { additionalProperties: false }),
  transcriptsNote: Type.String({ description: 'What the viewer keeps of a deleted transcript' }),
  keptTranscripts: Type.Object({
    keeping: Type.Boolean({ description: 'Whether this viewer keeps copies of transcripts (false without a cache dir or with --history-limit 0)' }),
    logs: Type.Integer({ description: 'Logs the viewer keeps a copy of (of the logs it reads)' }),
    goneLogs: Type.Integer({ description: 'Of those, the ones gone from disk, served from the copy' }),
    keptBytes: Type.Integer({ description: 'What the copies take under the cache dir: their compressed bytes, and the decompressed copies of gone logs opened for reading' }),
    limitBytes: Type.Integer({ description: 'The bound of keptBytes (--history-limit); past it the copies of the oldest logs are dropped first' }),
  }, { additionalProperties: false, description: 'The viewer\'s copies of transcripts and the bound they use' }),
}, { additionalProperties: false });

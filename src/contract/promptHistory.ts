// What ~/.claude/history.jsonl keeps of sessions (extensions): the sessions whose transcripts are gone, and a
// session's prompts. Same conventions as endpoints.ts.
import { Array as TArray, Integer, Object as TObject, String as TString, type Static } from 'typebox';
import { NullableString, textAnswer } from './schemaParts.js';
import { errors } from './endpoints.js';

const Type = { Array: TArray, Integer, Object: TObject, String: TString } as const;

export const GoneSessionSchema = Type.Object({
  sessionId: Type.String(),
  cwd: NullableString('The `project` of its lines in history.jsonl: the directory Claude Code ran in'),
  project: NullableString('Last path segment of cwd'),
  firstPrompt: NullableString('Its earliest prompt (cut at 2,000 characters, secrets masked)'),
  lastPrompt: NullableString('Its latest prompt (cut at 2,000 characters, secrets masked)'),
  firstAt: NullableString('Time of its earliest prompt'),
  lastAt: NullableString('Time of its latest prompt'),
  promptCount: Type.Integer(),
}, { additionalProperties: false });

export const PromptSchema = Type.Object({
  at: NullableString('When it was typed'),
  display: Type.String({ description: 'What was typed, cut at 2,000 characters, secrets masked (pasted contents not included)' }),
  project: NullableString('The directory Claude Code ran in'),
}, { additionalProperties: false });

export const promptHistoryEndpoints = {
  gone: {
    summary: 'Sessions whose transcripts are gone, from ~/.claude/history.jsonl (extension)',
    description: 'Sessions that lines of history.jsonl name (their sessionId) and no transcript the viewer reads does: Claude Code deleted their logs (cleanupPeriodDays), before or after the viewer first ran. Newest (last prompt) first. Lines without a sessionId (older Claude Code versions) are counted by project in `projects`. GET /api/sessions/{sessionId} answers each one\'s card (`source`: prompt-history).',
    querystring: Type.Object({
      limit: Type.String({ default: '50', pattern: '^([1-9][0-9]{0,2}|1000)$', description: 'Sessions per page, 1 to 1000' }),
      cursor: Type.String({ default: '0', pattern: '^(0|[1-9][0-9]{0,8})$', description: 'A nextCursor: how many sessions the pages before held' }),
    }),
    response: {
      200: Type.Object({
        sessions: Type.Array(GoneSessionSchema),
        total: Type.Integer({ description: 'Gone sessions in all' }),
        nextCursor: NullableString('The cursor of the next page; null on the last'),
        projects: Type.Array(Type.Object({
          project: Type.String({ description: 'The directory (cwd) of the lines' }),
          promptCount: Type.Integer(),
          firstAt: NullableString('Earliest'),
          lastAt: NullableString('Latest'),
        }, { additionalProperties: false }), { description: 'Prompts of lines without a sessionId, by project' }),
        badLines: Type.Integer({ description: 'Lines of history.jsonl that are not prompt lines (torn, not JSON): skipped' }),
      }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden,
    },
  },
  prompts: {
    summary: 'A session\'s prompts as ~/.claude/history.jsonl keeps them (extension)',
    description: 'Oldest first (the file\'s order; at most the last 2,000). For any session the file names, whether its transcript is there or gone: for a gone one, this is what remains of its conversation.',
    params: Type.Object({ sessionId: Type.String() }),
    response: {
      200: Type.Object({ sessionId: Type.String(), prompts: Type.Array(PromptSchema) }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('history.jsonl names no such session', 'Session not found'),
    },
  },
} as const;

export type GoneSession = Static<typeof GoneSessionSchema>;
export type Prompt = Static<typeof PromptSchema>;
export type GoneSessionsBody = Static<(typeof promptHistoryEndpoints)['gone']['response'][200]>;
export type SessionPromptsBody = Static<(typeof promptHistoryEndpoints)['prompts']['response'][200]>;

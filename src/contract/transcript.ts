// GET /api/sessions/{sessionId}/transcript (extension): a session's conversation, a page at a time.
import { Array as TArray, Boolean as TBoolean, Integer, Literal, Object as TObject, String as TString, Union, type Static } from 'typebox';
import { NullableInteger, NullableString, textAnswer } from './schemaParts.js';
import { errors } from './endpoints.js';

const Type = { Array: TArray, Boolean: TBoolean, Integer, Literal, Object: TObject, String: TString, Union } as const;

export const TranscriptEntrySchema = Type.Object({
  cursor: Type.Integer({ description: 'Byte offset of its line in the log: the cursor that opens the transcript there' }),
  at: NullableString('When'),
  kind: Type.Union([
    Type.Literal('prompt'), Type.Literal('command'), Type.Literal('answer'), Type.Literal('tool-call'), Type.Literal('tool-result'),
    Type.Literal('plan-mode'), Type.Literal('compaction'),
  ], {
    description: 'prompt: typed by the person; command: a slash command\'s lines; answer: Claude\'s text; tool-call: its input as JSON; tool-result: its output; plan-mode; compaction',
  }),
  text: Type.String({ description: 'Cut at 2,000 characters (truncated says so; the whole is in the log)' }),
  truncated: Type.Boolean(),
  tool: NullableString('The tool of a call'),
  toolUseId: NullableString('Pairs a call with its result'),
  isError: Type.Boolean({ description: 'A result that is an error' }),
}, { additionalProperties: false });

export const transcriptEndpoints = {
  transcript: {
    summary: 'A session\'s transcript, paged (extension)',
    description: 'The main log, or a subagent\'s with `agent`. `cursor` is a byte offset (0, or a nextCursor or an entry\'s cursor); `limit` counts log lines read, so a page may hold more or fewer entries. Waits for the transcripts to be read.',
    params: Type.Object({ sessionId: Type.String() }),
    querystring: Type.Object({
      cursor: Type.String({ default: '0', pattern: '^(0|[1-9][0-9]{0,15})$', description: 'Byte offset to start from' }),
      limit: Type.String({ default: '200', pattern: '^([1-9][0-9]{0,2}|1000)$', description: 'Log lines to read, 1 to 1000' }),
      agent: Type.String({ default: '', maxLength: 200, description: 'A subagent\'s id (from subagents) for its own log; empty: the main log' }),
    }),
    response: {
      200: Type.Object({
        sessionId: Type.String(),
        agentId: NullableString('The subagent whose log this is, null for the main log'),
        entries: Type.Array(TranscriptEntrySchema),
        nextCursor: NullableInteger('Where the next page starts; null at the end of the log'),
        prevCursor: NullableInteger('Where the page before this one starts (a page read from there with the same limit reaches this cursor); null at the start of the log'),
        totalBytes: Type.Integer({ description: 'The log\'s size now' }),
        subagents: Type.Array(Type.String(), { description: 'Ids of the session\'s subagents that have logs' }),
      }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden,
      404: textAnswer('No log of this session (or of that subagent)', 'Session not found'),
    },
  },
} as const;

export type TranscriptEntry = Static<typeof TranscriptEntrySchema>;
export type TranscriptBody = Static<(typeof transcriptEndpoints)['transcript']['response'][200]>;

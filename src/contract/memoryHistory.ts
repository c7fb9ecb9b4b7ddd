// The memory-history endpoints (extensions beyond interface 1.4.0): a memory file's versions, one
// version's text, who last wrote each line (blame), and the memory files gone from disk. Same conventions
// as endpoints.ts: TypeBox schemas drive validation, the OpenAPI document and the types the domain and
// the UI import.
import {
  Array as TArray, Boolean as TBoolean, Integer, Literal, Object as TObject, Optional, String as TString, Union, type Static,
} from 'typebox';
import { errors } from './endpoints.js';
import { NullableString, textAnswer } from './schemaParts.js';

const Type = { Array: TArray, Boolean: TBoolean, Integer, Literal, Object: TObject, Optional, String: TString, Union } as const;

export const MemoryVersionSchema = Type.Object({
  id: Type.String({ description: 'Stable within a home: t… a tool call of a session, o… a content the viewer saw on disk, d… the file on disk now' }),
  at: NullableString('When this version was written: the tool call\'s timestamp; for a change outside Claude Code, the file\'s mtime when the viewer observed it'),
  source: Type.Union([Type.Literal('write'), Type.Literal('edit'), Type.Literal('outside')], {
    description: 'write: a Write call (the whole text); edit: an Edit or MultiEdit applied to the version before; outside: a content on disk no tool call explains ("changed outside Claude Code": a hand edit, Auto Dream, another tool)',
  }),
  sessionId: NullableString('The session whose tool call wrote it'),
  agentId: NullableString('The subagent that wrote it, when a subagent did'),
  prompt: NullableString('The last prompt the person typed in that session before the call (what the write was answering), cut to 2,000 characters'),
  size: Type.Integer({ description: 'Bytes of its text (UTF-8)' }),
  lineCount: Type.Integer(),
  gapBefore: Type.Boolean({ description: 'A change before it could not be rebuilt (an edit whose old text was not there): the history resumes here' }),
}, { additionalProperties: false });

export const BlameLineSchema = Type.Object({
  line: Type.Integer({ description: '1-based line number in the file\'s last version' }),
  text: Type.String(),
  versionId: Type.String({ description: 'The version that last wrote this line' }),
  source: Type.Union([Type.Literal('write'), Type.Literal('edit'), Type.Literal('outside')]),
  at: NullableString('When that version was written, or observed for a change outside Claude Code'),
  sessionId: NullableString('Its session (tool calls only)'),
  prompt: NullableString('The prompt its tool call was answering'),
}, { additionalProperties: false });

export const ArchivedMemorySchema = Type.Object({
  id: Type.String({ description: 'The id the file had in GET /api/memory (<sourceId>/<filename>): its history and versions stay readable under it' }),
  filename: Type.String({ description: 'Path relative to its memory folder' }),
  filepath: Type.String({ description: 'Where it was' }),
  lastVersionAt: NullableString('When its last known version was written or seen'),
  deletedAt: NullableString('When the viewer found it gone, if it saw it go'),
  sessionId: NullableString('The session that last wrote it, if a tool call did'),
}, { additionalProperties: false });

export const SessionLoadSchema = Type.Object({
  sessionId: Type.String(),
  firstAt: NullableString('When an attachment first handed it the file'),
  lastAt: NullableString('When one last did'),
  times: Type.Integer({ description: 'Attachments that named the file' }),
}, { additionalProperties: false });

const MemoryId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 4096, description: 'A memory entry id from GET /api/memory, or an archived one from GET /api/memory/archive' }) });

export const memoryHistoryEndpoints = {
  history: {
    summary: 'A memory file\'s versions, oldest first (extension)',
    description: 'Versions come from the transcripts\' Write/Edit/MultiEdit calls on the file (each with its session, time and the prompt it answered), from contents the viewer saw on disk that no call explains, and from the file on disk. Answered once every log\'s facts are at hand.',
    querystring: MemoryId,
    response: {
      200: Type.Object({
        id: Type.String(),
        filepath: Type.String(),
        onDisk: Type.Boolean({ description: 'false for a file of the memory archive' }),
        versions: Type.Array(MemoryVersionSchema),
        loadedBy: Type.Optional(Type.Array(SessionLoadSchema, {
          description: 'Sessions a relevant_memories attachment handed this file to, newest first (at most 100); the sessions that wrote it are the versions\' sessionId',
        })),
      }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('No such memory file, listed or archived', 'Memory not found'),
    },
  },
  version: {
    summary: 'The text of one version of a memory file (extension)',
    params: Type.Object({ versionId: Type.String({ minLength: 1, maxLength: 200 }) }),
    querystring: MemoryId,
    response: {
      200: Type.Object({ content: Type.String() }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('No such memory file or version', 'Version not found'),
    },
  },
  blame: {
    summary: 'For each line of a memory file\'s last version, the version that last wrote it (extension)',
    description: 'Derived from the versions of GET /api/memory/history: a line that a version kept from the one before keeps its author.',
    querystring: MemoryId,
    response: {
      200: Type.Object({
        id: Type.String(),
        versionId: NullableString('The last version (the one blamed); null when the file has none'),
        lines: Type.Array(BlameLineSchema),
      }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('No such memory file, listed or archived', 'Memory not found'),
    },
  },
  archive: {
    summary: 'Memory files no longer on disk whose versions are still readable (extension)',
    description: 'Files the viewer saw and found gone, and files a transcript wrote that are not on disk now; newest first.',
    response: { 200: Type.Object({ files: Type.Array(ArchivedMemorySchema) }, { additionalProperties: false }), 400: errors.badRequest, 403: errors.forbidden },
  },
} as const;

export type MemoryVersion = Static<typeof MemoryVersionSchema>;
export type BlameLine = Static<typeof BlameLineSchema>;
export type SessionLoad = Static<typeof SessionLoadSchema>;
export type ArchivedMemory = Static<typeof ArchivedMemorySchema>;
export type MemoryHistoryBody = Static<(typeof memoryHistoryEndpoints)['history']['response'][200]>;
export type MemoryBlameBody = Static<(typeof memoryHistoryEndpoints)['blame']['response'][200]>;
export type MemoryArchiveBody = Static<(typeof memoryHistoryEndpoints)['archive']['response'][200]>;

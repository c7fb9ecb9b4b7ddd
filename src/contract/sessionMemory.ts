// GET /api/sessions/{sessionId}/memory (extension): what a session saw of memory: the auto-memory folder's
// index and topics as they were when it started (with the load budget's cut), the memory attachments it was
// handed while it ran, and the memory files it wrote. Same conventions as endpoints.ts.
import {
  Array as TArray, Boolean as TBoolean, Integer, Literal, Object as TObject, String as TString, Union, Unsafe, type Static,
} from 'typebox';
import { NullableInteger, NullableString, textAnswer } from './schemaParts.js';
import { errors } from './endpoints.js';

const Type = { Array: TArray, Boolean: TBoolean, Integer, Literal, Object: TObject, String: TString, Union, Unsafe } as const;

const MemoryId = (description: string) => Type.String({ description: `${description}: a memory id (<sourceId>/<filename>) for GET /api/memory/history and /api/memory/versions/{versionId}` });

export const LoadCutSchema = Type.Object({
  truncated: Type.Boolean({ description: 'Claude Code cut this version when it loaded it' }),
  reason: Type.Union([Type.Literal('none'), Type.Literal('lines'), Type.Literal('chars'), Type.Literal('lines+chars')]),
  totalLines: Type.Integer({ description: 'Lines counted (frontmatter and HTML comments left out, trimmed)' }),
  keptLines: Type.Integer({ description: 'Lines loaded' }),
  totalChars: Type.Integer({ description: 'Characters counted (UTF-16 units)' }),
  keptChars: Type.Integer({ description: 'Characters loaded' }),
  keptStart: Type.Integer({ description: 'Offset in the version\'s text (UTF-16 units) of the first character loaded' }),
  keptEnd: Type.Integer({ description: 'Offset (exclusive) where what was loaded ends: the text\'s length when nothing was cut' }),
  firstUnreadLine: NullableInteger('0-based line of the version where the text not loaded begins; null when nothing was cut'),
}, { additionalProperties: false, description: 'What Claude Code loaded of that version of MEMORY.md (200 lines, then 25,000 characters)' });

export const FileAtStartSchema = Type.Object({
  id: MemoryId('The file'),
  file: Type.String({ description: 'Path inside the memory folder' }),
  versionId: NullableString('Its version when the session started (the last one written or seen at or before that time); null when none is known'),
  at: NullableString('When that version was written or seen'),
}, { additionalProperties: false });

export const SessionMemoryAttachmentSchema = Type.Object({
  kind: Type.Union([Type.Literal('nested_memory'), Type.Literal('relevant_memories')], {
    description: 'nested_memory: a CLAUDE.md or rule file loaded as the session reached its folder; relevant_memories: memory files shown to the model',
  }),
  at: NullableString('The attachment line\'s timestamp'),
  agentId: NullableString('The subagent it was handed to, when a subagent'),
  line: Type.Integer({ description: '1-based line of the attachment in its log' }),
  unread: Type.Boolean({ description: 'Its line was not read for this answer (the answer reads 16 MiB of attachment lines at most): items is empty, the log holds it' }),
  items: Type.Array(Type.Object({
    path: NullableString('The file it names'),
    memoryId: NullableString('The memory id of that file, when it is a listed memory file or a file of a project\'s memory folder'),
    chars: NullableInteger('Characters of the text handed over (UTF-16 units); null for a text over 1 MiB, not counted'),
    text: Type.String({ description: 'The text handed over, secrets masked, cut at 4,000 characters' }),
    cut: Type.Boolean({ description: 'text is cut' }),
  }, { additionalProperties: false }), { description: 'What it handed over: one item for nested_memory, one per memory (at most 20) for relevant_memories' }),
}, { additionalProperties: false });

export const SessionMemoryWriteSchema = Type.Object({
  id: MemoryId('The file written'),
  file: Type.String({ description: 'Path inside the memory folder' }),
  tool: Type.Union([Type.Literal('Write'), Type.Literal('Edit'), Type.Literal('MultiEdit')]),
  at: NullableString('The tool call\'s timestamp'),
  agentId: NullableString('The subagent that wrote, when a subagent did'),
  versionId: NullableString('The version the call made in the file\'s history; null when it could not be rebuilt'),
}, { additionalProperties: false });

export const SessionMemorySchema = Type.Object({
  sessionId: Type.String(),
  startedAt: NullableString('The session\'s first timestamp: "at start" means at or before it'),
  cwd: NullableString('The working directory the session started in'),
  projectKey: NullableString('The project folder (<claude>/projects/<key>) of its default memory folder: the git root\'s encoded path'),
  folder: Type.Unsafe<{ sourceId: string; dir: string; project: string; chosenBy: 'writes' | 'attachments' | 'settings' } | null>({
    ...Type.Object({
      sourceId: Type.String(), dir: Type.String(), project: Type.String(),
      chosenBy: Type.Union([Type.Literal('writes'), Type.Literal('attachments'), Type.Literal('settings')], {
        description: 'How the folder is known: writes: the session itself wrote memory files there; attachments: memories of that folder were shown to it; settings: neither, so the folder the settings name now (they may have changed since)',
      }),
    }, { additionalProperties: false }),
    nullable: true,
    description: 'The memory folder the session read (one of the sources of GET /api/memory): the one its own memory writes or memory attachments name, else the one the settings name now; null when none is listed',
  }),
  atStart: Type.Object({
    index: Type.Unsafe<(Static<typeof FileAtStartSchema> & { load: Static<typeof LoadCutSchema> | null }) | null>({
      ...Type.Object({ ...FileAtStartSchema.properties, load: Type.Unsafe({ ...LoadCutSchema, nullable: true }) }, { additionalProperties: false }),
      nullable: true,
      description: 'MEMORY.md as it was at start, with what Claude Code loaded of it (load: null when its text is not known); null when the folder has no MEMORY.md',
    }),
    topics: Type.Array(FileAtStartSchema, { description: 'Topic files that existed at start, or may have (versionId null: none known from before); by file name' }),
  }, { additionalProperties: false }),
  attachments: Type.Array(SessionMemoryAttachmentSchema, { description: 'Memory attachments in the session\'s logs (its subagents\' included), by time' }),
  omittedAttachments: Type.Integer({ description: 'Attachments beyond the first 200, not in the answer' }),
  wrote: Type.Array(SessionMemoryWriteSchema, { description: 'The session\'s Write, Edit and MultiEdit calls on memory files, by time' }),
  incomplete: Type.Boolean({ description: 'Lines of the session\'s logs were too long to read (over 32 MiB): attachments or writes they hold are missing' }),
}, { additionalProperties: false });

export const sessionMemoryEndpoints = {
  memory: {
    summary: 'What a session saw of memory: at its start, handed to it, written by it (extension)',
    description: 'Answered once every log\'s facts are at hand. The texts of the files are not in the answer: each names its version for GET /api/memory/versions/{versionId}.',
    params: Type.Object({ sessionId: Type.String() }),
    response: {
      200: SessionMemorySchema,
      400: errors.badRequest, 403: errors.forbidden, 404: textAnswer('No log names this session', 'Session not found'),
    },
  },
} as const;

export type LoadCut = Static<typeof LoadCutSchema>;
export type FileAtStart = Static<typeof FileAtStartSchema>;
export type SessionMemoryAttachment = Static<typeof SessionMemoryAttachmentSchema>;
export type SessionMemoryWrite = Static<typeof SessionMemoryWriteSchema>;
export type SessionMemoryBody = Static<typeof SessionMemorySchema>;

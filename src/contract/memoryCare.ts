// Memory care (extensions beyond interface 1.4.0): the health findings of every memory source, the fixes
// that rewrite memory files (preview as a diff first), their undo, and the trash of removed topics. The
// shapes and endpoint schemas, TypeBox only; endpoints.ts lists the endpoints with the others.
import {
  Array as TArray, Boolean as TBoolean, Integer, Literal, Object as TObject, Optional, String as TString, Union, Unsafe,
  type Static,
} from 'typebox';
import { DateTime, NullableInteger, NullableString, textAnswer } from './schemaParts.js';

const Type = {
  Array: TArray, Boolean: TBoolean, Integer, Literal, Object: TObject, Optional, String: TString, Union, Unsafe,
} as const;

export const PROBLEM_KINDS = [
  'over-budget', 'unreachable', 'dangling', 'orphan', 'truncated-value', 'bad-frontmatter', 'pinned-over-limit', 'stale',
  'duplicate', 'split-brain', 'secret',
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

export const FIX_KINDS = ['add-to-index', 'remove-link', 'retarget-link', 'quote-value', 'move-past-cut', 'trash-topic', 'link-mention'] as const;
export type FixKind = (typeof FIX_KINDS)[number];

/** What an undo record (and GET /api/memory/fixes) names: a fix, or a bulk change put back (POST /api/memory/changes/{id}/restore). */
export const RECORD_KINDS = [...FIX_KINDS, 'restore-bulk'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** How many recent fixes GET /api/memory/fixes lists. */
export const RECENT_FIXES = 20;

/** Longest memory file name a request may send (a path's limit on Linux). */
export const MAX_NAME_CHARS = 4096;

const Enum = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
const NullableEnum = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number] | null>({ type: 'string', enum: [...values, null], nullable: true, description });

const Place = Type.Object({
  sourceId: Type.String({ description: 'A source id from GET /api/memory' }),
  file: NullableString('A file name of that source (as entries list it), or null for the source as a whole'),
}, { additionalProperties: false });

export const MemoryProblemSchema = Type.Object({
  kind: Enum(PROBLEM_KINDS, [
    'over-budget: MEMORY.md lines Claude Code does not load (load budget rule of 2.1.211); unreachable: a topic linked only',
    'past the cut; dangling: a link to nothing; orphan: a topic MEMORY.md does not link; truncated-value: an unquoted " #" cuts a',
    'frontmatter value; bad-frontmatter: frontmatter YAML does not parse; pinned-over-limit: more than 4 pinned memories; stale:',
    'unchanged for the stale age while its session is gone; duplicate: the same name, nearly the same description, or the same',
    'text twice; split-brain: memory Claude Code no longer reads beside memory it does (autoMemoryDirectory, deleted worktrees);',
    'secret: text that looks like a credential (its line only, never the text)',
  ].join(' ')),
  file: NullableString('The file the problem is in (a file name of the source), or null for the source as a whole'),
  line: NullableInteger('1-based line of `file`, or null'),
  message: Type.String({ description: 'What is wrong and what Claude Code does about it, for people' }),
  fix: NullableEnum(FIX_KINDS, 'The fix POST /api/memory/fix offers for it (its `kind`), or null when there is none'),
  target: NullableString('What the fix acts on inside `file`: a link target (as in danglingLinks), a frontmatter key, or the topic a link past the cut names; send it back as the fix request\'s `target`'),
  related: Type.Array(Place, { description: 'Other places involved: the index entries past the cut, the other copy of a duplicate, the folder Claude Code reads instead' }),
}, { additionalProperties: false });

const LoadStats = Type.Unsafe<{
  lines: number; chars: number; lineLimit: number; charLimit: number; keptLines: number; keptChars: number; truncated: boolean;
  firstUnreadLine: number | null;
} | null>({
  ...Type.Object({
    lines: Type.Integer({ description: 'Lines Claude Code counts: frontmatter and HTML comments left out, then trimmed' }),
    chars: Type.Integer({ description: 'Characters (UTF-16 units) Claude Code counts, as for `lines`' }),
    lineLimit: Type.Integer({ description: '200' }),
    charLimit: Type.Integer({ description: '25000' }),
    keptLines: Type.Integer({ description: 'Lines Claude Code loads' }),
    keptChars: Type.Integer({ description: 'Characters Claude Code loads' }),
    truncated: Type.Boolean({ description: 'Claude Code cuts the index' }),
    firstUnreadLine: NullableInteger('1-based first line of MEMORY.md that is not loaded'),
  }, { additionalProperties: false }),
  nullable: true,
  description: 'MEMORY.md under the load budget rule; null when the source has no MEMORY.md. GET /api/memory\'s index.lines and index.bytes stay raw file statistics',
});

export const MemoryHealthSourceSchema = Type.Object({
  sourceId: Type.String(),
  load: LoadStats,
  pinned: Type.Array(Type.String(), { description: 'Files whose frontmatter pins them (metadata.pinned: true); at most 4 apply' }),
  problems: Type.Array(MemoryProblemSchema, { description: 'Worst kind first, then by file and line' }),
}, { additionalProperties: false });


export const MemoryTrashItemSchema = Type.Object({
  undoId: Type.String({
    description: [
      'POST it to /api/memory/undo to put the topic back, whatever changed in the folder since; its MEMORY.md line comes back',
      'with it while MEMORY.md is as the fix left it, else the undo answer\'s `addToIndex` names the add-to-index fix that re-adds it',
    ].join(' '),
  }),
  sourceId: Type.String(),
  dir: Type.String({ description: 'The memory folder it was removed from' }),
  file: Type.String({ description: 'Its file name in that folder' }),
  removed: DateTime('When it was removed'),
}, { additionalProperties: false });

export const MemoryRecentFixSchema = Type.Object({
  undoId: Type.String({ description: 'POST it to /api/memory/undo to undo the fix' }),
  kind: Enum(RECORD_KINDS, 'The fix that was applied (for a fix of all findings of one kind: the fix of the first one); restore-bulk: a bulk change put back'),
  all: Type.Unsafe<{ problem: ProblemKind; count: number } | null>({
    ...Type.Object({
      problem: Enum(PROBLEM_KINDS, 'The kind of finding fixed'),
      count: Type.Integer({ description: 'How many findings the one change fixed' }),
    }, { additionalProperties: false }),
    nullable: true,
    description: 'Set for a fix of all findings of one kind (POST /api/memory/fix-all), null for one finding\'s fix',
  }),
  sourceId: Type.String(),
  dir: Type.String({ description: 'The memory folder it changed' }),
  file: Type.String({ description: 'The file the fix was asked for' }),
  files: Type.Array(Type.String(), { description: 'Every file it changed' }),
  applied: DateTime('When it was applied'),
  undoable: Type.Boolean({ description: 'Whether an undo would go through now (the files are as the fix left them); the viewer\'s --read-only is said by readOnly' }),
  reason: NullableString('Why it cannot be undone now, in words for people ("MEMORY.md changed since this fix; undo would overwrite that change"); null when it can'),
}, { additionalProperties: false });


const careErrors = {
  badRequest: textAnswer(
    'Malformed body (the message names the field and what it accepts), a name that is no memory file, or a fix that does not apply to this file',
    'Bad request: kind must be one of add-to-index, remove-link, retarget-link, quote-value, move-past-cut, trash-topic, link-mention',
  ),
  forbidden: textAnswer(
    'Host not allowed, a cross-origin request, or fixes are unavailable (a write): --read-only, or no cache folder that can be written (the message says which; so does GET /api/memory/health\'s readOnlyReason)',
    'Forbidden: the viewer runs with --read-only',
  ),
  notFound: textAnswer('No such source, file, problem or undo record', 'Not found'),
  conflict: textAnswer(
    'A file changed since the preview (its content hash differs: its bytes, or another file or a link in its place), or since the fix being undone; a trashed topic whose name is taken now',
    'Conflict: MEMORY.md changed since the preview; applying it would overwrite that change. Nothing was written; look at the new preview',
  ),
  tooLarge: textAnswer('Request body larger than 16 KiB', 'Payload Too Large'),
  unsupported: textAnswer('A body that is not JSON', 'Unsupported Media Type'),
} as const;

export const careEndpoints = {
  memoryHealth: {
    summary: 'Health findings of every memory source (extension beyond interface 1.4.0)',
    description: [
      'Every source of GET /api/memory, in its order, with MEMORY.md under Claude Code\'s load budget rule, its pinned files, and its',
      'problems. `readOnly` says whether fixes can be applied; `staleDays` is the age after which a topic whose session is gone is stale.',
    ].join(' '),
    response: {
      200: Type.Object({
        readOnly: Type.Boolean({ description: 'Fixes cannot be applied (readOnlyReason says why): POST /api/memory/fix previews only, undo is refused' }),
        readOnlyReason: NullableString(
          'Why fixes cannot be applied: "the viewer runs with --read-only", "no cache folder to keep undo records in", or "the cache folder <dir> cannot be written (<error>)"; null when they can',
        ),
        staleDays: Type.Integer(),
        sources: Type.Array(MemoryHealthSourceSchema),
      }),
      400: careErrors.badRequest, 403: careErrors.forbidden,
    },
  },
  memoryFix: {
    summary: 'Preview or apply the fix of a health finding (extension beyond interface 1.4.0)',
    description: [
      'With `apply: false`, the change as a unified diff and the content hash of the files it reads; nothing is written. With',
      '`apply: true` and that hash, the change is written (a temporary file and a rename in the same folder, only inside the memory',
      'folder) and can be undone with the returned `undoId`; 409 when any file changed since the preview. A removed topic goes to the',
      'trash (GET /api/memory/trash). Requires Content-Type: application/json and the same-origin rule of every state-changing request.',
    ].join(' '),
    body: Type.Object({
      sourceId: Type.String({ maxLength: 1024, description: 'A source id from GET /api/memory' }),
      kind: Enum(FIX_KINDS, 'The fix: a problem\'s `fix` (remove-link is also offered where retarget-link is)'),
      file: Type.String({ maxLength: MAX_NAME_CHARS, description: 'The problem\'s `file`' }),
      target: Type.Optional(Type.Unsafe<string | null>({ type: 'string', nullable: true, maxLength: MAX_NAME_CHARS, description: 'The problem\'s `target`' })),
      hash: Type.Optional(Type.String({ maxLength: 128, description: 'The `hash` of the preview; required with apply: true' })),
      apply: Type.Boolean({ description: 'false: preview only; true: write' }),
    }, { additionalProperties: false }),
    response: {
      200: Type.Object({
        diff: Type.String({ description: 'Unified diff of every file the fix changes (a removed file against /dev/null)' }),
        hash: Type.String({ description: 'Content hash of the files the fix reads, as they were for this answer' }),
        files: Type.Array(Type.String(), { description: 'The files it changes' }),
        applied: Type.Boolean(),
        undoId: NullableString('Set when applied: POST it to /api/memory/undo'),
      }),
      400: careErrors.badRequest, 403: careErrors.forbidden, 404: careErrors.notFound, 409: careErrors.conflict,
      413: careErrors.tooLarge, 415: careErrors.unsupported,
    },
  },
  memoryFixAll: {
    summary: 'Preview or apply the fixes of every finding of one kind in a memory source as one change (extension beyond interface 1.4.0)',
    description: [
      'Each finding\'s own fix (a dangling link retargeted to the near file, else removed; an orphan linked into MEMORY.md or its',
      'mention turned into a link; a cut value quoted; a stale topic moved to the trash), planned one after another and merged into',
      'one change per file. Previewed and applied as POST /api/memory/fix is: 409 when any file changed since the preview, nothing',
      'written; one `undoId` undoes all of it. Only these kinds: dangling, orphan, truncated-value, stale.',
    ].join(' '),
    body: Type.Object({
      sourceId: Type.String({ maxLength: 1024, description: 'A source id from GET /api/memory' }),
      kind: Enum(PROBLEM_KINDS, 'The kind of finding to fix: dangling, orphan, truncated-value or stale (others answer 400)'),
      hash: Type.Optional(Type.String({ maxLength: 128, description: 'The `hash` of the preview; required with apply: true' })),
      apply: Type.Boolean({ description: 'false: preview only; true: write' }),
    }, { additionalProperties: false }),
    response: {
      200: Type.Object({
        diff: Type.String({ description: 'Unified diff of every file the change touches' }),
        hash: Type.String({ description: 'Content hash of the files the fixes read, as they were for this answer' }),
        files: Type.Array(Type.String(), { description: 'The files it changes' }),
        applied: Type.Boolean(),
        undoId: NullableString('Set when applied: POST it to /api/memory/undo to undo every fix of the change'),
        count: Type.Integer({ description: 'How many findings the change fixes' }),
      }),
      400: careErrors.badRequest, 403: careErrors.forbidden, 404: careErrors.notFound, 409: careErrors.conflict,
      413: careErrors.tooLarge, 415: careErrors.unsupported,
    },
  },
  memoryUndo: {
    summary: 'Undo an applied fix: every file it changed gets its previous bytes back (extension beyond interface 1.4.0)',
    description: [
      '409 when a file changed since the fix; 403 when fixes are unavailable. A trashed topic (a trash-topic fix) is restored whatever',
      'happened to the other files since: its MEMORY.md line comes back only while MEMORY.md is as the fix left it, else `addToIndex`',
      'names the add-to-index fix that re-adds it (preview it first, like any fix); 409 only when a file of the topic\'s name exists now.',
      'Same-origin rule as every state-changing request.',
    ].join(' '),
    body: Type.Object({ undoId: Type.String({ maxLength: 128 }) }, { additionalProperties: false }),
    response: {
      200: Type.Object({
        undone: Type.Boolean(),
        files: Type.Array(Type.String(), { description: 'The files put back as they were before the fix' }),
        addToIndex: Type.Unsafe<{ sourceId: string; file: string } | null>({
          ...Type.Object({ sourceId: Type.String(), file: Type.String() }, { additionalProperties: false }),
          nullable: true,
          description: 'Set when a restored topic\'s MEMORY.md line did not come back (MEMORY.md changed since): POST /api/memory/fix with kind add-to-index, this sourceId and file re-adds it',
        }),
      }),
      400: careErrors.badRequest, 403: careErrors.forbidden, 404: careErrors.notFound, 409: careErrors.conflict,
      413: careErrors.tooLarge, 415: careErrors.unsupported,
    },
  },
  memoryFixes: {
    summary: 'Fixes applied and not undone yet, newest first, each with whether it can still be undone (extension beyond interface 1.4.0)',
    description: [
      'Read from the undo records kept under the viewer\'s cache folder, so the list outlives a restart and a reload; at most',
      `${RECENT_FIXES} of them. A fix can be undone while every file it changed is as it left it; \`reason\` says in words why not.`,
      'Undo one with POST /api/memory/undo.',
    ].join(' '),
    querystring: Type.Object({
      project: Type.Optional(Type.String({ maxLength: 1024, description: 'Only the fixes of memory sources of this project name (any case)' })),
    }),
    response: {
      200: Type.Object({
        readOnly: Type.Boolean({ description: 'Undo is refused (readOnlyReason says why)' }),
        readOnlyReason: NullableString('As GET /api/memory/health says it'),
        items: Type.Array(MemoryRecentFixSchema),
      }),
      400: careErrors.badRequest, 403: careErrors.forbidden,
    },
  },
  memoryTrash: {
    summary: 'Topics removed by a fix and not restored yet, newest first (extension beyond interface 1.4.0)',
    response: {
      200: Type.Object({ items: Type.Array(MemoryTrashItemSchema) }),
      400: careErrors.badRequest, 403: careErrors.forbidden,
    },
  },
} as const;

export type MemoryProblem = Static<typeof MemoryProblemSchema>;
export type MemoryHealthSource = Static<typeof MemoryHealthSourceSchema>;
export type MemoryTrashItem = Static<typeof MemoryTrashItemSchema>;
export type MemoryHealth = Static<(typeof careEndpoints)['memoryHealth']['response'][200]>;
export type MemoryFixRequest = Static<(typeof careEndpoints)['memoryFix']['body']>;
export type MemoryFixResult = Static<(typeof careEndpoints)['memoryFix']['response'][200]>;
export type MemoryFixAllRequest = Static<(typeof careEndpoints)['memoryFixAll']['body']>;
export type MemoryFixAllResult = Static<(typeof careEndpoints)['memoryFixAll']['response'][200]>;
export type MemoryUndoRequest = Static<(typeof careEndpoints)['memoryUndo']['body']>;
export type MemoryUndoResult = Static<(typeof careEndpoints)['memoryUndo']['response'][200]>;
export type MemoryRecentFix = Static<typeof MemoryRecentFixSchema>;
export type MemoryFixes = Static<(typeof careEndpoints)['memoryFixes']['response'][200]>;
export type MemoryTrash = Static<(typeof careEndpoints)['memoryTrash']['response'][200]>;

// Bulk memory changes (extensions beyond interface 1.4.0): many memory files of one folder changed at once
// outside any session (Auto Dream, a script, a sync), seen by the viewer, each as one entry that lists
// every file changed, created, deleted or merged into another, restorable as one previewed change.
import {
  Array as TArray, Boolean as TBoolean, Object as TObject, Optional, String as TString, Unsafe, type Static,
} from 'typebox';
import { errors } from './endpoints.js';
import { DateTime, NullableString, textAnswer } from './schemaParts.js';

const Type = { Array: TArray, Boolean: TBoolean, Object: TObject, Optional, String: TString, Unsafe } as const;

export const BULK_CHANGE_KINDS = ['changed', 'created', 'deleted'] as const;
export type BulkChangeKind = (typeof BULK_CHANGE_KINDS)[number];

export const BulkChangeFileSchema = Type.Object({
  file: Type.String({ description: 'Path relative to the memory folder' }),
  id: NullableString('Its memory id (GET /api/memory, or the archive for a file gone now): use it with GET /api/memory/history and /versions; null when none names it'),
  change: Type.Unsafe<BulkChangeKind>({ type: 'string', enum: [...BULK_CHANGE_KINDS], description: 'What the bulk change did to the file' }),
  mergedInto: NullableString('For a deleted file: the file of the same change that now holds most of its non-blank lines'),
  beforeVersionId: NullableString('Its version before the change (GET /api/memory/versions/{versionId}?id=…); null for a created file or when no version has that text'),
  afterVersionId: NullableString('Its version the change left; null for a deleted file or when no version has that text'),
  current: Type.Boolean({ description: 'The file is still as the change left it (a deleted one is still gone)' }),
  restorable: Type.Boolean({ description: 'Its text from before the change is still kept (not pruned under --history-limit), or it was created (a restore removes it)' }),
}, { additionalProperties: false });

export const BulkChangeSchema = Type.Object({
  id: Type.String({ description: 'Stable id of the change: POST /api/memory/changes/{id}/restore' }),
  dir: Type.String({ description: 'The memory folder' }),
  sourceId: NullableString('Its source id in GET /api/memory; null when the folder is no longer listed'),
  project: NullableString('Its project name'),
  firstAt: DateTime('The first change\'s time (a file\'s mtime; a deletion: its folder\'s mtime when the viewer noticed it)'),
  lastAt: DateTime('The last change\'s time'),
  files: Type.Array(BulkChangeFileSchema, { description: 'Every file the change touched, by name' }),
}, { additionalProperties: false });

const notFound = textAnswer('No such bulk change, or its memory folder is not listed now', 'Not found: no such bulk change');

export const changesEndpoints = {
  memoryChanges: {
    summary: 'Memory changed in bulk outside Claude Code, newest first (extension beyond interface 1.4.0)',
    description: [
      'The changes the viewer saw on disk (a file\'s new content, a file gone) that no session\'s Write or Edit of that file explains',
      '(none within 3 minutes), grouped per memory folder when they lie within 2 minutes of each other and touch 3 files or more:',
      'what Auto Dream\'s consolidation does, and it leaves no transcript record. Seen only while the viewer runs with a cache folder.',
    ].join(' '),
    querystring: Type.Object({
      project: Type.Optional(Type.String({ maxLength: 1024, description: 'Only the changes of memory folders of this project name (any case)' })),
    }),
    response: {
      200: Type.Object({ changes: Type.Array(BulkChangeSchema) }, { additionalProperties: false }),
      400: errors.badRequest, 403: errors.forbidden,
    },
  },
  memoryChangeRestore: {
    summary: 'Preview or apply putting every file of a bulk change back as it was before it (extension beyond interface 1.4.0)',
    description: [
      'A changed file gets its text from before back, a deleted one is created again, a created one is removed. Previewed and applied',
      'as POST /api/memory/fix is (a diff and the hash of the files now; 409 when any changed since the preview; 403 with --read-only),',
      'and undone with the returned undoId. A file whose earlier text is no longer kept (or whose folder is gone) is left as it is and named in `skipped`.',
    ].join(' '),
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) }),
    body: Type.Object({
      hash: Type.Optional(Type.String({ maxLength: 128, description: 'The `hash` of the preview; required with apply: true' })),
      apply: Type.Boolean({ description: 'false: preview only; true: write' }),
    }, { additionalProperties: false }),
    response: {
      200: Type.Object({
        diff: Type.String({ description: 'Unified diff of every file the restore changes' }),
        hash: Type.String({ description: 'Content hash of the files as they were for this answer' }),
        files: Type.Array(Type.String(), { description: 'The files it changes' }),
        applied: Type.Boolean(),
        undoId: NullableString('Set when applied: POST it to /api/memory/undo'),
        skipped: Type.Array(Type.String(), { description: 'Files left as they are: their text from before the change is no longer kept, or the folder they were in is gone' }),
      }),
      400: errors.badRequest,
      403: textAnswer('Host not allowed, a cross-origin request, or writes are unavailable (--read-only, no cache folder that can be written)', 'Forbidden: the viewer runs with --read-only'),
      404: notFound,
      409: textAnswer('A file changed since the preview, or every file is already as it was before the change', 'Conflict: MEMORY.md changed since the preview; applying it would overwrite that change. Nothing was written; look at the new preview'),
      413: errors.tooLarge, 415: textAnswer('A body that is not JSON', 'Unsupported Media Type'),
    },
  },
} as const;

export type BulkChangeFile = Static<typeof BulkChangeFileSchema>;
export type BulkChange = Static<typeof BulkChangeSchema>;
export type MemoryChangesBody = Static<(typeof changesEndpoints)['memoryChanges']['response'][200]>;
export type BulkRestoreRequest = Static<(typeof changesEndpoints)['memoryChangeRestore']['body']>;
export type BulkRestoreResult = Static<(typeof changesEndpoints)['memoryChangeRestore']['response'][200]>;

// Every endpoint of the API: its parameters, its JSON body, its documented plain-text errors. fastify
// validates requests with these schemas and gets the handlers' TypeScript types from them, @fastify/swagger
// turns them into the OpenAPI document, and the types at the end are what the web UI's client receives.
// Plain data and TypeBox only: nothing here knows fastify, so the UI and the domain may import the types.
import {
  Array as TArray, Boolean as TBoolean, Integer, Object as TObject, Ref, String as TString, type Static, type TSchema,
} from 'typebox';
import { textAnswer } from './schemaParts.js';
import type { components } from './shapes.js';
import { careEndpoints } from './memoryCare.js';

// Named imports, not TypeBox's `Type` namespace: see shapes.ts.
const Type = { Array: TArray, Boolean: TBoolean, Integer, Object: TObject, Ref, String: TString } as const;

/** A body's TypeScript type, with `Type.Ref('PlanMetadata')` and the like resolved to the shared shapes. */
export type Body<T extends TSchema> = Static<T, typeof components>;

const ContentBody = Type.Object({ content: Type.String() });

/** Plain-text error responses, documented per route as the spec lists them. */
export const errors = {
  badRequest: textAnswer('Bad request (malformed URL, parameter or body)', 'Bad request'),
  forbidden: textAnswer('Host not allowed, or a cross-origin state-changing request', 'Forbidden'),
  planNotFound: textAnswer('No such plan', 'Plan not found'),
  memoryNotFound: textAnswer('Unknown entry id', 'Memory not found'),
  invalidPath: textAnswer('filepath is not a known plan or memory file, or the body is malformed or not JSON', 'Invalid path'),
  openFailed: textAnswer('The file could not be opened, for example no editor is available', 'Failed to open file'),
  tooLarge: textAnswer('Request body larger than 16 KiB', 'Payload Too Large'),
  unsupported: textAnswer('A body that is not JSON (the request needs none)', 'Unsupported Media Type'),
  internal: textAnswer('Internal server error', 'Internal Server Error'),
} as const;

const QueryText = Type.Object({
  q: Type.String({ default: '', description: 'Search text, matched literally and case-insensitively (all of Unicode that lowercases). Empty or absent: no matches.' }),
}, { required: ['q'] });

export const endpoints = {
  plans: {
    summary: 'List metadata of all plans, without content',
    description: 'Newest `modified` first, ties by file name. Supports ETag / If-None-Match (304) and gzip.',
    response: { 200: Type.Object({ plans: Type.Array(Type.Ref('PlanMetadata')) }), 400: errors.badRequest, 403: errors.forbidden },
  },
  planContent: {
    summary: 'Full markdown of one plan',
    params: Type.Object({ filename: Type.String({ description: 'A plan file name as listed by GET /api/plans' }) }),
    response: { 200: ContentBody, 400: errors.badRequest, 403: errors.forbidden, 404: errors.planNotFound },
  },
  search: {
    summary: 'File names of plans whose content contains q',
    description: 'Case-insensitive, literal (never a pattern), content only; results in GET /api/plans order.',
    querystring: QueryText,
    response: { 200: Type.Object({ filenames: Type.Array(Type.String()) }), 400: errors.badRequest, 403: errors.forbidden },
  },
  memory: {
    summary: 'List memory sources and entries, without content',
    description: 'Sources sorted by project name. The result is cached for 5 seconds; POST /api/refresh and file changes clear the cache.',
    response: {
      200: Type.Object({ sources: Type.Array(Type.Ref('MemorySource')), entries: Type.Array(Type.Ref('MemoryEntry')) }),
      400: errors.badRequest, 403: errors.forbidden,
    },
  },
  memoryContent: {
    summary: 'Raw markdown of one memory entry, including frontmatter',
    querystring: Type.Object({
      id: Type.String({ default: '', description: 'An entry id from GET /api/memory (<sourceId>/<filename>), URL-encoded' }),
    }, { required: ['id'] }),
    response: { 200: ContentBody, 400: errors.badRequest, 403: errors.forbidden, 404: errors.memoryNotFound },
  },
  memorySearch: {
    summary: 'Ids of memory entries whose raw content contains q',
    description: 'Case-insensitive, literal, frontmatter included; results in GET /api/memory entry order.',
    querystring: QueryText,
    response: { 200: Type.Object({ ids: Type.Array(Type.String()) }), 400: errors.badRequest, 403: errors.forbidden },
  },
  projects: {
    summary: 'Unique project names associated with plans, sorted',
    response: { 200: Type.Object({ projects: Type.Array(Type.String()) }), 400: errors.badRequest, 403: errors.forbidden },
  },
  refresh: {
    summary: 'Reload all plans from disk now and clear the memory listing cache',
    response: {
      200: Type.Object({ success: Type.Boolean(), before: Type.Integer(), after: Type.Integer() }),
      400: errors.badRequest, 403: errors.forbidden, 413: errors.tooLarge, 415: errors.unsupported,
    },
  },
  open: {
    summary: 'Open a listed plan or memory file with the system default application for .md files',
    description: 'Requires Content-Type: application/json. The program is chosen by the platform (xdg-open, open, explorer.exe), never by the client.',
    body: Type.Object({ filepath: Type.String({ description: 'Exactly the filepath of a plan from GET /api/plans or an entry from GET /api/memory' }) }),
    response: {
      200: Type.Object({ success: Type.Boolean() }),
      400: errors.invalidPath, 403: errors.forbidden, 413: errors.tooLarge, 500: errors.openFailed,
    },
  },
  openapi: {
    summary: 'This OpenAPI 3.0.3 document',
    response: { 200: Type.Object({}, { additionalProperties: true, description: 'The OpenAPI document' }), 403: errors.forbidden },
  },
  events: {
    summary: 'Server-Sent Events: plan and memory changes (extension beyond interface 1.4.0)',
    description: [
      'An extension used by the web UI; not part of the 1.4.0 interface. `text/event-stream` with events:',
      '`ready` (data `{"demo":<true when the bundled demo home is served>}`) once on connect; `plans` (data `{"changed":[file names],"removed":[file names]}`) when plans',
      'are added, edited or deleted or their session links change; `memory` (data `{}`) when any memory file changes',
      '(the memory listing cache is already cleared when it is sent). A comment line is sent every 20 s as a keep-alive.',
    ].join(' '),
    response: {
      200: { description: 'An endless event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      403: errors.forbidden,
    },
  },
  ...careEndpoints,
} as const;

type Ok<E extends keyof typeof endpoints> = (typeof endpoints)[E]['response'][200];

export type PlanList = Body<Ok<'plans'>>;
export type Content = Body<Ok<'planContent'>>;
export type PlanSearch = Body<Ok<'search'>>;
export type MemoryListing = Body<Ok<'memory'>>;
export type MemorySearch = Body<Ok<'memorySearch'>>;
export type Projects = Body<Ok<'projects'>>;
export type RefreshResult = Body<Ok<'refresh'>>;
export type OpenRequest = Body<(typeof endpoints)['open']['body']>;
export type OpenResult = Body<Ok<'open'>>;
export type {
  MemoryFixAllRequest, MemoryFixAllResult, MemoryFixRequest, MemoryFixResult, MemoryFixes, MemoryHealth, MemoryHealthSource, MemoryProblem, MemoryRecentFix, MemoryTrash,
  MemoryTrashItem, MemoryUndoRequest, MemoryUndoResult, ProblemKind, FixKind, RecordKind,
} from './memoryCare.js';

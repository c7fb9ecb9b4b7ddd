// One TypeBox schema per resource and per route: fastify validates requests with them, the handlers get
// their TypeScript types from them, and @fastify/swagger turns them into the OpenAPI document.
import {
  Array as TArray, Boolean as TBoolean, Integer, Literal, Object as TObject, Ref, String as TString, Union, Unsafe,
  type Static, type TSchema,
} from 'typebox';

// Named imports, not TypeBox's `Type` namespace: the bundler can then leave out the rest of TypeBox
// (~480 KB of code to compile at every start) that building these plain JSON schemas never uses.
const Type = {
  Array: TArray, Boolean: TBoolean, Integer, Literal, Object: TObject, Ref, String: TString, Union, Unsafe,
} as const;

/** OpenAPI 3.0 has no `type: null`; `nullable` is what 3.0 tools (and ajv) understand. */
const Nullable = <T extends 'string'>(type: T, description: string) =>
  Type.Unsafe<string | null>({ type, nullable: true, description });

const DateTime = (description: string) => Type.String({ format: 'date-time', description });

export const PlanMetadataSchema = Type.Object({
  filename: Type.String({ description: 'Plan file name, ending in .md' }),
  filepath: Type.String({ description: 'Absolute path of the plan file' }),
  title: Type.String({ description: 'First markdown heading outside fenced code, without a leading "Plan:"; the file name without .md when there is none' }),
  size: Type.Integer({ description: 'File size in bytes' }),
  modified: DateTime('Last modification time'),
  created: DateTime('Creation (birth) time; the change time where the file system records no birth time'),
  lineCount: Type.Integer({ description: 'Number of lines as an editor counts them ("a\\nb\\n" is 2)' }),
  wordCount: Type.Integer({ description: 'Number of whitespace-separated words' }),
  project: Nullable('string', 'Last path segment of the cwd of the session that wrote the plan; null when no session log names it'),
  sessionId: Nullable('string', 'Session whose log lines carry "slug":"<plan file stem>"; null when none does'),
}, { $id: 'PlanMetadata', additionalProperties: false });

const memoryIndexStatsFields = {
  lines: Type.Integer({ description: 'Line count of MEMORY.md' }),
  bytes: Type.Integer({ description: 'Byte size of MEMORY.md' }),
  lineLimit: Type.Integer({ description: '200' }),
  byteLimit: Type.Integer({ description: '25000' }),
  danglingLinks: Type.Array(Type.String(), {
    description: 'Links in the index that point to files that do not exist: a `.md` path inside the memory folder that is no ' +
      'entry (relative to the folder), or a [[wikilink]] target that names no entry',
  }),
};

export const MemoryIndexStatsSchema = Type.Object(memoryIndexStatsFields, { $id: 'MemoryIndexStats', additionalProperties: false });

// OpenAPI 3.0 ignores siblings of $ref, so the nullable index is written out rather than referenced.
const NullableIndexStats = Type.Unsafe<Static<typeof MemoryIndexStatsSchema> | null>({
  ...Type.Object(memoryIndexStatsFields, { additionalProperties: false }),
  nullable: true,
  description: 'Statistics of MEMORY.md (the MemoryIndexStats shape); null when the directory has no MEMORY.md',
});

export const MemorySourceSchema = Type.Object({
  id: Type.String({ description: 'The project directory name for kind project; custom-<hash> for kind custom' }),
  kind: Type.Union([Type.Literal('project'), Type.Literal('custom')], { description: 'project: <claude>/projects/<project>/memory; custom: a directory named by an autoMemoryDirectory setting' }),
  project: Type.String({ description: 'Project name from the session working directory; "All projects" for a user-level autoMemoryDirectory' }),
  cwd: Nullable('string', 'Working directory of the project'),
  dir: Type.String({ description: 'Absolute path of the memory directory' }),
  active: Type.Boolean({ description: 'false when an autoMemoryDirectory setting means Claude Code no longer reads this directory' }),
  index: NullableIndexStats,
  orphans: Type.Array(Type.String(), { description: 'Topic files that MEMORY.md does not link to' }),
  entryCount: Type.Integer({ description: 'Number of topic files, excluding MEMORY.md' }),
  modified: DateTime('Latest modification time of any entry'),
}, { $id: 'MemorySource', additionalProperties: false });

export const MemoryEntrySchema = Type.Object({
  id: Type.String({ description: '<sourceId>/<filename>' }),
  sourceId: Type.String(),
  filename: Type.String({ description: 'Path relative to the memory directory (notes/deploy.md for a nested topic)' }),
  filepath: Type.String({ description: 'Absolute path' }),
  isIndex: Type.Boolean({ description: 'true for MEMORY.md' }),
  name: Type.String({ description: 'Frontmatter name; else the first heading; else the file name' }),
  description: Nullable('string', 'Frontmatter description'),
  type: Type.Unsafe<'user' | 'feedback' | 'project' | 'reference' | null>({
    type: 'string', enum: ['user', 'feedback', 'project', 'reference', null], nullable: true,
    description: 'Frontmatter type when it is one of user, feedback, project, reference; null otherwise',
  }),
  sessionId: Nullable('string', 'Frontmatter originSessionId'),
  modified: DateTime('Frontmatter modified; else the file modification time'),
  size: Type.Integer({ description: 'Size in bytes' }),
  lineCount: Type.Integer(),
  links: Type.Array(Type.String(), {
    description: 'File names this entry links to (markdown links and [[wikilinks]]): only targets that resolve to an entry of ' +
      'the same source, each once, without the entry itself. Links that resolve to nothing are in `index.danglingLinks` for ' +
      'MEMORY.md; a wikilink names an entry by its `name`, then its file name, then its base name (see docs/architecture.md)',
  }),
  linkedFrom: Type.Array(Type.String(), { description: 'File names that link to this entry' }),
  inIndex: Type.Boolean({ description: 'Linked from MEMORY.md; always true for MEMORY.md' }),
}, { $id: 'MemoryEntry', additionalProperties: false });

/** Shared components, registered once with fastify.addSchema so the document references them. */
export const sharedSchemas: TSchema[] = [PlanMetadataSchema, MemoryIndexStatsSchema, MemorySourceSchema, MemoryEntrySchema];

const text = (description: string, example: string) => ({
  description,
  content: { 'text/plain': { schema: { type: 'string', example } } },
});

/** Plain-text error responses, documented per route as the spec lists them. */
export const errors = {
  badRequest: text('Bad request (malformed URL, parameter or body)', 'Bad request'),
  forbidden: text('Host not allowed, or a cross-origin state-changing request', 'Forbidden'),
  planNotFound: text('No such plan', 'Plan not found'),
  memoryNotFound: text('Unknown entry id', 'Memory not found'),
  invalidPath: text('filepath is not a known plan or memory file, or the body is malformed or not JSON', 'Invalid path'),
  openFailed: text('The file could not be opened, for example no editor is available', 'Failed to open file'),
  tooLarge: text('Request body larger than 16 KiB', 'Payload Too Large'),
  unsupported: text('A body that is not JSON (the request needs none)', 'Unsupported Media Type'),
  internal: text('Internal server error', 'Internal Server Error'),
} as const;

const QueryText = Type.Object({
  q: Type.String({ default: '', description: 'Search text, matched literally and case-insensitively (all of Unicode that lowercases). Empty or absent: no matches.' }),
}, { required: ['q'] });

export const routes = {
  plans: {
    summary: 'List metadata of all plans, without content',
    description: 'Newest `modified` first, ties by file name. Supports ETag / If-None-Match (304) and gzip.',
    response: { 200: Type.Object({ plans: Type.Array(Type.Ref('PlanMetadata')) }), 400: errors.badRequest, 403: errors.forbidden },
  },
  planContent: {
    summary: 'Full markdown of one plan',
    params: Type.Object({ filename: Type.String({ description: 'A plan file name as listed by GET /api/plans' }) }),
    response: { 200: Type.Object({ content: Type.String() }), 400: errors.badRequest, 403: errors.forbidden, 404: errors.planNotFound },
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
    response: { 200: Type.Object({ content: Type.String() }), 400: errors.badRequest, 403: errors.forbidden, 404: errors.memoryNotFound },
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
} as const;

export type OpenBody = Static<typeof routes.open.body>;

// The resources the service exposes, exactly as the interface spec names them: one TypeBox schema each,
// and its TypeScript type derived from it. The HTTP layer validates and documents with the schemas; the
// domain and the web UI import the types only (`import type`), so neither pulls in TypeBox or HTTP.
import {
  Array as TArray, Boolean as TBoolean, Integer, Literal, Object as TObject, String as TString, Union, Unsafe,
  type Static,
} from 'typebox';
import { DateTime, NullableString } from './schemaParts.js';

// Named imports, not TypeBox's `Type` namespace: the bundler can then leave out the rest of TypeBox
// that building these plain JSON schemas never uses (compiled at every start otherwise).
const Type = { Array: TArray, Boolean: TBoolean, Integer, Literal, Object: TObject, String: TString, Union, Unsafe } as const;



export const PlanMetadataSchema = Type.Object({
  filename: Type.String({ description: 'Plan file name, ending in .md' }),
  filepath: Type.String({ description: 'Absolute path of the plan file' }),
  title: Type.String({ description: 'First markdown heading outside fenced code, without a leading "Plan:"; the file name without .md when there is none' }),
  size: Type.Integer({ description: 'File size in bytes' }),
  modified: DateTime('Last modification time'),
  created: DateTime('Creation (birth) time; the change time where the file system records no birth time'),
  lineCount: Type.Integer({ description: 'Number of lines as an editor counts them ("a\\nb\\n" is 2)' }),
  wordCount: Type.Integer({ description: 'Number of whitespace-separated words' }),
  project: NullableString('Last path segment of the cwd of the session that wrote the plan; null when no session log names it'),
  sessionId: NullableString('Session whose log lines carry "slug":"<plan file stem>"; null when none does'),
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
  cwd: NullableString('Working directory of the project'),
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
  description: NullableString('Frontmatter description'),
  type: Type.Unsafe<'user' | 'feedback' | 'project' | 'reference' | null>({
    type: 'string', enum: ['user', 'feedback', 'project', 'reference', null], nullable: true,
    description: 'Frontmatter type when it is one of user, feedback, project, reference; null otherwise',
  }),
  sessionId: NullableString('Frontmatter originSessionId'),
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

/**
 * The shared components, by the name the endpoints (endpoints.ts) refer to them with
 * (`Type.Ref('PlanMetadata')`): the server registers them once, the OpenAPI document lists them, and
 * `Static` resolves the references through them.
 */
export const components = {
  PlanMetadata: PlanMetadataSchema,
  MemoryIndexStats: MemoryIndexStatsSchema,
  MemorySource: MemorySourceSchema,
  MemoryEntry: MemoryEntrySchema,
};

export type PlanMetadata = Static<typeof PlanMetadataSchema>;
export type MemoryIndexStats = Static<typeof MemoryIndexStatsSchema>;
export type MemorySource = Static<typeof MemorySourceSchema>;
export type MemorySourceKind = MemorySource['kind'];
export type MemoryEntry = Static<typeof MemoryEntrySchema>;
export type MemoryType = NonNullable<MemoryEntry['type']>;

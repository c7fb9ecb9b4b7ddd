// The JSON bodies of each endpoint, request and response, built from the shared resources in shapes.ts.
// The route definitions (src/http/schemas.ts) wrap these with summaries and error answers; the web UI's
// client types its calls with the types below.
import {
  Array as TArray, Boolean as TBoolean, Integer, Object as TObject, Ref, String as TString, type Static, type TSchema,
} from 'typebox';
import type { components } from './shapes.js';

const Type = { Array: TArray, Boolean: TBoolean, Integer, Object: TObject, Ref, String: TString } as const;

/** A body's TypeScript type, with `Type.Ref('PlanMetadata')` and the like resolved to the shared shapes. */
export type Body<T extends TSchema> = Static<T, typeof components>;

export const PlanListSchema = Type.Object({ plans: Type.Array(Type.Ref('PlanMetadata')) });
export const ContentSchema = Type.Object({ content: Type.String() });
export const PlanSearchSchema = Type.Object({ filenames: Type.Array(Type.String()) });
export const MemoryListingSchema = Type.Object({ sources: Type.Array(Type.Ref('MemorySource')), entries: Type.Array(Type.Ref('MemoryEntry')) });
export const MemorySearchSchema = Type.Object({ ids: Type.Array(Type.String()) });
export const ProjectsSchema = Type.Object({ projects: Type.Array(Type.String()) });
export const RefreshResultSchema = Type.Object({ success: Type.Boolean(), before: Type.Integer(), after: Type.Integer() });
export const OpenRequestSchema = Type.Object({ filepath: Type.String({ description: 'Exactly the filepath of a plan from GET /api/plans or an entry from GET /api/memory' }) });
export const OpenResultSchema = Type.Object({ success: Type.Boolean() });

export type PlanList = Body<typeof PlanListSchema>;
export type Content = Body<typeof ContentSchema>;
export type PlanSearch = Body<typeof PlanSearchSchema>;
export type MemoryListing = Body<typeof MemoryListingSchema>;
export type MemorySearch = Body<typeof MemorySearchSchema>;
export type Projects = Body<typeof ProjectsSchema>;
export type RefreshResult = Body<typeof RefreshResultSchema>;
export type OpenRequest = Body<typeof OpenRequestSchema>;
export type OpenResult = Body<typeof OpenResultSchema>;

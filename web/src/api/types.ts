// The JSON shapes of the service: the types of its schemas in src/contract/ (type-only import: nothing
// from src/ ends up in the bundle).
export type {
  PlanMetadata,
  MemorySource,
  MemoryEntry,
  MemoryIndexStats,
  MemoryType,
} from '../../../src/contract/shapes';
export type {
  Content,
  MemoryListing,
  MemorySearch,
  OpenRequest,
  OpenResult,
  PlanList,
  PlanSearch,
  RefreshResult,
} from '../../../src/contract/endpoints';

// The JSON shapes of the service, shared with the server's domain module (type-only import:
// nothing from src/ ends up in the bundle).
export type {
  PlanMetadata,
  MemorySource,
  MemoryEntry,
  MemoryIndexStats,
  MemoryType,
  MemoryListing,
} from '../../../src/domain/types';

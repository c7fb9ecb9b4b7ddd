// The shapes the service exposes are defined once, as schemas, in src/contract/ (type-only here: the
// domain never loads TypeBox or anything of HTTP); this file re-exports their types for the domain.
export type * from '../contract/shapes.js';
export type { MemoryListing } from '../contract/endpoints.js';
export type { ArchivedPlan, PlanEvent, PlanVersion, SessionCard } from '../contract/history.js';

/** Where the domain reports what it skipped or refused; the CLI prints it, tests collect it. */
export interface Logger {
  warn(message: string): void;
}

export const silentLogger: Logger = { warn: () => undefined };

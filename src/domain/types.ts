// Shapes the service exposes, exactly as the interface spec names them. The HTTP schemas in
// src/http/schemas.ts describe the same objects for validation and the OpenAPI document.

export interface PlanMetadata {
  filename: string;
  filepath: string;
  title: string;
  size: number;
  modified: string;
  created: string;
  lineCount: number;
  wordCount: number;
  project: string | null;
  sessionId: string | null;
}

export interface MemoryIndexStats {
  lines: number;
  bytes: number;
  lineLimit: number;
  byteLimit: number;
  danglingLinks: string[];
}

export type MemorySourceKind = 'project' | 'custom';

export interface MemorySource {
  id: string;
  kind: MemorySourceKind;
  project: string;
  cwd: string | null;
  dir: string;
  active: boolean;
  index: MemoryIndexStats | null;
  orphans: string[];
  entryCount: number;
  modified: string;
}

export type MemoryType = 'user' | 'feedback' | 'project' | 'reference';

export interface MemoryEntry {
  id: string;
  sourceId: string;
  filename: string;
  filepath: string;
  isIndex: boolean;
  name: string;
  description: string | null;
  type: MemoryType | null;
  sessionId: string | null;
  modified: string;
  size: number;
  lineCount: number;
  links: string[];
  linkedFrom: string[];
  inIndex: boolean;
}

export interface MemoryListing {
  sources: MemorySource[];
  entries: MemoryEntry[];
}

/** Where the domain reports what it skipped or refused; the CLI prints it, tests collect it. */
export interface Logger {
  warn(message: string): void;
  info?(message: string): void;
}

export const silentLogger: Logger = { warn: () => undefined };

// `plan-memory-viewer export`: every listed plan's and memory entry's metadata (the shapes GET /api/plans
// and GET /api/memory answer), with --content their text too, as one JSON document. --from-file serves
// such a document again (see fromFile.ts).
import { readOpenedText } from '../domain/files.js';
import type { MemoryEntry, MemorySource, PlanMetadata } from '../domain/types.js';
import type { Viewer } from '../viewer.js';

export const EXPORT_FORMAT = 'plan-memory-viewer-export';
export const EXPORT_VERSION = 1;

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  /** The viewer's version that wrote it. */
  generator: string;
  claudeDir: string;
  /** Whether every plan and entry carries its `content` (null where a file could not be read). */
  withContent: boolean;
  plans: (PlanMetadata & { content?: string | null })[];
  memory: { sources: MemorySource[]; entries: (MemoryEntry & { content?: string | null })[] };
}

export async function exportData(viewer: Viewer, options: { content: boolean; generator: string }): Promise<ExportDocument> {
  const plans: ExportDocument['plans'] = [];
  for (const plan of viewer.plans.list()) {
    plans.push(options.content ? { ...plan, content: await viewer.plans.content(plan.filename) } : plan);
  }
  const listing = await viewer.memory.list();
  const entries: ExportDocument['memory']['entries'] = [];
  for (const entry of listing.entries) {
    if (!options.content) {
      entries.push(entry);
      continue;
    }
    const opened = await viewer.memory.open(entry.id);
    entries.push({ ...entry, content: opened && (await readOpenedText(opened)) });
  }
  return {
    format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: new Date().toISOString(), generator: options.generator,
    claudeDir: viewer.options.claudeDir, withContent: options.content, plans, memory: { sources: listing.sources, entries },
  };
}

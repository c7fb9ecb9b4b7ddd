// The state of a memory source at a glance: its index verdict under Claude Code's load budget (from the
// health check, never from raw byte counts), and "not read" for a folder Claude Code no longer reads,
// which is never shown as healthy.
import type { MemoryHealthSource, MemorySource } from '../api/types';
import { budgetLevel, type Level } from './cutPoint';

export type SourceStatus = Level | 'inactive';

export function sourceLevel(source: MemorySource, load: MemoryHealthSource['load'] | undefined): SourceStatus | null {
  if (!source.active) return 'inactive';
  if (!load) return null;
  return budgetLevel({ truncated: load.truncated, totalLines: load.lines, totalChars: load.chars }, load.lineLimit, load.charLimit);
}

export const LEVEL_TEXT: Record<SourceStatus, string> = {
  ok: 'ok',
  near: 'near the limit',
  over: 'over the limit',
  inactive: 'not read by Claude Code',
};

export function kindLabel(source: MemorySource): string {
  if (source.kind === 'custom' && source.project.includes('agent: ')) return 'subagent memory';
  return source.kind === 'custom' ? 'custom autoMemoryDirectory' : 'default';
}

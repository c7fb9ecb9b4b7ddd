// The health of a MEMORY.md from its stats alone (no content needed): used in the source list.
import type { MemorySource } from '../api/types';
import { BYTE_LIMIT, LINE_LIMIT, levelOf, worstLevel, type Level } from './cutPoint';

export function sourceLevel(source: MemorySource): Level | null {
  const s = source.index;
  if (!s) return null;
  return worstLevel(levelOf(s.lines, s.lineLimit || LINE_LIMIT), levelOf(s.bytes, s.byteLimit || BYTE_LIMIT));
}

export const LEVEL_TEXT: Record<Level, string> = {
  ok: 'ok',
  near: 'near the limit',
  over: 'over the limit',
};

export function kindLabel(source: MemorySource): string {
  return source.kind === 'custom' ? 'custom autoMemoryDirectory' : 'default';
}

// Where Claude Code stops reading MEMORY.md: the service's own rule (src/domain/memory/loadBudget.ts,
// imported rather than copied), so the cut the reader draws, the meters and the verdict are exactly what
// the health check reports. Frontmatter and HTML comments are left out before the 200-line /
// 25,000-character check; characters are counted, never bytes. Offsets are in the original content.
import {
  type CutReason, INDEX_CHAR_LIMIT, INDEX_LINE_LIMIT, type Level, type LoadBudget, budgetLevel, levelOf, loadBudget,
} from '../../../src/domain/memory/loadBudget';

export type { CutReason, Level };
export type CutPoint = LoadBudget;
export { budgetLevel, levelOf };

export const LINE_LIMIT = INDEX_LINE_LIMIT;
export const CHAR_LIMIT = INDEX_CHAR_LIMIT;

export function computeCut(content: string, lineLimit = LINE_LIMIT, charLimit = CHAR_LIMIT): CutPoint {
  return loadBudget(content, lineLimit, charLimit);
}

export function worstLevel(...levels: Level[]): Level {
  return levels.includes('over') ? 'over' : levels.includes('near') ? 'near' : 'ok';
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

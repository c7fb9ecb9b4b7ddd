import { describe, expect, it } from 'vitest';
import { deletesAt, isDirectlyIn, riskOf, transcriptDeletesAt, whenText } from './retention';

const DAY = 86_400_000;
const policy = { cleanupPeriodDays: 30, plansDir: '/home/u/.claude/plans' };

describe('retention', () => {
  it('applies only to plans directly in the shared plans folder', () => {
    expect(isDirectlyIn('/home/u/.claude/plans/a.md', '/home/u/.claude/plans/')).toBe(true);
    expect(isDirectlyIn('/home/u/.claude/plans/sub/a.md', policy.plansDir)).toBe(false);
    expect(isDirectlyIn('/home/u/.claude/plansX/a.md', policy.plansDir)).toBe(false);
    expect(isDirectlyIn('C:\\u\\.claude\\plans\\a.md', 'C:\\u\\.claude\\plans')).toBe(true);
    expect(deletesAt({ filepath: '/repo/plans/a.md', modified: '2026-01-01T00:00:00.000Z' }, policy)).toBeNull();
  });

  it('deletes a plan its period after its mtime', () => {
    expect(deletesAt({ filepath: '/home/u/.claude/plans/a.md', modified: '2026-01-01T00:00:00.000Z' }, policy)).toBe('2026-01-31T00:00:00.000Z');
    expect(deletesAt({ filepath: '/home/u/.claude/plans/a.md', modified: '2026-01-01T00:00:00.000Z' }, { ...policy, cleanupPeriodDays: 7 })).toBe('2026-01-08T00:00:00.000Z');
  });

  it('is at risk within a week of the deletion, or past it', () => {
    const at = Date.parse('2026-01-31T00:00:00.000Z');
    expect(riskOf('2026-01-31T00:00:00.000Z', at - 8 * DAY)).toBeNull();
    expect(riskOf('2026-01-31T00:00:00.000Z', at - 2.5 * DAY)).toEqual({ deletesAt: '2026-01-31T00:00:00.000Z', daysLeft: 2 });
    expect(whenText(riskOf('2026-01-31T00:00:00.000Z', at - 2.5 * DAY)!)).toBe('in 2 days');
    expect(whenText(riskOf('2026-01-31T00:00:00.000Z', at - 0.5 * DAY)!)).toBe('within a day');
    expect(whenText(riskOf('2026-01-31T00:00:00.000Z', at + DAY)!)).toMatch(/passed/);
    expect(riskOf(null, at)).toBeNull();
  });

  it('deletes a transcript its period after its last line', () => {
    expect(transcriptDeletesAt('2026-01-01T10:00:00.000Z', policy)).toBe('2026-01-31T10:00:00.000Z');
    expect(transcriptDeletesAt(null, policy)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { sessionLabel } from './shownTitle';

describe('sessionLabel', () => {
  it('prefers the title, then the first line of the first prompt, else nothing', () => {
    expect(sessionLabel('Theme switch work', 'Plan a theme switch')).toBe('Theme switch work');
    expect(sessionLabel('  ', 'Plan a theme switch\nwith details')).toBe('Plan a theme switch');
    expect(sessionLabel(null, null)).toBeNull();
    expect(sessionLabel(null, '\nsecond line only')).toBeNull();
  });

  it('clips long labels to 60 characters with an ellipsis', () => {
    const label = sessionLabel('x'.repeat(100), null)!;
    expect(label).toHaveLength(60);
    expect(label.endsWith('…')).toBe(true);
  });
});

// Counts in the CLI's lines agree with their nouns: "1 plan", never "1 plans".
import { describe, expect, it } from 'vitest';
import { plural } from '../../src/cli/format.js';
import { progressLine } from '../../src/cli/progress.js';

describe('plural', () => {
  it('says 1 of a thing in the singular and any other count in the plural', () => {
    expect(plural(1, 'topic')).toBe('1 topic');
    expect(plural(0, 'topic')).toBe('0 topics');
    expect(plural(12345, 'entry', 'entries')).toBe('12,345 entries');
  });

  it('the scan progress line counts one session log and one plan in the singular', () => {
    expect(progressLine({ logs: 1, bytes: 2048, plans: 1 })).toBe('  Scanning:     1 session log (2 KB read), 1 plan');
    expect(progressLine({ logs: 3, bytes: 2048, plans: 0 })).toBe('  Scanning:     3 session logs (2 KB read), 0 plans');
  });
});

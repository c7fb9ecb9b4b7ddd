// The memory care flags: --read-only and --stale-days, parsed strictly like every flag.
import { describe, expect, it } from 'vitest';
import { UsageError, parseCliArgs } from '../../src/config/args.js';

describe('memory care flags', () => {
  it('reads --read-only and --stale-days, and defaults to writable with the 90-day default', () => {
    expect(parseCliArgs([])).toMatchObject({ readOnly: false, staleDays: null });
    expect(parseCliArgs(['--read-only', '--stale-days', '30'])).toMatchObject({ readOnly: true, staleDays: 30 });
  });

  it.each([['0'], ['-3'], ['ten'], ['1.5'], ['']])('refuses --stale-days %j', (value) => {
    expect(() => parseCliArgs(['--stale-days', value])).toThrow(UsageError);
  });
});

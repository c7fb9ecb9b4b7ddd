import { describe, expect, it } from 'vitest';
import { formatBytes, plural, relativeTime, resumeCommand, shellQuote, shortRelativeTime } from './format';

describe('format', () => {
  it('makes a count agree with its noun', () => {
    expect(plural(1, 'topic')).toBe('1 topic');
    expect(plural(0, 'topic')).toBe('0 topics');
    expect(plural(2, 'orphan')).toBe('2 orphans');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(1234, 'entry', 'entries')).toBe('1,234 entries');
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(30 * 1024)).toBe('30 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });

  it('gives relative times', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');
    expect(relativeTime('2026-11-20T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-11-20T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2026-11-19T12:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-10-01T12:00:00Z', now)).toBe('2 months ago');
    expect(relativeTime('nope', now)).toBe('unknown');
    expect(shortRelativeTime('2026-11-20T11:30:00Z', now)).toBe('30 min ago');
    expect(shortRelativeTime('2026-11-20T09:00:00Z', now)).toBe('3 h ago');
    expect(shortRelativeTime('2026-11-17T12:00:00Z', now)).toBe('3 days ago');
  });

  it('builds the resume command with the project cwd, quoting only when needed', () => {
    const id = '1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f';
    expect(resumeCommand(id, '/home/alice/src/webapp')).toBe(`cd /home/alice/src/webapp && claude --resume ${id}`);
    expect(resumeCommand(id, null)).toBe(`claude --resume ${id}`);
    expect(resumeCommand(id, "/tmp/it's here")).toBe(`cd '/tmp/it'\\''s here' && claude --resume ${id}`);
    expect(shellQuote('$(rm -rf ~)')).toBe(`'$(rm -rf ~)'`);
  });
});

import { describe, expect, it } from 'vitest';
import { shownTitle } from './shownTitle';

describe('shownTitle', () => {
  it('keeps a title taken from a heading', () => {
    expect(shownTitle('Dark mode', 'dark-mode-happy-otter.md', null, 'Theme work')).toBe('Dark mode');
  });

  it('shows a plan without a heading under its session\'s title', () => {
    expect(shownTitle('notes-calm-fox', 'notes-calm-fox.md', 'just some notes\n', 'Theme work')).toBe('Theme work');
    expect(shownTitle('notes-calm-fox', 'notes-calm-fox.md', null, 'Theme work')).toBe('Theme work');
  });

  it('prefers the loaded text\'s heading to a title the service took from the file name', () => {
    expect(shownTitle('gone-plan-quiet-heron', 'gone-plan-quiet-heron.md', '# Plan: Retired migration\n', 'Theme work')).toBe('Retired migration');
  });

  it('falls back to the file name when nothing better is known', () => {
    expect(shownTitle('notes-calm-fox', 'notes-calm-fox.md', null, null)).toBe('notes-calm-fox');
    expect(shownTitle('notes-calm-fox', 'notes-calm-fox.md', null, '  ')).toBe('notes-calm-fox');
  });
});

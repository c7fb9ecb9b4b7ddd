// The plan-against-work heuristic on its own: which lines are steps, and how evidence decides a step's state.
import { describe, expect, it } from 'vitest';
import { askedVerification, matchSteps, planSteps, unplannedFiles } from '../../src/domain/outcome/steps.js';

const PLAN = [
  '# Plan', '', '## Steps', '', '1. Add `src/theme/ThemeProvider.tsx`', '2. Mount it in src/App.tsx and src/main.tsx',
  '- [ ] Run `pnpm test` and `pnpm build`', '- [x] Update the README section on themes', '', '```', '1. inside a fence', '```', '',
  'Not a step.',
].join('\n');

describe('plan steps', () => {
  it('are the list items outside code blocks, with their lines', () => {
    expect(planSteps(PLAN)).toEqual([
      { line: 5, text: 'Add `src/theme/ThemeProvider.tsx`' },
      { line: 6, text: 'Mount it in src/App.tsx and src/main.tsx' },
      { line: 7, text: 'Run `pnpm test` and `pnpm build`' },
      { line: 8, text: 'Update the README section on themes' },
    ]);
  });

  it('are done when all they name happened, partly when some did or it failed, without evidence otherwise', () => {
    const steps = matchSteps(PLAN, {
      files: ['/r/src/theme/ThemeProvider.tsx', '/r/src/App.tsx', '/r/src/extra.ts'],
      commands: [{ command: 'pnpm test', failed: false, kind: 'test' }, { command: 'pnpm build', failed: true, kind: 'build' }],
      tasks: [{ content: 'Update README themes section', status: 'in_progress' }],
    });
    expect(steps.map((s) => s.status)).toEqual(['done', 'partly', 'partly', 'partly']);
    expect(steps[1]!.evidence).toEqual(['changed /r/src/App.tsx']);
    expect(steps[2]!.evidence).toEqual(['ran pnpm test (1×, last passed)', 'ran pnpm build (1×, last failed)']);
    expect(matchSteps(PLAN, { files: [], commands: [], tasks: [] }).map((s) => s.status)).toEqual(['no-evidence', 'no-evidence', 'no-evidence', 'no-evidence']);
  });

  it('names the changed files the plan never mentions, and the verification it asks for', () => {
    expect(unplannedFiles(PLAN, ['/r/src/App.tsx', '/r/src/extra.ts'], null)).toEqual(['/r/src/extra.ts']);
    expect(askedVerification(PLAN)).toEqual({ test: true, build: true });
    expect(askedVerification('# Plan\n\n1. Rename the flag\n')).toEqual({ test: false, build: false });
  });
});

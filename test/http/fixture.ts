// The home most API tests share: two projects, linked and unlinked plans, memory, a plansDirectory.
import { TempHome, conversationLine, encodeCwd, uuid } from '../helpers/home.js';

export interface Fixture {
  home: TempHome;
  webapp: string;
  api: string;
}

export async function buildFixture(): Promise<Fixture> {
  const home = await TempHome.create();
  const webapp = await home.repo('webapp');
  const api = await home.repo('api-server');
  const t = (minutesAgo: number) => new Date(Date.parse('2026-11-20T12:00:00Z') - minutesAgo * 60_000);

  await home.plan('jolly-juggling-penguin.md', '# Plan: Add dark mode\n\nUse CSS variables.\nGröße ΟΔΟΣ\n', t(10));
  await home.plan('jolly-juggling-penguin-agent-a7b1cd4effbcbdebe.md', '# Explore the theme code\n', t(20));
  await home.plan('calm-wandering-heron.md', 'No heading in this plan, just words.\n', t(30));
  await home.plan('tie-b.md', '# Tie B\n', t(40));
  await home.plan('tie-a.md', '```sh\n# not the title\n```\n# Plan: Tie A\n', t(40));
  await home.plan('.hidden.md', '# hidden\n', t(5));
  await home.plan('draft.md.tmp.123.abcdef012345', '# in flight\n', t(5));
  await home.write('plans/notes.txt', 'not a plan');

  await home.session(webapp, uuid(1), [null, 'jolly-juggling-penguin']);
  await home.session(api, uuid(2), ['tie-a', 'tie-a']);
  await home.write(`projects/${encodeCwd(api)}/${uuid(2)}/subagents/agent-a1.jsonl`, conversationLine(api, uuid(2), 'tie-b') + '\n');
  // plansDirectory of the webapp project: plans also live in <repo>/docs/plans.
  await home.write(`${webapp}/.claude/settings.json`, JSON.stringify({ plansDirectory: 'docs/plans' }));
  await home.write(`${webapp}/docs/plans/repo-plan.md`, '# Plan: Lives in the repo\n', t(50));
  await home.session(webapp, uuid(3), ['repo-plan']);

  const memDir = `projects/${encodeCwd(webapp)}/memory`;
  await home.write(`${memDir}/MEMORY.md`, '# Memory\n\n- [User role](user-role.md) — who the user is\n- [Gone](missing.md) — dangling\n');
  await home.write(`${memDir}/user-role.md`, [
    '---', 'name: user-role', 'description: "Senior backend engineer"', 'metadata:', '  type: user',
    `  originSessionId: ${uuid(1)}`, '  modified: 2026-11-19T09:12:44.120Z', '---', 'Prefers Go. See [[testing-style]].', '',
  ].join('\n'));
  await home.write(`${memDir}/notes/testing.md`, '---\nname: testing-style\ntype: feedback\n---\nTable tests. Σίγμα\n');
  return { home, webapp, api };
}

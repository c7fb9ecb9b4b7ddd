// What the freshness and append phases share while they change the home under the running server: a poller
// on its plan list, a wait for it to go idle, and the sessions and orphan plans the changes link.

import type { Facts, SessionFact } from './facts.js';
import { Client, waitQuiet } from './measure.js';
import { PlansPoller } from './plan-list.js';
import type { RunContext } from './run-context.js';
import type { Server } from './server.js';

export interface HomeChanges {
  poller: PlansPoller;
  /** Waits for the server to go idle; warns (once per run) when it does not. */
  settle: (pid: number) => Promise<void>;
  /** Sessions without a slug, smallest first. */
  slugless: SessionFact[];
  /** The plans no log links yet: each change that links one takes it off this list. */
  orphans: string[];
}

export function watchHomeChanges(run: RunContext, server: Server): HomeChanges {
  let restless = 0;
  const settle = async (pid: number): Promise<void> => {
    if (!(await waitQuiet(pid)) && restless++ === 0) run.warn('the server never went idle (>= 1% CPU) within 5 s');
  };
  const poller = new PlansPoller(new Client(server.port));
  const { slugless, orphans } = planFacts(run.facts);
  return { poller, settle, slugless, orphans };
}

function planFacts(facts: Facts): { slugless: SessionFact[]; orphans: string[] } {
  const slugless = facts.sessions.filter((s) => !s.subagent && s.slug === null).sort((a, b) => a.bytes - b.bytes);
  return { slugless, orphans: [...facts.orphanSlugs] };
}
